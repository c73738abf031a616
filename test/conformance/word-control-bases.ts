import type { BlockSpec } from '../../src/docx/fixture';
import { IMAGE_REL, build as buildBase } from './next-version-bases';
import type { Base } from './next-version-check';

/**
 * Documents built as Word builds the four shapes where real next versions came back with an extra
 * empty paragraph beside a content control (issue 34 item 3): Word's own markup, not a shorthand
 * of it. Every control carries Word's w:sdtPr (w:id, a w:placeholder docPart, w:rPr where Word
 * writes one) and an empty w:sdtEndPr; paragraphs carry w14:paraId and rsids; Word's empty
 * paragraphs (`<w:p .../>`, self-closing) stand before and after controls, as Word leaves them
 * when a control is inserted on its own line.
 * - checkbox controls (w14:checkbox, the ballot box in MS Gothic) inside a rich-text control, at
 *   block level (the rich text holding paragraphs of checkboxes) and at run level (a rich-text
 *   run control holding checkboxes), and a rich-text control nested in another holding them;
 * - repeating sections (w15:repeatingSection of w15:repeatingSectionItem) nested two deep, of
 *   paragraphs, and of table rows (Word's repeating rows: the section inside w:tbl);
 * - a repeating section at run level, its items holding runs (Word says the file has invalid
 *   content, yet opens it);
 * - floating pictures (wp:anchor, layoutInCell) in table cells: alone in a cell's paragraph, with
 *   text, and in a cell of a table inside a content control.
 */
/** The namespaces Word declares for this markup, beside those next-version-bases.ts declares. */
const WORD_NAMESPACES: Record<string, string> = {
  wp14: 'http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing',
  w14: 'http://schemas.microsoft.com/office/word/2010/wordml',
};
const GOTHIC = '<w:rFonts w:ascii="MS Gothic" w:eastAsia="MS Gothic" w:hAnsi="MS Gothic"/>';

/** Word's ids: paragraph ids and control ids, distinct and stable for a document. */
export class Ids {
  private n = 0;
  para(): string {
    return (0x1a2b0000 + ++this.n * 7919).toString(16).toUpperCase().slice(-8).padStart(8, '0');
  }
  control(): number {
    return ((++this.n * 104729) % 2_000_000_000) - 1_000_000_000;
  }
}

export const run = (text: string, rPr = ''): string => `<w:r w:rsidRPr="00B31F2A">${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;

/** Word's markup for paragraphs, controls and tables, numbered by `ids` (lone-paragraph-pairs.ts builds with them too). */
export function makers(ids: Ids) {
  const para = (inner: string, pPr = ''): string =>
    `<w:p w14:paraId="${ids.para()}" w14:textId="77777777" w:rsidR="00B31F2A" w:rsidRDefault="00B31F2A" w:rsidP="00B31F2A">${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${inner}</w:p>`;
  /** Word's empty paragraph: self-closing. */
  const empty = (): string => `<w:p w14:paraId="${ids.para()}" w14:textId="77777777" w:rsidR="00B31F2A" w:rsidRDefault="00B31F2A" w:rsidP="00B31F2A"/>`;
  const p = (text: string): string => para(run(text));
  const control = (inner: string, pr: string, { alias, rPr }: { alias?: string; rPr?: string } = {}): string =>
    '<w:sdt><w:sdtPr>' +
    (rPr ? `<w:rPr>${rPr}</w:rPr>` : '') +
    (alias ? `<w:alias w:val="${alias}"/><w:tag w:val="${alias.replace(/\W/g, '')}"/>` : '') +
    `<w:id w:val="${ids.control()}"/>${pr}</w:sdtPr><w:sdtEndPr/><w:sdtContent>${inner}</w:sdtContent></w:sdt>`;
  const placeholder = (n: number): string => `<w:placeholder><w:docPart w:val="DefaultPlaceholder_-18540134${30 + n}"/></w:placeholder>`;
  /** A rich-text control (Word writes no type element for one). */
  const richText = (inner: string, alias?: string): string => control(inner, placeholder(0), alias ? { alias } : {});
  const checkbox = (checked: boolean): string =>
    control(
      `<w:r><w:rPr><w:rFonts w:ascii="MS Gothic" w:eastAsia="MS Gothic" w:hAnsi="MS Gothic" w:hint="eastAsia"/></w:rPr><w:t>${checked ? '\u2612' : '\u2610'}</w:t></w:r>`,
      `<w14:checkbox><w14:checked w14:val="${checked ? 1 : 0}"/><w14:checkedState w14:val="2612" w14:font="MS Gothic"/><w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox>`,
      { rPr: GOTHIC },
    );
  const section = (items: string[], alias?: string): string =>
    control(items.map((inner, k) => control(inner, `${placeholder(k % 3 ? 5 : 6)}<w15:repeatingSectionItem/>`)).join(''), '<w15:repeatingSection/>', alias ? { alias } : {});
  const cell = (inner: string, w = 4680): string => `<w:tc><w:tcPr><w:tcW w:w="${w}" w:type="dxa"/></w:tcPr>${inner}</w:tc>`;
  const row = (...cells: string[]): string => `<w:tr w:rsidR="00B31F2A" w14:paraId="${ids.para()}" w14:textId="77777777" w:rsidTr="00B31F2A">${cells.map((c) => cell(c)).join('')}</w:tr>`;
  const table = (...rows: string[]): string =>
    '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/><w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr>' +
    `<w:tblGrid><w:gridCol w:w="4680"/><w:gridCol w:w="4680"/></w:tblGrid>${rows.join('')}</w:tbl>`;
  return { para, empty, p, control, placeholder, richText, checkbox, section, cell, row, table };
}

/** Word's floating picture: wp:anchor laid out in its cell, square wrapping, its wp14 ids and relative sizes. */
function anchoredPictureXml(id: number): string {
  return (
    '<w:r><w:rPr><w:noProof/></w:rPr><w:drawing>' +
    `<wp:anchor distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="${251658240 + id}" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1" wp14:anchorId="3C1D${(0x1000 + id).toString(16).toUpperCase()}" wp14:editId="5E2F${(0x2000 + id).toString(16).toUpperCase()}">` +
    '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>-65405</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>' +
    `<wp:extent cx="685800" cy="685800"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="${id}" name="Picture ${id}" descr="Company logo"/>` +
    '<wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr>' +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
    `<pic:nvPicPr><pic:cNvPr id="${id}" name="Picture ${id}" descr="Company logo"/><pic:cNvPicPr><a:picLocks noChangeAspect="1" noChangeArrowheads="1"/></pic:cNvPicPr></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="${IMAGE_REL}"><a:extLst><a:ext uri="{28A0092B-C50C-407E-A947-70E740481C1C}"/></a:extLst></a:blip><a:srcRect/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    '<pic:spPr bwMode="auto"><a:xfrm><a:off x="0" y="0"/><a:ext cx="685800" cy="685800"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/><a:ln><a:noFill/></a:ln></pic:spPr>' +
    '</pic:pic></a:graphicData></a:graphic>' +
    '<wp14:sizeRelH relativeFrom="page"><wp14:pctWidth>0</wp14:pctWidth></wp14:sizeRelH><wp14:sizeRelV relativeFrom="page"><wp14:pctHeight>0</wp14:pctHeight></wp14:sizeRelV>' +
    '</wp:anchor></w:drawing></w:r>'
  );
}

const CLAUSE = 'The Supplier shall deliver the Services with reasonable skill and care';

/** Checkbox controls in rich-text controls: block level, run level, and a rich-text control inside another. */
function checkboxesInRichText(): Uint8Array {
  const ids = new Ids();
  const m = makers(ids);
  const option = (checked: boolean, text: string): string => m.para(m.checkbox(checked) + run(` ${text}`));
  return build([
    m.p(`1. ${CLAUSE}, item 1.`),
    m.empty(),
    m.richText(option(false, 'Option one: monthly invoicing') + option(true, 'Option two: quarterly invoicing') + m.para(run('Tick one box above.')), 'Invoicing options'),
    m.empty(),
    m.p(`2. ${CLAUSE}, item 2.`),
    m.para(run('Delivery: ') + m.control(m.checkbox(false) + run(' by courier ') + m.checkbox(true) + run(' by post'), m.placeholder(1))),
    m.richText(m.p('Signatory options') + m.richText(option(false, 'Director') + option(false, 'Company secretary'), 'Signatory'), 'Signing'),
    m.empty(),
    m.p(`3. ${CLAUSE}, item 3.`),
  ]);
}

/** Repeating sections nested two deep, of paragraphs, and a section of table rows with a section in a cell. */
function nestedRepeatingSections(): Uint8Array {
  const ids = new Ids();
  const m = makers(ids);
  const inner = (who: string): string => m.section([m.p(`Signatory: ${who}, Director`), m.p(`Signatory: ${who}, Secretary`)], 'Signatories');
  const rowSection = m.control(
    [m.row(m.p('Milestone one'), m.p('USD 2,000')), m.row(m.p('Milestone two'), m.section([m.p('Payment one'), m.p('Payment two')]))]
      .map((r) => m.control(r, `${m.placeholder(5)}<w15:repeatingSectionItem/>`))
      .join(''),
    '<w15:repeatingSection/>',
    { alias: 'Milestones' },
  );
  return build([
    m.p(`1. ${CLAUSE}, item 1.`),
    m.empty(),
    m.section([m.p('Party: Acme Holdings Limited') + inner('Jane Roe'), m.p('Party: Beta Trading LLC') + inner('John Doe') + m.empty()], 'Parties'),
    m.empty(),
    m.p(`2. ${CLAUSE}, item 2.`),
    m.table(m.row(m.p('Milestone'), m.p('Fee'))).replace('</w:tbl>', `${rowSection}</w:tbl>`),
    m.empty(),
    m.section([m.section([m.p('Schedule item A')]) + m.empty()]),
    m.p(`3. ${CLAUSE}, item 3.`),
  ]);
}

/** Repeating sections placed inside paragraphs (run level), their items holding runs. */
function runLevelRepeatingSection(): Uint8Array {
  const ids = new Ids();
  const m = makers(ids);
  const runSection = (...texts: string[]): string => m.section(texts.map((t) => run(t)));
  return build([
    m.p(`1. ${CLAUSE}, item 1.`),
    m.empty(),
    m.para(runSection('Notices go to the registered office. ', 'Copies go to counsel. ')),
    m.empty(),
    m.para(run('Governing law: ') + runSection('England and Wales') + run(' exclusively.')),
    m.p(`2. ${CLAUSE}, item 2.`),
    m.richText(m.para(runSection('Held in a rich-text control.')) + m.empty()),
    m.para(runSection('Right after a control, before a table. ')),
    m.table(m.row(m.para(runSection('In a cell. ', 'Second item. ')), m.p('Beside it')) + m.row(m.p('Below'), m.para(run('Fee: ') + runSection('USD 100')))),
    m.para(runSection('Right after the table. ')),
    m.p(`3. ${CLAUSE}, item 3.`),
  ]);
}

/** Floating pictures anchored in table cells: alone in a cell's paragraph, with text, in a table held by a content control. */
function anchoredPicturesInCells(): Uint8Array {
  const ids = new Ids();
  const m = makers(ids);
  // Drawing ids count from 1 in each document, so every call builds the same bytes (the seeds' edits depend on them).
  let drawings = 0;
  const anchoredPicture = (): string => anchoredPictureXml(++drawings);
  return build(
    [
      m.p(`1. ${CLAUSE}, item 1.`),
      m.table(m.row(m.para(anchoredPicture()), m.p('Schedule 1: the Services')), m.row(m.p('Fees'), m.para(anchoredPicture() + run('USD 4,000')))),
      m.empty(),
      m.richText(m.table(m.row(m.para(anchoredPicture()) + m.empty(), m.p('Signature block'))) + m.empty(), 'Signature'),
      m.p(`2. ${CLAUSE}, item 2.`),
      m.table(m.row(m.richText(m.para(anchoredPicture() + run('Logo held in a control'))), m.p('Supplier'))),
      m.empty(),
      m.p(`3. ${CLAUSE}, item 3.`),
    ],
    true,
  );
}

/** A document of Word markup blocks, declaring Word's namespaces. */
export function build(blocks: string[], image = false): Uint8Array {
  return buildBase(blocks.map((xml): BlockSpec => ({ type: 'xml', xml })), image, WORD_NAMESPACES, 'w14 w15 wp14');
}

export function wordControlBases(): Base[] {
  return [
    { name: 'shape: checkboxes in rich-text controls (Word markup)', bytes: checkboxesInRichText() },
    { name: 'shape: nested repeating sections (Word markup)', bytes: nestedRepeatingSections() },
    { name: 'shape: run-level repeating sections (Word markup)', bytes: runLevelRepeatingSection() },
    { name: 'shape: anchored pictures in cells (Word markup)', bytes: anchoredPicturesInCells() },
  ];
}
