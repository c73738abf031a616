import { objectMarkName, type ObjectMark } from '../../contract/object-marks';
import { ancestorNamed, childOfParagraph } from '../ooxml/paragraphs';
import type { PartScan } from '../revisions/sites';
import type { XmlOverlay } from '../xml/overlay';
import { textOf, walk, XmlElement } from '../xml/tree';

/**
 * Nothing silently blank (issue 23.3). docx-preview 0.4.1 draws pictures and VML, but a DrawingML
 * chart, shape, group or diagram becomes an empty box, a VML watermark (v:textpath) an empty SVG
 * and an embedded object nothing at all. Before each such object's run the render variant puts a
 * bookmark that says what it is, its size and a label (contract/object-marks.ts): for a chart its
 * title and cached values, read from the chart part; for a shape or text box its text. The app
 * shows a labelled box of that size there. An mc:AlternateContent whose mc:Fallback docx-preview
 * can draw (a VML text box or picture, Word's copy for older readers) is left to docx-preview,
 * and the bookmarks and marks of changes inside its text box are repeated in that copy
 * (mirrorTextBoxMarks), so a change in a text box is shown and reachable like any other.
 */
export function markObjects(overlay: XmlOverlay, scans: readonly PartScan[]): void {
  let serial = 0;
  for (const scan of scans) {
    if (scan.role === 'styles' || scan.role === 'numbering' || scan.role === 'comments') continue;
    walk(scan.doc.root, (el) => {
      let mark: ObjectMark | null = null;
      if (el.name === 'mc:AlternateContent') {
        if (!ancestorNamed(el, 'w:p')) return true;
        const fallback = el.first('mc:Fallback');
        if (fallback && drawable(fallback)) {
          boxesAsGroups(overlay, fallback);
          return false;
        }
        const drawing = findFirst(el.first('mc:Choice'), 'w:drawing');
        mark = drawing && describeDrawing(drawing);
      } else if (el.name === 'w:drawing') {
        mark = describeDrawing(el);
      } else if (el.name === 'w:pict') {
        mark = describeWatermark(el);
        if (!mark) boxesAsGroups(overlay, el);
      } else if (el.name === 'w:object') {
        const shape = findFirst(el, 'v:shape');
        const size = vmlSize(shape);
        const prog = findFirst(el, 'o:OLEObject')?.attr('ProgID');
        mark = { kind: 'object', ...size, label: prog ? `Embedded object: ${prog}` : 'Embedded object' };
      } else return true;
      const top = childOfParagraph(ancestorNamed(el, 'w:r') ?? el);
      if (mark && top) {
        const name = objectMarkName(++serial, mark);
        overlay.insertBefore(top, [XmlElement.create('w:bookmarkStart', { 'w:id': String(900_000_000 + serial), 'w:name': name }), XmlElement.create('w:bookmarkEnd', { 'w:id': String(900_000_000 + serial) })]);
      }
      return false;
    });
  }
  mirrorTextBoxMarks(overlay, scans);
}

const EMU_PER_PX = 9525;
const TEXT = new Set(['w:t', 'w:delText', 'a:t']);
const MAX_LABEL = 400;

/** What a w:drawing holds, when docx-preview cannot draw it (a picture it can: null). */
export function describeDrawing(drawing: XmlElement): ObjectMark | null {
  const frame = drawing.first('wp:inline') ?? drawing.first('wp:anchor');
  if (!frame) return null;
  const extent = frame.first('wp:extent');
  const width = Number(extent?.attr('cx') ?? 0) / EMU_PER_PX;
  const height = Number(extent?.attr('cy') ?? 0) / EMU_PER_PX;
  const data = frame.first('a:graphic')?.first('a:graphicData');
  const content = data?.elements()[0];
  if (!content || content.name === 'pic:pic') return null;
  const text = clip(textOf(content, TEXT).replace(/\s+/g, ' ').trim());
  switch (content.name) {
    case 'c:chart':
      return null; // drawn by the app from the chart part's cached values (render/objects.ts, layout/objects.ts)
    case 'wps:wsp':
      return content.first('wps:txbx') ? { kind: 'textbox', width, height, label: text ? `Text box: ${text}` : 'Text box' } : { kind: 'shape', width, height, label: text ? `Shape: ${text}` : 'Shape' };
    case 'wpg:wgp':
      return { kind: 'shape', width, height, label: text ? `Shapes: ${text}` : 'Shapes' };
    case 'dgm:relIds':
      return { kind: 'diagram', width, height, label: 'Diagram (SmartArt)' };
    default:
      return { kind: 'object', width, height, label: text ? `Object: ${text}` : 'Object' };
  }
}

/** A VML watermark (WordArt text on a path, as Word puts "DRAFT" in a header). */
function describeWatermark(pict: XmlElement): ObjectMark | null {
  for (const shape of pict.elements()) {
    // A v:shapetype's v:textpath only says that shapes of its type draw text.
    const words = shape.name === 'v:shapetype' ? null : shape.first('v:textpath')?.attr('string');
    if (words) return { kind: 'watermark', ...vmlSize(shape), label: words };
  }
  return null;
}

/** A VML shape's size from its style ("width:415.5pt;height:207.75pt"), in CSS px. */
function vmlSize(shape: XmlElement | null): { width: number; height: number } {
  const style = shape?.attr('style') ?? '';
  const length = (key: string) => {
    const m = new RegExp(`(?:^|;)\\s*${key}\\s*:\\s*([\\d.]+)(pt|px|in|cm|mm)?`).exec(style);
    if (!m) return 0;
    const n = Number(m[1]);
    return n * ({ pt: 4 / 3, px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 }[m[2] ?? 'px'] ?? 1);
  };
  return { width: length('width'), height: length('height') };
}

/**
 * docx-preview draws a VML text box as an SVG foreignObject inside the SVG element of its shape:
 * inside a <rect> or <ellipse> (v:rect, v:oval) that draws nothing, and a v:roundrect it skips
 * altogether. Such a shape holding a text box is written as a v:shape (an SVG group), so its
 * text shows (without the shape's fill).
 */
function boxesAsGroups(overlay: XmlOverlay, root: XmlElement): void {
  walk(root, (e) => {
    if ((e.name === 'v:rect' || e.name === 'v:oval' || e.name === 'v:roundrect') && e.first('v:textbox')) overlay.rename(e, 'v:shape');
    return e.name !== 'w:txbxContent';
  });
}

/** Whether docx-preview draws what an mc:Fallback holds (a VML text box or picture, or a DrawingML picture). */
function drawable(fallback: XmlElement): boolean {
  let yes = false;
  walk(fallback, (e) => {
    if (yes) return false;
    if (e.name === 'v:textbox' || e.name === 'v:imagedata' || e.name === 'pic:pic') yes = true;
    return !yes;
  });
  return yes;
}

function findFirst(root: XmlElement | null, name: string): XmlElement | null {
  let found: XmlElement | null = null;
  if (root) {
    walk(root, (e) => {
      if (found) return false;
      if (e.name === name) found = e;
      return !found;
    });
  }
  return found;
}

function clip(s: string): string {
  return s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL - 1)}…` : s;
}


/**
 * Word writes a text box twice: in mc:Choice (DrawingML, where the engine finds and decides its
 * changes) and in mc:Fallback (VML, which docx-preview draws). The bookmarks, marks and renames
 * the render variant laid in the Choice's boxes are laid at the same places in the Fallback's,
 * where their structures match.
 */
function mirrorTextBoxMarks(overlay: XmlOverlay, scans: readonly PartScan[]): void {
  for (const scan of scans) {
    if (!overlay.touched.has(scan.doc.root)) continue;
    walk(scan.doc.root, (el) => {
      if (el.name !== 'mc:AlternateContent') return overlay.touched.has(el) || el.name === 'w:body' || el.name === 'w:p';
      const choice = collect(el.first('mc:Choice'), 'w:txbxContent');
      const fallback = collect(el.first('mc:Fallback'), 'w:txbxContent');
      if (choice.length === 0 || choice.length !== fallback.length) return false;
      choice.forEach((box, i) => mirror(overlay, box, fallback[i]!));
      return false;
    });
  }
}

function collect(root: XmlElement | null, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  if (root) walk(root, (e) => (e.name === name ? (out.push(e), false) : true));
  return out;
}

function mirror(overlay: XmlOverlay, from: XmlElement, to: XmlElement): void {
  if (!overlay.touched.has(from)) return;
  const rename = overlay.names.get(from);
  if (rename) overlay.rename(to, rename);
  const start = overlay.atStart.get(from);
  if (start) overlay.prepend(to, start);
  const end = overlay.atEnd.get(from);
  if (end) overlay.append(to, end);
  const a = from.elements();
  const b = to.elements();
  if (a.length !== b.length) return;
  a.forEach((child, i) => {
    const twin = b[i]!;
    if (twin.name !== child.name) return;
    const before = overlay.before.get(child);
    if (before) overlay.insertBefore(twin, before);
    const after = overlay.after.get(child);
    if (after) overlay.insertAfter(twin, after);
    mirror(overlay, child, twin);
  });
}
