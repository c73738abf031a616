import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { expect, test, type Page } from '@playwright/test';
import { buildDocx, p, type BlockSpec } from '../src/docx/fixture';
import { openDocx } from './corpus';

/**
 * Floating pictures take flow space only as their wrapping says (issue #33): wrapNone none (the
 * text around it on one line, the paragraph one line high, the picture drawn at its size and
 * offset), wrapSquare beside the text on the side of its place.
 */
// A 2x2 grey PNG.
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAADklEQVR4nGNgYGBgYAAAAAUAAW3EZlgAAAAASUVORK5CYII='), (c) => c.charCodeAt(0));
const EMU = 9525;

function anchored(tag: string, wrap: string, offsetPx: number): BlockSpec {
  const [w, h] = [192 * EMU, 96 * EMU];
  const pic = `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
    `<pic:nvPicPr><pic:cNvPr id="1" name="grey.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="IMAGE_RID"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${w}" cy="${h}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic>`;
  const drawing = `<w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
    `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>${offsetPx * EMU}</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>` +
    `<wp:extent cx="${w}" cy="${h}"/><wp:effectExtent l="0" t="0" r="0" b="0"/><${wrap}/><wp:docPr id="${offsetPx + 1}" name="Picture"/><wp:cNvGraphicFramePr/>${pic}</wp:anchor></w:drawing>`;
  return { type: 'xml', xml: `<w:p><w:r><w:t xml:space="preserve">${tag} before the picture </w:t></w:r><w:r>${drawing}</w:r><w:r><w:t xml:space="preserve">and after it.</w:t></w:r></w:p>` };
}

function floatingDocx(): Uint8Array {
  const files = unzipSync(buildDocx({ body: [anchored('NONE', 'wp:wrapNone', 300), p('Between.'), anchored('SQUARE', 'wp:wrapSquare wrapText="bothSides"', 0), p('Between again.'), anchored('RIGHT', 'wp:wrapSquare wrapText="bothSides"', 420), p('After.')] }));
  files['word/media/grey.png'] = PNG;
  const rels = strFromU8(files['word/_rels/document.xml.rels']!);
  files['word/_rels/document.xml.rels'] = strToU8(rels.replace('</Relationships>', '<Relationship Id="rIdGrey" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/grey.png"/></Relationships>'));
  const types = strFromU8(files['[Content_Types].xml']!);
  files['[Content_Types].xml'] = strToU8(types.includes('Extension="png"') ? types : types.replace('<Default ', '<Default Extension="png" ContentType="image/png"/><Default '));
  files['word/document.xml'] = strToU8(strFromU8(files['word/document.xml']!).replaceAll('IMAGE_RID', 'rIdGrey'));
  return zipSync(files);
}

/** The paragraph opening with `tag`: its box, its picture's, and the tops of its text's first and last pieces. */
function geometry(page: Page, tag: string) {
  return page.evaluate((t) => {
    const el = [...document.querySelectorAll<HTMLElement>('[data-page-number] article p')].find((x) => x.textContent!.trimStart().startsWith(t))!;
    const img = el.querySelector('img')!.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(el);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height < 40);
    const box = el.getBoundingClientRect();
    return { top: box.top, right: box.right, height: box.height, img: { left: img.left, right: img.right, top: img.top, height: img.height }, textTops: rects.map((r) => r.top), textLeft: Math.min(...rects.map((r) => r.left)), textRight: Math.max(...rects.map((r) => r.right)) };
  }, tag);
}

test('a picture that wraps none takes no space; one with square wrapping stands beside the text', async ({ page }) => {
  await openDocx(page, 'Floating pictures.docx', floatingDocx());
  const none = await geometry(page, 'NONE');
  // Drawn at its size and its offset (docx-preview squeezed it to no width).
  expect(none.img.height).toBeCloseTo(96, 0);
  expect(none.img.right - none.img.left).toBeCloseTo(192, 0);
  // One line high, the text before and after the picture on that one line.
  expect(none.height).toBeLessThan(40);
  expect(Math.max(...none.textTops) - Math.min(...none.textTops)).toBeLessThan(2);
  const square = await geometry(page, 'SQUARE');
  // The text starts beside the picture, at the paragraph's top, not below it or on its baseline.
  expect(square.textLeft).toBeGreaterThanOrEqual(square.img.right - 1);
  expect(Math.min(...square.textTops) - square.top).toBeLessThan(10);
  expect(square.img.top - square.top).toBeLessThan(2);
  // At an offset in the right half of the column it floats right (its distance from the text beside it), the text on its left.
  const right = await geometry(page, 'RIGHT');
  expect(right.textRight).toBeLessThanOrEqual(right.img.left + 1);
  expect(right.right - right.img.right).toBeCloseTo(12, 0);
});
