/**
 * A paragraph border as Word draws it: w:space points between the text and the border, and the
 * paragraph's space before and after outside it (a Title's rule sits under its text, the 15 pt
 * after it below the rule). docx-preview draws the border without its space and paragraph-spacing.ts
 * writes the spacing as padding, inside the border; for a paragraph style with a top or bottom
 * border the spacing on that side is written as margin instead and the padding is w:space.
 */

/** The w:space (pt) of a paragraph style's top and bottom borders, where it has them. */
export interface BorderSpace {
  top?: number;
  bottom?: number;
}

/** Each paragraph style's top and bottom border spaces (its own, else the style's it is based on), from styles.xml. */
export function borderSpaces(stylesXml: string): Map<string, BorderSpace> {
  const own = new Map<string, { top: number | null | undefined; bottom: number | null | undefined; basedOn: string | null }>();
  for (const m of stylesXml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const head = m[1]!;
    const body = m[2]!;
    if (!/w:type="paragraph"/.test(head)) continue;
    const id = /w:styleId="([^"]*)"/.exec(head)?.[1];
    if (!id) continue;
    const pBdr = /<w:pBdr>([\s\S]*?)<\/w:pBdr>/.exec(/<w:pPr>[\s\S]*?<\/w:pPr>/.exec(body)?.[0] ?? '')?.[1];
    // undefined: the style says nothing of that side; null: it says no border there.
    const side = (name: 'top' | 'bottom'): number | null | undefined => {
      const el = pBdr ? new RegExp(`<w:${name}\\b([^>]*)/?>`).exec(pBdr)?.[1] : undefined;
      if (el === undefined) return undefined;
      const val = /w:val="([^"]*)"/.exec(el)?.[1] ?? 'none';
      if (val === 'none' || val === 'nil') return null;
      return Number(/w:space="([^"]*)"/.exec(el)?.[1] ?? 0) || 0;
    };
    own.set(id, { top: side('top'), bottom: side('bottom'), basedOn: /<w:basedOn w:val="([^"]*)"/.exec(body)?.[1] ?? null });
  }
  const out = new Map<string, BorderSpace>();
  for (const id of own.keys()) {
    const resolved: BorderSpace = {};
    for (const name of ['top', 'bottom'] as const) {
      for (let s = own.get(id), hops = 0; s && hops < 20; s = s.basedOn ? own.get(s.basedOn) : undefined, hops++) {
        const v = s[name];
        if (v === undefined) continue;
        if (v !== null) resolved[name] = v;
        break;
      }
    }
    if (resolved.top !== undefined || resolved.bottom !== undefined) out.set(id, resolved);
  }
  return out;
}

/**
 * Rewrites a bordered paragraph's spacing (CSS values from docx-preview, margins not yet turned
 * into padding): the space before or after on a bordered side stays a margin, outside the
 * border, and the padding on that side is the border's space. Answers the sides it rewrote.
 */
export function spaceBorderedSides(values: Record<string, string>, space: BorderSpace): Set<'top' | 'bottom'> {
  const sides = new Set<'top' | 'bottom'>();
  for (const side of ['top', 'bottom'] as const) {
    const pt = space[side];
    if (pt === undefined) continue;
    values[`padding-${side}`] = `${pt}pt`;
    sides.add(side);
  }
  return sides;
}
