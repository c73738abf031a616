/** Part names inside an OPC package: relationship targets are relative to the source part's folder. */
export function resolveTarget(sourcePart: string, target: string): string {
  if (target.startsWith('/')) return normalize(target.slice(1));
  const slash = sourcePart.lastIndexOf('/');
  const base = slash < 0 ? '' : sourcePart.slice(0, slash + 1);
  return normalize(base + target);
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  }
  return out.join('/');
}

/** word/document.xml -> word/_rels/document.xml.rels */
export function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** The relationship target that names `part` from `sourcePart` (word/document.xml, word/comments.xml -> comments.xml). */
export function relativeTarget(sourcePart: string, part: string): string {
  const slash = sourcePart.lastIndexOf('/');
  const base = slash < 0 ? '' : sourcePart.slice(0, slash + 1);
  return base && part.startsWith(base) ? part.slice(base.length) : `/${part}`;
}
