/**
 * A .docx exercising Word's list numbering (numbering/labels.ts): nested levels and citations,
 * a list continued under another numId, a start override, legal numbering, numbering from
 * paragraph styles (basedOn and a level bound to a style), a Symbol bullet, a level that never
 * restarts, numbering removed by numId 0, and a tracked inserted item. `expected` is what Word
 * shows, paragraph by paragraph (null: no label); the corpus test checks LibreOffice agrees.
 */
import { minimalDocx } from './docx-files';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

const lvl = (ilvl: number, fmt: string, text: string, extra = '') =>
  `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/>${extra}<w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/></w:lvl>`;

const NUMBERING = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering ${W}>
<w:abstractNum w:abstractNumId="0">${lvl(0, 'decimal', '%1.')}${lvl(1, 'decimal', '%1.%2')}${lvl(2, 'lowerLetter', '(%3)')}${lvl(3, 'lowerRoman', '(%4)')}</w:abstractNum>
<w:abstractNum w:abstractNumId="2">${lvl(0, 'upperRoman', 'Article %1', '<w:pStyle w:val="Heading1"/>')}${lvl(1, 'decimal', '%1.%2', '<w:isLgl/>')}${lvl(2, 'decimal', '%1.%2.%3', '<w:pStyle w:val="Heading3"/>')}</w:abstractNum>
<w:abstractNum w:abstractNumId="3"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="\uF0B7"/><w:lvlJc w:val="left"/><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol" w:hint="default"/></w:rPr></w:lvl></w:abstractNum>
<w:abstractNum w:abstractNumId="4">${lvl(0, 'decimal', '%1)')}${lvl(1, 'lowerLetter', '%2)', '<w:lvlRestart w:val="0"/>')}</w:abstractNum>
<w:abstractNum w:abstractNumId="5">${lvl(0, 'upperLetter', '%1.')}</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>
<w:num w:numId="4"><w:abstractNumId w:val="3"/></w:num>
<w:num w:numId="5"><w:abstractNumId w:val="4"/></w:num>
<w:num w:numId="6"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="7"><w:abstractNumId w:val="5"/></w:num>
</w:numbering>`;

const style = (id: string, pPr: string, basedOn = 'Normal') =>
  `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${id}"/><w:basedOn w:val="${basedOn}"/><w:pPr>${pPr}</w:pPr></w:style>`;

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${W}>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
${style('Heading1', '<w:numPr><w:numId w:val="3"/></w:numPr>')}
${style('Heading2', '<w:numPr><w:ilvl w:val="1"/></w:numPr>', 'Heading1')}
${style('Heading3', '<w:numPr><w:numId w:val="3"/></w:numPr>')}
${style('Lettered', '<w:numPr><w:numId w:val="7"/></w:numPr>')}
${style('Schedule', '', 'Lettered')}
</w:styles>`;

type Para = [pPr: string, text: string, label: string | null, clause?: string];

const num = (id: number, ilvl = 0) => `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${id}"/></w:numPr>`;
const styled = (id: string, more = '') => `<w:pStyle w:val="${id}"/>${more}`;
const INSERTED_MARK = '<w:rPr><w:ins w:id="1" w:author="Ann" w:date="2025-01-01T00:00:00Z"/></w:rPr>';

const PARAGRAPHS: Para[] = [
  [num(1), 'Definitions in this agreement', '1.'],
  [num(1, 1), 'Terms defined here apply', '1.1'],
  [num(1, 2), 'the first defined term', '(a)', '1.1(a)'],
  [num(1, 2), 'the second defined term', '(b)', '1.1(b)'],
  [num(1, 3), 'a part of the second term', '(i)', '1.1(b)(i)'],
  [num(1, 1), 'Interpretation follows', '1.2'],
  [num(1, 2), 'headings are for convenience', '(a)', '1.2(a)'],
  [num(1), 'Services provided by the supplier', '2.'],
  [num(1, 1), 'The supplier shall perform', '2.1'],
  ['', 'A plain paragraph between lists', null],
  [num(6), 'Fees continue the same list', '3.'],
  [num(2), 'Restarted at five by an override', '5.'],
  [num(2, 1), 'Under the restarted item', '5.1'],
  [styled('Heading1'), 'General provisions heading', 'Article I'],
  [styled('Heading2'), 'Legal numbering in decimal', '1.1'],
  [styled('Heading3'), 'A level bound to its style', 'I.1.1'],
  [styled('Heading1'), 'Second article heading', 'Article II'],
  [styled('Heading2'), 'Legal numbering again', '2.1'],
  [num(4), 'A bullet in the Symbol font', '•'],
  [num(5), 'First of a list that never restarts', '1)'],
  [num(5, 1), 'its first sub item', 'a)', '1)a)'],
  [num(5), 'Second of that list', '2)'],
  [num(5, 1), 'its sub item goes on', 'b)', '2)b)'],
  [styled('Heading1', '<w:numPr><w:numId w:val="0"/></w:numPr>'), 'A heading whose numbering was removed', null],
  [styled('Schedule'), 'Numbering inherited through basedOn', 'A.'],
  [styled('Schedule'), 'Second schedule item', 'B.'],
  [num(1) + INSERTED_MARK, 'An inserted numbered item', '6.'],
];

export interface NumberedSample {
  docx: Uint8Array;
  /** Per paragraph: its text, and the label and citation Word shows (null: none). */
  paragraphs: { text: string; label: string | null; clause: string | null }[];
}

export function numberedSample(): NumberedSample {
  const body = PARAGRAPHS.map(([pPr, text]) => `<w:p><w:pPr>${pPr}</w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`).join('');
  return {
    docx: minimalDocx(body, { 'word/numbering.xml': NUMBERING, 'word/styles.xml': STYLES }),
    paragraphs: PARAGRAPHS.map(([, text, label, clause]) => ({ text, label, clause: label === null ? null : clause ?? label })),
  };
}
