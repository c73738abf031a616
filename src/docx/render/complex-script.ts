import type { DocxPackage } from '../package/package';
import type { PartScan } from '../revisions/sites';
import { ancestorNamed } from '../ooxml/paragraphs';
import { schemaRank } from '../ooxml/schema-order';
import type { XmlOverlay } from '../xml/overlay';
import { XmlElement } from '../xml/tree';
import type { PartVisitor } from './part-walk';

/**
 * Text in a complex script (Arabic, Hebrew, Syriac, Thaana…) is set by Word with the run's
 * complex-script properties: its size is `w:szCs`, not `w:sz`, and it is bold and italic by
 * `w:bCs` and `w:iCs`, not `w:b` and `w:i`; docx-preview 0.4.1 knows only `w:sz`, `w:b` and `w:i`.
 * An Arabic contract whose styles say sz 11 pt and szCs 15 pt would show in 11 pt, lines crowded
 * and two pages in seven lost; a heading style with bCs on and b off would show its Arabic
 * headings plain. So a run holding such text gets its resolved szCs, bCs and iCs written as its
 * w:sz, w:b and w:i in the render variant (the document itself is not changed), each where it
 * differs from what docx-preview would draw: direct formatting, then the character style, then
 * the paragraph style (each through w:basedOn), then the document defaults. A complex-script
 * property set nowhere changes nothing, as for szCs: Word would draw such a run plain, but files
 * that set only w:b and w:i (not made by Word) mean them for all their text.
 *
 * The font too: such text is set in the run's complex-script font (`w:rFonts/@w:cs`, or the
 * theme's `a:cs` typeface by `w:csTheme`), which docx-preview never reads (it draws the Latin
 * font): a run holding it gets that font written as its w:ascii and w:hAnsi, so its glyphs and
 * its line height (the layout measures a run's line from its font) are the complex-script font's.
 * And a run marked `w:rtl` or `w:cs` (directly or by its styles) is complex-script text whatever
 * its characters (ECMA-376 Part 1, 17.3.2.7 and 17.3.2.30): the digits and Latin letters of a
 * right-to-left run are set with its complex-script size, font, bold and italic as well.
 */
const COMPLEX_SCRIPT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/;

/** The properties read: a size as its w:val, an on/off as on, off, or null where not set. */
interface RunProps {
  sz: string | null;
  szCs: string | null;
  b: boolean | null;
  bCs: boolean | null;
  i: boolean | null;
  iCs: boolean | null;
  /** w:rtl and w:cs: the run is complex-script text. */
  rtl: boolean | null;
  cs: boolean | null;
  /** The complex-script font: w:rFonts/@w:cs, or `theme:` and w:csTheme's value (it wins at its level). */
  font: string | null;
}

const UNSET: RunProps = { sz: null, szCs: null, b: null, bCs: null, i: null, iCs: null, rtl: null, cs: null, font: null };

/**
 * Each property from the first of `levels` that sets it, nearest (direct formatting) first. Word
 * would toggle b, bCs, i and iCs set in both a character and a paragraph style; docx-preview's
 * style classes cascade instead, and the Latin runs beside this one are drawn that way.
 */
function resolve(levels: readonly RunProps[]): RunProps {
  const out = { ...UNSET };
  for (const l of levels) {
    out.sz ??= l.sz;
    out.szCs ??= l.szCs;
    out.b ??= l.b;
    out.bCs ??= l.bCs;
    out.i ??= l.i;
    out.iCs ??= l.iCs;
    out.rtl ??= l.rtl;
    out.cs ??= l.cs;
    out.font ??= l.font;
  }
  return out;
}

class RunProperties {
  private readonly styles = new Map<string, XmlElement>();
  private readonly resolved = new Map<string, RunProps>();
  /** Character style, paragraph style and defaults together, by the two styles' ids. */
  private readonly inherited = new Map<string, RunProps>();
  private readonly defaults: RunProps;
  private readonly defaultParagraphStyle: string | null = null;
  /** Whether the defaults or any style mark runs w:rtl or w:cs. */
  readonly marksAny: boolean;

  constructor(styles: XmlElement | null) {
    const rPrDefault = styles?.first('w:docDefaults')?.first('w:rPrDefault')?.first('w:rPr') ?? null;
    this.defaults = own(rPrDefault);
    let marks = markedComplex(rPrDefault) === true;
    for (const s of styles?.elements() ?? []) {
      const id = s.name === 'w:style' ? s.attr('w:styleId') : null;
      if (!id) continue;
      this.styles.set(id, s);
      if (s.attr('w:type') === 'paragraph' && isOn(s.attr('w:default'))) this.defaultParagraphStyle = id;
      marks ||= markedComplex(s.first('w:rPr') ?? null) === true;
    }
    this.marksAny = marks;
  }

  /** A style's properties through its w:basedOn chain. */
  private style(id: string | null): RunProps {
    if (!id) return UNSET;
    const known = this.resolved.get(id);
    if (known) return known;
    this.resolved.set(id, UNSET); // a basedOn cycle ends here
    const style = this.styles.get(id);
    const props = resolve([own(style?.first('w:rPr') ?? null), this.style(style?.first('w:basedOn')?.attr('w:val') ?? null)]);
    this.resolved.set(id, props);
    return props;
  }

  of(run: XmlElement): RunProps {
    const rPr = run.first('w:rPr');
    const character = rPr?.first('w:rStyle')?.attr('w:val') ?? null;
    const paragraph = ancestorNamed(run, 'w:p')?.first('w:pPr')?.first('w:pStyle')?.attr('w:val') ?? this.defaultParagraphStyle;
    // Runs are many and their styles few: what the styles give is resolved once per pair.
    const key = `${character ?? ''}\u0000${paragraph ?? ''}`;
    let inherited = this.inherited.get(key);
    if (!inherited) {
      inherited = resolve([this.style(character), this.style(paragraph), this.defaults]);
      this.inherited.set(key, inherited);
    }
    return rPr ? resolve([own(rPr), inherited]) : inherited;
  }
}

/** What `rPr` itself sets: of each property, its first element (one pass: every complex-script run is read). */
function own(rPr: XmlElement | null): RunProps {
  if (!rPr) return UNSET;
  const out = { ...UNSET };
  const seen = new Set<string>();
  for (const c of rPr.children) {
    if (c.kind !== 1 || seen.has(c.name)) continue;
    seen.add(c.name);
    const val = c.attr('w:val');
    switch (c.name) {
      case 'w:sz': out.sz = val; break;
      case 'w:szCs': out.szCs = val; break;
      case 'w:b': out.b = onOff(val); break;
      case 'w:bCs': out.bCs = onOff(val); break;
      case 'w:i': out.i = onOff(val); break;
      case 'w:iCs': out.iCs = onOff(val); break;
      case 'w:rtl': out.rtl = onOff(val); break;
      case 'w:cs': out.cs = onOff(val); break;
      case 'w:rFonts': {
        const theme = c.attr('w:csTheme');
        out.font = theme ? `theme:${theme}` : c.attr('w:cs');
        break;
      }
    }
  }
  return out;
}

/** ST_OnOff: no w:val is on; "0", "false" and "off" are off; anything else on (as docx-preview reads it). */
function onOff(v: string | null): boolean {
  return v !== '0' && v !== 'false' && v !== 'off';
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

const THEME_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme';

/** The theme's complex-script typefaces (a:majorFont and a:minorFont's a:cs), by w:csTheme value; none without a theme. */
function themeFonts(pkg: DocxPackage | null): Map<string, string> {
  const out = new Map<string, string>();
  const name = pkg?.relatedPart(THEME_REL) ?? null;
  const scheme = name && pkg!.has(name) ? pkg!.xml(name).root.first('a:themeElements')?.first('a:fontScheme') : null;
  for (const [kind, el] of [['major', 'a:majorFont'], ['minor', 'a:minorFont']] as const) {
    const typeface = scheme?.first(el)?.first('a:cs')?.attr('typeface');
    if (typeface) out.set(`${kind}Bidi`, typeface);
  }
  return out;
}

/** A visitor for the render variant's walk over each part (part-walk.ts); `pkg` gives the theme's fonts. */
export function showComplexScript(overlay: XmlOverlay, scans: readonly PartScan[], pkg: DocxPackage | null = null): PartVisitor {
  const styles = scans.find((s) => s.role === 'styles')?.doc.root ?? null;
  let properties: RunProperties | null = null; // read from the styles when a run first asks
  let theme: Map<string, string> | null = null;
  return {
    reads: (scan) => scan.role !== 'styles' && scan.role !== 'numbering',
    enter(el) {
      if (el.name !== 'w:r') return true;
      const marked = markedComplex(el.first('w:rPr'));
      if (marked !== true && !holdsComplexScript(el)) {
        // Marked by its styles only where its own w:rtl and w:cs are unset, and only asked when a style marks any run.
        if (marked === false) return false;
        properties ??= new RunProperties(styles);
        if (!properties.marksAny) return false;
        const p = properties.of(el);
        if (!p.rtl && !p.cs) return false;
      }
      properties ??= new RunProperties(styles);
      const p = properties.of(el);
      const written: XmlElement[] = [];
      // In schema order (setProperties keeps it). docx-preview draws an unset w:b or w:i as off.
      const font = p.font?.startsWith('theme:') ? (theme ??= themeFonts(pkg)).get(p.font.slice(6)) ?? null : p.font;
      if (font) written.push(fontsElement(el.first('w:rPr')?.first('w:rFonts') ?? null, font));
      if (p.bCs !== null && p.bCs !== (p.b ?? false)) written.push(toggleElement('w:b', p.bCs));
      if (p.iCs !== null && p.iCs !== (p.i ?? false)) written.push(toggleElement('w:i', p.iCs));
      if (p.szCs !== null && p.szCs !== p.sz) written.push(XmlElement.create('w:sz', { 'w:val': p.szCs }));
      if (written.length) setProperties(overlay, el, written);
      return false;
    },
  };
}

/** Whether the run's own properties mark it complex-script (w:rtl or w:cs on), say it is not (both off), or neither (null). */
function markedComplex(rPr: XmlElement | null): boolean | null {
  let off = false;
  for (const c of rPr?.children ?? []) {
    if (c.kind !== 1 || (c.name !== 'w:rtl' && c.name !== 'w:cs')) continue;
    if (onOff(c.attr('w:val'))) return true;
    off = true;
  }
  return off ? false : null;
}

/** The run's w:rFonts with its Latin fonts (w:ascii, w:hAnsi, their themes' left out) the complex-script `font`. */
function fontsElement(own: XmlElement | null, font: string): XmlElement {
  const attrs: Record<string, string> = {};
  for (const name of ['w:hint', 'w:eastAsia', 'w:eastAsiaTheme', 'w:cs', 'w:csTheme']) {
    const v = own?.attr(name);
    if (v != null) attrs[name] = v;
  }
  return XmlElement.create('w:rFonts', { 'w:ascii': font, 'w:hAnsi': font, ...attrs });
}

function toggleElement(name: string, on: boolean): XmlElement {
  return XmlElement.create(name, on ? {} : { 'w:val': '0' });
}

/**
 * Writes `props` (in schema order) into the run's properties: each in place of the run's own
 * element of that name, else before the first child the schema puts after it (extensions it does
 * not know stay where they are).
 */
function setProperties(overlay: XmlOverlay, run: XmlElement, props: readonly XmlElement[]): void {
  const rPr = run.first('w:rPr');
  if (!rPr) {
    overlay.prepend(run, [XmlElement.create('w:rPr', {}, [...props])]);
    return;
  }
  for (const prop of props) {
    const existing = rPr.first(prop.name);
    if (existing) {
      overlay.replace(existing, [prop]);
      continue;
    }
    // Nodes put before the same child keep the order they were put in: the schema's, here.
    const rank = schemaRank('w:rPr', prop.name)!;
    const next = rPr.elements().find((c) => (schemaRank('w:rPr', c.name) ?? -1) > rank);
    if (next) overlay.insertBefore(next, [prop]);
    else overlay.append(rPr, [prop]);
  }
}
