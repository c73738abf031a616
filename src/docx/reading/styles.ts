import type { XmlDocument, XmlElement } from '../xml/tree';

/** A paragraph's own outline level (w:outlineLvl 0-8), as a 1-based heading level. */
export function outlineLevel(pPr: XmlElement | null | undefined): number | null {
  const v = pPr?.first('w:outlineLvl')?.attr('w:val');
  const n = v === null || v === undefined ? NaN : Number(v);
  return Number.isInteger(n) && n >= 0 && n <= 8 ? n + 1 : null;
}

/**
 * What a reader needs of the paragraph styles: a style's name and its outline level, which a
 * style inherits through w:basedOn (Word's "heading 2" is an outline-level-1 style).
 */
export class StyleBook {
  private readonly byId = new Map<string, XmlElement>();
  private readonly levels = new Map<string, number | null>();

  constructor(styles: XmlDocument | null) {
    if (!styles) return;
    for (const s of styles.root.elements()) {
      const id = s.name === 'w:style' && s.attr('w:type') === 'paragraph' ? s.attr('w:styleId') : null;
      if (id) this.byId.set(id, s);
    }
  }

  name(styleId: string | null): string | null {
    if (!styleId) return null;
    return this.byId.get(styleId)?.first('w:name')?.attr('w:val') ?? styleId;
  }

  outlineLevel(styleId: string | null): number | null {
    if (!styleId) return null;
    const known = this.levels.get(styleId);
    if (known !== undefined) return known;
    this.levels.set(styleId, null); // a basedOn cycle ends here
    const style = this.byId.get(styleId);
    const level = outlineLevel(style?.first('w:pPr')) ?? this.outlineLevel(style?.first('w:basedOn')?.attr('w:val') ?? null);
    this.levels.set(styleId, level);
    return level;
  }
}
