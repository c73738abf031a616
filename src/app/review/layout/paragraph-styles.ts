/**
 * Paragraph style properties docx-preview does not read, read from styles.xml itself: each
 * paragraph style's own value of a property, and the value it takes through the styles it is
 * based on (w:basedOn), as Word resolves it.
 */

/** A paragraph style's own w:pPr (empty when it has none) and the style it is based on. */
export interface ParagraphStyleXml {
  pPr: string;
  basedOn: string | null;
}

/** The paragraph styles of styles.xml by id. */
export function paragraphStylesXml(stylesXml: string): Map<string, ParagraphStyleXml> {
  const out = new Map<string, ParagraphStyleXml>();
  for (const m of stylesXml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const head = m[1]!;
    const body = m[2]!;
    if (!/w:type="paragraph"/.test(head)) continue;
    const id = /w:styleId="([^"]*)"/.exec(head)?.[1];
    if (!id) continue;
    out.set(id, { pPr: /<w:pPr>[\s\S]*?<\/w:pPr>/.exec(body)?.[0] ?? '', basedOn: /<w:basedOn w:val="([^"]*)"/.exec(body)?.[1] ?? null });
  }
  return out;
}

/**
 * The value style `id` takes of a property: its own (`own` answers undefined where the style says
 * nothing of it), else the nearest style's it is based on; undefined where no style in the chain says.
 */
export function resolvedThroughBasedOn<T>(styles: ReadonlyMap<string, ParagraphStyleXml>, id: string, own: (style: ParagraphStyleXml) => T | undefined): T | undefined {
  for (let s = styles.get(id), hops = 0; s && hops < 20; s = s.basedOn ? styles.get(s.basedOn) : undefined, hops++) {
    const v = own(s);
    if (v !== undefined) return v;
  }
  return undefined;
}
