import type { PartScan } from '../revisions/sites';
import { ancestorNamed } from '../ooxml/paragraphs';
import { schemaRank } from '../ooxml/schema-order';
import type { XmlOverlay } from '../xml/overlay';
import { XmlElement } from '../xml/tree';
import type { PartVisitor } from './part-walk';

/**
 * Text in a complex script (Arabic, Hebrew, Syriac, Thaana…) is set by Word at the run's
 * complex-script size, `w:szCs`, not at `w:sz`; docx-preview 0.4.1 knows only `w:sz`. An Arabic
 * contract whose styles say sz 11 pt and szCs 15 pt would show in 11 pt, lines crowded and two
 * pages in seven lost. So a run holding such text gets its resolved szCs written as its w:sz in
 * the render variant (the document itself is not changed): direct formatting, then the character
 * style, then the paragraph style (each through w:basedOn), then the document defaults.
 */
const COMPLEX_SCRIPT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/;

interface Sizes {
  sz: string | null;
  szCs: string | null;
}

class RunSizes {
  private readonly styles = new Map<string, XmlElement>();
  private readonly resolved = new Map<string, Sizes>();
  private readonly defaults: Sizes;
  private readonly defaultParagraphStyle: string | null = null;

  constructor(styles: XmlElement | null) {
    const rPrDefault = styles?.first('w:docDefaults')?.first('w:rPrDefault')?.first('w:rPr') ?? null;
    this.defaults = own(rPrDefault);
    for (const s of styles?.elements() ?? []) {
      const id = s.name === 'w:style' ? s.attr('w:styleId') : null;
      if (!id) continue;
      this.styles.set(id, s);
      if (s.attr('w:type') === 'paragraph' && isOn(s.attr('w:default'))) this.defaultParagraphStyle = id;
    }
  }

  /** A style's sizes through its w:basedOn chain. */
  private style(id: string | null): Sizes {
    if (!id) return { sz: null, szCs: null };
    const known = this.resolved.get(id);
    if (known) return known;
    this.resolved.set(id, { sz: null, szCs: null }); // a basedOn cycle ends here
    const style = this.styles.get(id);
    const mine = own(style?.first('w:rPr') ?? null);
    const base = this.style(style?.first('w:basedOn')?.attr('w:val') ?? null);
    const sizes = { sz: mine.sz ?? base.sz, szCs: mine.szCs ?? base.szCs };
    this.resolved.set(id, sizes);
    return sizes;
  }

  of(run: XmlElement): Sizes {
    const direct = own(run.first('w:rPr'));
    const character = this.style(run.first('w:rPr')?.first('w:rStyle')?.attr('w:val') ?? null);
    const paragraph = ancestorNamed(run, 'w:p');
    const paragraphStyle = this.style(paragraph?.first('w:pPr')?.first('w:pStyle')?.attr('w:val') ?? this.defaultParagraphStyle);
    const pick = (k: keyof Sizes) => direct[k] ?? character[k] ?? paragraphStyle[k] ?? this.defaults[k];
    return { sz: pick('sz'), szCs: pick('szCs') };
  }
}

function own(rPr: XmlElement | null): Sizes {
  return { sz: rPr?.first('w:sz')?.attr('w:val') ?? null, szCs: rPr?.first('w:szCs')?.attr('w:val') ?? null };
}

function isOn(v: string | null): boolean {
  return v === '1' || v === 'true' || v === 'on';
}

const RUN_TEXT: ReadonlySet<string> = new Set(['w:t', 'w:delText']);

/**
 * Whether any text below the run (a text box's too, as textOf reads it) is in a complex script.
 * Every run of the draft is asked, so each piece of text is tested where it stands, with no string
 * built: the pattern is one character class, so the pieces answer as their concatenation would.
 */
function holdsComplexScript(el: XmlElement): boolean {
  for (const c of el.children) {
    if (c.kind !== 1) continue;
    if (RUN_TEXT.has(c.name)) {
      for (const t of c.children) if (t.kind === 2 && COMPLEX_SCRIPT.test(t.text)) return true;
    } else if (c.children.length > 0 && holdsComplexScript(c)) return true;
  }
  return false;
}

/** A visitor for the render variant's walk over each part (part-walk.ts). */
export function sizeComplexScript(overlay: XmlOverlay, scans: readonly PartScan[]): PartVisitor {
  const styles = scans.find((s) => s.role === 'styles')?.doc.root ?? null;
  let sizes: RunSizes | null = null; // read from the styles at the first complex-script run
  return {
    reads: (scan) => scan.role !== 'styles' && scan.role !== 'numbering',
    enter(el) {
      if (el.name !== 'w:r') return true;
      if (!holdsComplexScript(el)) return false;
      sizes ??= new RunSizes(styles);
      const { sz, szCs } = sizes.of(el);
      if (szCs !== null && szCs !== sz) setSize(overlay, el, szCs);
      return false;
    },
  };
}

function setSize(overlay: XmlOverlay, run: XmlElement, value: string): void {
  const size = XmlElement.create('w:sz', { 'w:val': value });
  const rPr = run.first('w:rPr');
  if (!rPr) {
    overlay.prepend(run, [XmlElement.create('w:rPr', {}, [size])]);
    return;
  }
  const existing = rPr.first('w:sz');
  if (existing) {
    overlay.replace(existing, [size]);
    return;
  }
  // Before the first child the schema puts after w:sz (extensions it does not know stay where they are).
  const szRank = schemaRank('w:rPr', 'w:sz')!;
  const next = rPr.elements().find((c) => (schemaRank('w:rPr', c.name) ?? -1) > szRank);
  if (next) overlay.insertBefore(next, [size]);
  else overlay.append(rPr, [size]);
}
