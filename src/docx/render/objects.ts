import { MARK_PREFIX } from '../../contract/bookmark';
import { textOf, walk, type XmlElement } from '../xml/tree';

const W_T: ReadonlySet<string> = new Set(['w:t']);

/**
 * Drawings docx-preview 0.4.1 leaves blank (it draws pictures only): charts, shapes, text boxes,
 * SmartArt, groups. Each gets a bookmark before it saying what it is, its size and, for a chart,
 * its part, so the app draws the chart from its cached values or shows a labelled placeholder of
 * the same size (src/app/review/layout/objects.ts). Name: prefix, serial, kind, relationship id,
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
  if (!kind) return null;
  const px = (emu: number) => Math.round(emu / 9525);
  const label = `${kind === 'chart' ? 'Chart' : kind}: ${(text || name).trim().slice(0, 160) || 'untitled'}`;
  return `${MARK_PREFIX.object}${serial}_${kind.replace(/ /g, '-')}_${rid}_${px(cx)}_${px(cy)}_${encodeURIComponent(label)}`;
}
