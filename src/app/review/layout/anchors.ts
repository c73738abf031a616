import type { ModelNode } from './annotate';

/**
 * Floating drawings (wp:anchor) take flow space only as their wrapping says, as in Word:
 * wrapNone (or behind the text) none at all, wrapSquare / wrapTight / wrapThrough beside the
 * text (a float on its side, at its horizontal offset), wrapTopAndBottom a band of its own
 * height. docx-preview keeps only an alignment: a shape at an offset is set in the line, and
 * one with wrapNone as a block the size of the shape once it is drawn (objects.ts), so five
 * shapes laid over a chart stacked down the page and pushed it to the next.
 *
 * docx-preview's model does not keep the wrapping, so it is read from the main part's XML: the
 * w:drawing elements docx-preview parses (it always takes mc:Fallback, never mc:Choice), in
 * document order, one per drawing node of its model.
 */
export interface Anchor {
  wrap: 'none' | 'square' | 'tight' | 'through' | 'topAndBottom';
  behind: boolean;
  h: Position;
  v: Position;
  /** Size and the distances from the text, in px. */
  width: number;
  height: number;
  dist: { top: number; bottom: number; left: number; right: number };
}

interface Position {
  from: string;
  offset?: number;
  align?: string;
}

const EMU_PER_PX = 9525;
const px = (emu: string | undefined) => (emu ? Number(emu) / EMU_PER_PX : 0);

function position(xml: string | undefined): Position {
  if (!xml) return { from: 'column' };
  const offset = /<wp:posOffset>(-?\d+)<\/wp:posOffset>/.exec(xml)?.[1];
  const align = /<wp:align>(\w+)<\/wp:align>/.exec(xml)?.[1];
  return { from: /relativeFrom="(\w+)"/.exec(xml)?.[1] ?? 'column', ...(offset !== undefined ? { offset: px(offset) } : {}), ...(align ? { align } : {}) };
}

/** Each drawing docx-preview will parse from a part's XML, in order: its anchor, or null for an inline one. */
export function readAnchors(partXml: string): (Anchor | null)[] {
  const parsed = partXml.replace(/<mc:Choice\b[\s\S]*?<\/mc:Choice>/g, '');
  const out: (Anchor | null)[] = [];
  for (const m of parsed.matchAll(/<w:drawing>([\s\S]*?)<\/w:drawing>/g)) {
    const inner = m[1]!;
    const head = /<wp:(anchor|inline)\b([^>]*)>/.exec(inner);
    if (!head) continue;
    if (head[1] === 'inline') {
      out.push(null);
      continue;
    }
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(head[2]!)?.[1];
    const extent = /<wp:extent\b[^>]*\bcx="(\d+)"[^>]*\bcy="(\d+)"/.exec(inner);
    const wrap = /<wp:wrap(None|Square|Tight|Through|TopAndBottom)\b/.exec(inner)?.[1] ?? 'None';
    out.push({
      wrap: (wrap[0]!.toLowerCase() + wrap.slice(1)) as Anchor['wrap'],
      behind: attr('behindDoc') === '1' || attr('behindDoc') === 'true',
      h: position(/<wp:positionH\b[\s\S]*?<\/wp:positionH>/.exec(inner)?.[0]),
      v: position(/<wp:positionV\b[\s\S]*?<\/wp:positionV>/.exec(inner)?.[0]),
      width: px(extent?.[1]),
      height: px(extent?.[2]),
      dist: { top: px(attr('distT')), bottom: px(attr('distB')), left: px(attr('distL')), right: px(attr('distR')) },
    });
  }
  return out;
}

/** Where a page-relative horizontal offset falls in the text column: less the left margin. */
function columnLeft(h: Position, marginLeft: number): number {
  const offset = h.offset ?? 0;
  return h.from === 'page' || h.from === 'leftMargin' ? offset - marginLeft : offset;
}

/**
 * The CSS of an anchored drawing's element and its class: none of the flow for wrapNone (placed
 * absolutely, across from the page's edge, down from its line), a float beside the text for
 * the square wraps, a block for top-and-bottom. Vertical offsets from the paragraph are kept;
 * from the page or margin they cannot be known before the page is (the drawing stays at its
 * paragraph).
 */
export function anchorStyle(a: Anchor, marginLeft: number, columnWidth: number): { css: Record<string, string>; className: string } {
  const left = columnLeft(a.h, marginLeft);
  const top = a.v.from === 'paragraph' || a.v.from === 'line' ? (a.v.offset ?? 0) : 0;
  if (a.wrap === 'none' || a.behind) {
    // Out of the flow; across from the page's edge (the page is its containing block), down from its line.
    const x = marginLeft + (a.h.align === 'right' ? columnWidth - a.width : a.h.align === 'center' ? (columnWidth - a.width) / 2 : left);
    return {
      className: 'rl-anchor-none',
      css: { display: 'inline-block', position: 'absolute', left: `${Math.round(x)}px`, 'margin-top': `${Math.round(top)}px`, 'z-index': a.behind ? '0' : '2' },
    };
  }
  if (a.wrap === 'topAndBottom') {
    return { className: 'rl-anchor-band', css: { display: 'block', 'margin-top': `${Math.round(a.dist.top + Math.max(0, top))}px`, 'margin-bottom': `${Math.round(a.dist.bottom)}px`, 'padding-left': `${Math.max(0, Math.round(left))}px` } };
  }
  const right = a.h.align === 'right' || (a.h.align !== 'left' && a.h.offset !== undefined && left + a.width / 2 > columnWidth / 2);
  return {
    className: 'rl-anchor-beside',
    css: right
      ? { float: 'right', 'margin-left': `${Math.round(a.dist.left)}px`, 'margin-right': `${Math.max(0, Math.round(columnWidth - left - a.width))}px`, 'margin-top': `${Math.round(Math.max(0, top))}px`, 'margin-bottom': `${Math.round(a.dist.bottom)}px` }
      : { float: 'left', 'margin-left': `${Math.max(0, Math.round(left))}px`, 'margin-right': `${Math.round(a.dist.right)}px`, 'margin-top': `${Math.round(Math.max(0, top))}px`, 'margin-bottom': `${Math.round(a.dist.bottom)}px` },
  };
}

/** docx-preview sets every drawing `display: inline-block; position: relative` itself (renderDrawing), after its style: the rules that win. */
export const ANCHOR_CSS = '.docx-wrapper .rl-anchor-none { position: absolute !important; }\n.docx-wrapper .rl-anchor-band { display: block !important; }';

/** The drawing nodes of a part's model, in document order. */
function drawingsOf(root: ModelNode, into: ModelNode[] = []): ModelNode[] {
  if (root.type === 'drawing') into.push(root);
  for (const child of root.children ?? []) drawingsOf(child, into);
  return into;
}

/**
 * Sets each anchored drawing's CSS on the model before it is rendered; answers false (and sets
 * nothing) when the XML's drawings do not pair one for one with the model's.
 */
export function placeAnchors(root: ModelNode, partXml: string, marginLeft: number, columnWidth: number): boolean {
  const anchors = readAnchors(partXml);
  const drawings = drawingsOf(root);
  if (anchors.length !== drawings.length) return false;
  drawings.forEach((node, i) => {
    const a = anchors[i];
    if (!a) return;
    const { css, className } = anchorStyle(a, marginLeft, columnWidth);
    const own = (node.cssStyle as Record<string, string> | undefined) ?? {};
    // docx-preview's own placement (its float, its block) gives way; the size stays.
    for (const key of ['display', 'position', 'float', 'left', 'top', 'text-align']) delete own[key];
    own.width = `${Math.round(a.width)}px`;
    own.height = `${Math.round(a.height)}px`;
    node.cssStyle = { ...own, ...css };
    node.className = node.className ? `${node.className} ${className}` : className;
  });
  return true;
}

/** The narrowest column of text Word leaves beside a floating table; a narrower gap stays empty (an approximation: Word has no such setting, its text needs room for a few words). */
export const MIN_WRAP_GAP_PX = 144;

const ptPx = (v: unknown) => (typeof v === 'string' && v.endsWith('pt') ? (parseFloat(v) * 4) / 3 : 0);

/**
 * A floating table (w:tblpPr), which docx-preview floats left: where it leaves less than
 * MIN_WRAP_GAP_PX beside it, the text runs under it as in Word, not down a narrow column
 * beside it. Answers how many tables stopped floating.
 */
export function unfloatNarrowTables(root: ModelNode, columnWidth: number): number {
  let n = 0;
  const visit = (node: ModelNode) => {
    const css = node.cssStyle as Record<string, string> | undefined;
    if (node.type === 'table' && css?.float === 'left') {
      const columns = (node.columns as { width?: string }[] | undefined) ?? [];
      const width = columns.reduce((sum, c) => sum + ptPx(c.width), 0) + ptPx(css['margin-left']) + ptPx(css['margin-right']);
      if (columnWidth - width < MIN_WRAP_GAP_PX) {
        delete css.float;
        n++;
      }
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(root);
  return n;
}
