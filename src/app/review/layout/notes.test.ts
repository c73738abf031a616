import { describe, expect, it } from 'vitest';
import { noteLabels, readNoteNumbering } from './notes';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** word/settings.xml with the document's footnote properties (inner XML of w:footnotePr, or none). */
function settings(footnotePr: string | null): string {
  return `<w:settings ${W}>${footnotePr === null ? '' : `<w:footnotePr>${footnotePr}<w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>`}<w:endnotePr><w:numFmt w:val="upperRoman"/></w:endnotePr></w:settings>`;
}

/**
 * word/document.xml: each section a paragraph with `refs` footnote references, ended by a
 * w:sectPr holding the section's own footnote properties (the last one is the body's).
 */
function documentXml(sections: { refs: number; footnotePr?: string }[]): string {
  let id = 1;
  const sectPr = (pr?: string) => `<w:sectPr>${pr === undefined ? '' : `<w:footnotePr>${pr}</w:footnotePr>`}<w:pgSz w:w="12240" w:h="15840"/></w:sectPr>`;
  const body = sections.map((s, i) => {
    const refs = Array.from({ length: s.refs }, () => `<w:r><w:footnoteReference w:id="${id++}"/></w:r>`).join('');
    const last = i === sections.length - 1;
    return `<w:p>${last ? '' : `<w:pPr>${sectPr(s.footnotePr)}</w:pPr>`}${refs}</w:p>${last ? sectPr(s.footnotePr) : ''}`;
  });
  return `<w:document ${W}><w:body>${body.join('')}</w:body></w:document>`;
}

/** The labels of references given as [section, page] pairs. */
function labels(settingsXml: string, docXml: string, refs: [number, number][]): string[] {
  const n = readNoteNumbering(settingsXml, docXml);
  return noteLabels(refs.map(([section, page]) => ({ section, page })), n.footnote, n.sectionFootnotes, 'decimal');
}

describe('footnote numbering (w:footnotePr)', () => {
  it('goes on through the document from 1 by default', () => {
    const doc = documentXml([{ refs: 2 }, { refs: 2 }]);
    expect(labels(settings(null), doc, [[0, 0], [0, 1], [1, 1], [1, 2]])).toEqual(['1', '2', '3', '4']);
  });

  it('reads the document format and start from the settings', () => {
    const doc = documentXml([{ refs: 3 }]);
    expect(labels(settings('<w:numFmt w:val="lowerRoman"/><w:numStart w:val="4"/>'), doc, [[0, 0], [0, 0], [0, 1]])).toEqual(['iv', 'v', 'vi']);
  });

  it('starts again in each section when the settings say eachSect', () => {
    const doc = documentXml([{ refs: 2 }, { refs: 1 }, { refs: 2 }]);
    expect(labels(settings('<w:numRestart w:val="eachSect"/>'), doc, [[0, 0], [0, 0], [1, 1], [2, 1], [2, 2]])).toEqual(['1', '2', '1', '1', '2']);
  });

  it('starts again on each page when a section says eachPage, and takes that section its own format and start', () => {
    const doc = documentXml([{ refs: 2 }, { refs: 3, footnotePr: '<w:numFmt w:val="lowerLetter"/><w:numRestart w:val="eachPage"/><w:numStart w:val="2"/>' }]);
    // Section 0 goes on continuously; section 1 restarts on its pages 3 and 4.
    expect(labels(settings(null), doc, [[0, 0], [0, 1], [1, 2], [1, 2], [1, 3]])).toEqual(['1', '2', 'b', 'c', 'b']);
  });

  it('reads each w:sectPr in document order, a tracked change of section properties counting once', () => {
    const doc = documentXml([{ refs: 1 }, { refs: 1, footnotePr: '<w:numFmt w:val="upperLetter"/>' }]).replace(
      '<w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:body>',
      '<w:pgSz w:w="12240" w:h="15840"/><w:sectPrChange w:id="9" w:author="A"><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:sectPrChange></w:sectPr></w:body>',
    );
    const n = readNoteNumbering(settings(null), doc);
    expect(n.sectionFootnotes).toEqual([null, { format: 'upperLetter' }]);
    expect(n.endnote).toEqual({ format: 'upperRoman' });
    expect(labels(settings(null), doc, [[0, 0], [1, 1]])).toEqual(['1', 'B']);
  });

  it("reads where endnotes go (w:pos), Word's default being the document's end", () => {
    const withPos = (pos: string) => `<w:settings ${W}><w:endnotePr><w:pos w:val="${pos}"/><w:numFmt w:val="decimal"/></w:endnotePr></w:settings>`;
    expect(readNoteNumbering(withPos('sectEnd'), documentXml([{ refs: 0 }])).endnote).toEqual({ format: 'decimal', position: 'sectEnd' });
    expect(readNoteNumbering(withPos('docEnd'), documentXml([{ refs: 0 }])).endnote.position).toBe('docEnd');
    expect(readNoteNumbering(withPos('beside'), documentXml([{ refs: 0 }])).endnote.position).toBeUndefined();
    expect(readNoteNumbering(settings(null), documentXml([{ refs: 0 }])).endnote.position).toBeUndefined();
  });
});
