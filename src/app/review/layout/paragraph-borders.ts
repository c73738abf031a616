import { paragraphStylesXml, resolvedThroughBasedOn, type ParagraphStyleXml } from './paragraph-styles';

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
  const styles = paragraphStylesXml(stylesXml);
  // null: the style says there is no border on that side (w:val="none"), which a style based on a bordered one may.
  const side = (name: 'top' | 'bottom') => (style: ParagraphStyleXml): number | null | undefined => {
    const pBdr = /<w:pBdr>([\s\S]*?)<\/w:pBdr>/.exec(style.pPr)?.[1];
    const el = pBdr ? new RegExp(`<w:${name}\\b([^>]*)/?>`).exec(pBdr)?.[1] : undefined;
    if (el === undefined) return undefined;
    const val = /w:val="([^"]*)"/.exec(el)?.[1] ?? 'none';
    if (val === 'none' || val === 'nil') return null;
    return Number(/w:space="([^"]*)"/.exec(el)?.[1] ?? 0) || 0;
  };
  const out = new Map<string, BorderSpace>();
  for (const id of styles.keys()) {
    const resolved: BorderSpace = {};
    for (const name of ['top', 'bottom'] as const) {
      const v = resolvedThroughBasedOn(styles, id, side(name));
      if (typeof v === 'number') resolved[name] = v;
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
