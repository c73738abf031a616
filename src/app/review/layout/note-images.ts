import type { ModelNode } from './annotate';

interface Rel {
  id: string;
  type?: string;
  target: string;
}
interface PartWithRels {
  path: string;
  rels?: Rel[];
}
interface NotesPart extends PartWithRels {
  notes: ModelNode[];
}
interface NotesModel {
  documentPart: unknown;
  footnotesPart?: unknown;
  endnotesPart?: unknown;
}

/**
 * docx-preview 0.4.1 renders footnotes and endnotes with no current part, so an image in a note
 * is looked up among the main document's relationships: the note's own rId1 names another
 * picture or none, and the note shows a broken image. Each image relationship of a notes part is
 * made known to the main part under a name of its own, and the note's images renamed to it, so
 * docx-preview finds the picture the note holds (the notes parts sit in the main part's folder).
 */
export function resolveNoteImages(doc: NotesModel): void {
  const main = doc.documentPart as PartWithRels;
  if (!main.rels) return;
  for (const part of [doc.footnotesPart, doc.endnotesPart] as (NotesPart | undefined)[]) {
    if (!part?.rels?.length || folderOf(part.path) !== folderOf(main.path)) continue;
    const renamed = new Map<string, string>();
    for (const rel of part.rels) {
      if (!rel.type?.endsWith('/image')) continue;
      const id = `rl-${part.path.replace(/\W/g, '-')}-${rel.id}`;
      renamed.set(rel.id, id);
      main.rels.push({ ...rel, id });
    }
    if (renamed.size === 0) continue;
    for (const note of part.notes) rename(note, renamed);
  }
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** An image's relationship id in docx-preview's model: a drawing's `src`, a VML shape's `imageHref.id`. */
function rename(node: ModelNode, renamed: ReadonlyMap<string, string>): void {
  if (typeof node.src === 'string' && renamed.has(node.src)) node.src = renamed.get(node.src);
  const href = node.imageHref as { id?: string } | undefined;
  if (href?.id && renamed.has(href.id)) href.id = renamed.get(href.id);
  for (const child of node.children ?? []) rename(child, renamed);
}
