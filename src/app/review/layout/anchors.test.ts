import { describe, expect, it } from 'vitest';
import type { ModelNode } from './annotate';
import { anchorStyle, placeAnchors, readAnchors, unfloatNarrowTables } from './anchors';

const anchor = (wrap: string, h: string, v: string, behind = '0') =>
  `<w:drawing><wp:anchor distT="0" distB="45720" distL="114300" distR="114300" simplePos="0" behindDoc="${behind}"><wp:simplePos x="0" y="0"/>${h}${v}` +
  `<wp:extent cx="1905000" cy="952500"/><wp:${wrap} wrapText="bothSides"/><a:graphic/></wp:anchor></w:drawing>`;
const H = (from: string, inner: string) => `<wp:positionH relativeFrom="${from}">${inner}</wp:positionH>`;
const V = (from: string, inner: string) => `<wp:positionV relativeFrom="${from}">${inner}</wp:positionV>`;
const INLINE = '<w:drawing><wp:inline><wp:extent cx="9525" cy="9525"/></wp:inline></w:drawing>';

describe('floating drawings take flow space only as their wrapping says', () => {
  it('reads each drawing docx-preview parses, in order: anchors with their wrapping and place, inline ones as null; never mc:Choice', () => {
    const xml = `<w:p><w:r>${INLINE}</w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps">${anchor('wrapNone', '', '')}</mc:Choice><mc:Fallback><w:pict/></mc:Fallback></mc:AlternateContent></w:r>` +
      `<w:r>${anchor('wrapSquare', H('column', '<wp:posOffset>952500</wp:posOffset>'), V('paragraph', '<wp:posOffset>95250</wp:posOffset>'))}</w:r></w:p>`;
    const anchors = readAnchors(xml);
    expect(anchors).toHaveLength(2);
    expect(anchors[0]).toBeNull();
    expect(anchors[1]).toMatchObject({ wrap: 'square', behind: false, h: { from: 'column', offset: 100 }, v: { from: 'paragraph', offset: 10 }, width: 200, height: 100, dist: { bottom: 4.8, left: 12 } });
  });

  it('wrapNone and behind-text take no space: placed absolutely, across from the page\'s edge, down from its line', () => {
    const [a] = readAnchors(anchor('wrapNone', H('page', '<wp:posOffset>1905000</wp:posOffset>'), V('paragraph', '<wp:posOffset>0</wp:posOffset>')));
    const { css, className } = anchorStyle(a!, 96, 624);
    expect(className).toBe('rl-anchor-none');
    expect(css).toMatchObject({ position: 'absolute', display: 'inline-block', left: '200px', 'margin-top': '0px' });
    const [behind] = readAnchors(anchor('wrapSquare', H('column', '<wp:align>center</wp:align>'), '', '1'));
    expect(anchorStyle(behind!, 96, 624)).toMatchObject({ className: 'rl-anchor-none', css: { left: '308px', 'z-index': '0' } });
  });

  it('square wrapping floats beside the text on the side its place is on; top-and-bottom is a band', () => {
    const [left] = readAnchors(anchor('wrapSquare', H('column', '<wp:posOffset>0</wp:posOffset>'), ''));
    expect(anchorStyle(left!, 96, 624).css).toMatchObject({ float: 'left', 'margin-left': '0px' });
    const [right] = readAnchors(anchor('wrapTight', H('column', '<wp:posOffset>3810000</wp:posOffset>'), ''));
    expect(anchorStyle(right!, 96, 624).css).toMatchObject({ float: 'right', 'margin-right': '24px' });
    const [band] = readAnchors(anchor('wrapTopAndBottom', H('column', '<wp:posOffset>0</wp:posOffset>'), V('paragraph', '<wp:posOffset>0</wp:posOffset>')));
    expect(anchorStyle(band!, 96, 624)).toMatchObject({ className: 'rl-anchor-band', css: { display: 'block' } });
  });

  it('sets the CSS on the model\'s drawings one for one, and nothing when they do not pair', () => {
    const xml = `<w:r>${INLINE}</w:r><w:r>${anchor('wrapNone', H('column', '<wp:posOffset>0</wp:posOffset>'), '')}</w:r>`;
    const inline: ModelNode = { type: 'drawing', cssStyle: { width: '1px', height: '1px' } };
    const floating: ModelNode = { type: 'drawing', cssStyle: { width: '200px', height: '100px', display: 'block', position: 'relative' } };
    const root: ModelNode = { type: 'body', children: [{ type: 'paragraph', children: [{ type: 'run', children: [inline] }, { type: 'run', children: [floating] }] }] };
    expect(placeAnchors(root, xml, 96, 624)).toBe(true);
    expect(inline.cssStyle).toEqual({ width: '1px', height: '1px' });
    expect(floating.className).toBe('rl-anchor-none');
    expect(floating.cssStyle).toMatchObject({ width: '200px', height: '100px', position: 'absolute' });
    const lone: ModelNode = { type: 'drawing', cssStyle: {} };
    expect(placeAnchors({ type: 'body', children: [lone] }, xml, 96, 624)).toBe(false);
    expect(lone.className).toBeUndefined();
  });

  it('a floating table leaving too narrow a column beside it stops floating: the text runs under it', () => {
    const table = (widths: string[]): ModelNode => ({ type: 'table', columns: widths.map((width) => ({ width })), cssStyle: { float: 'left', 'margin-right': '9pt' }, children: [] });
    const wide = table(['216pt', '216pt']);
    const narrow = table(['108pt', '108pt']);
    expect(unfloatNarrowTables({ type: 'body', children: [wide, narrow] }, 624)).toBe(1);
    expect(wide.cssStyle).toEqual({ 'margin-right': '9pt' });
    expect(narrow.cssStyle).toMatchObject({ float: 'left' });
  });
});
