import { MARK_PREFIX } from '../../contract/bookmark';
import { textOf, walk, type XmlElement } from '../xml/tree';

const W_T: ReadonlySet<string> = new Set(['w:t']);

/**
 * Charts, which docx-preview 0.4.1 leaves blank: each gets a bookmark before it saying its size and
 * its part, so the app draws the chart from its cached values (src/app/review/layout/objects.ts).
 * Shapes, text boxes, SmartArt, groups, embedded objects and watermarks are drawings.ts' marks. Name: prefix, serial, kind, relationship id,
 * width and height in px, URI-encoded label.
 */
export function objectMarkName(drawing: XmlElement, serial: number): string | null {
  if (drawing.parent?.name === 'mc:Fallback') return null;
  let uri = '';
  let rid = '';
  let cx = 0;
  let cy = 0;
  let name = '';
  let text = '';
  walk(drawing, (e) => {
    if (e.name === 'a:graphicData') uri = e.attr('uri') ?? '';
    else if (e.name === 'c:chart') rid = e.attr('r:id') ?? '';
    else if (e.name === 'wp:extent' && !cx) {
      cx = Number(e.attr('cx') ?? 0);
      cy = Number(e.attr('cy') ?? 0);
    } else if (e.name === 'wp:docPr') name = e.attr('descr') || e.attr('title') || e.attr('name') || '';
    else if (e.name === 'w:t' && text.length < 160) text += textOf(e, W_T);
    return true;
  });
  const kind = uri.endsWith('/chart') ? 'chart'
    : uri.endsWith('/picture') ? null
    : uri.includes('wordprocessingShape') ? (text ? 'Text box' : 'Shape')
    : uri.includes('wordprocessingGroup') ? 'Group'
    : uri.includes('diagram') ? 'SmartArt'
    : uri.includes('wordprocessingCanvas') ? 'Drawing canvas'
    : 'Object';
  // Charts only: every other drawing docx-preview leaves blank is described by drawings.ts.
  if (kind !== 'chart') return null;
  const px = (emu: number) => Math.round(emu / 9525);
  const label = `${kind === 'chart' ? 'Chart' : kind}: ${(text || name).trim().slice(0, 160) || 'untitled'}`;
  return `${MARK_PREFIX.chart}${serial}_${kind.replace(/ /g, '-')}_${rid}_${px(cx)}_${px(cy)}_${encodeURIComponent(label)}`;
}
