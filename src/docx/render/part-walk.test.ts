import { describe, expect, it } from 'vitest';
import { scanPart, type PartScan } from '../revisions/sites';
import { parseXml } from '../xml/parse';
import type { XmlElement } from '../xml/tree';
import { walkParts, type PartVisitor } from './part-walk';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const body = scanPart('word/document.xml', 'document', parseXml(
  `<w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>a</w:t></w:r><w:fldSimple w:instr="PAGE"><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p></w:body></w:document>`,
));
const styles = scanPart('word/styles.xml', 'styles', parseXml(`<w:styles xmlns:w="${W}"><w:style w:styleId="Normal"/></w:styles>`));

/** A visitor that notes every element it is shown and leaves what lies below the names in `stopAt`. */
function recorder(stopAt: readonly string[], reads: (scan: PartScan) => boolean = () => true): PartVisitor & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    reads,
    enter(el: XmlElement) {
      seen.push(el.name);
      return !stopAt.includes(el.name);
    },
  };
}

describe('walkParts: one walk over each part for several visitors', () => {
  it('shows each visitor every element of the parts it reads, in document order, but what lies below where it said false', () => {
    const all = recorder([]);
    const noRuns = recorder(['w:r']);
    const noFields = recorder(['w:fldSimple'], (scan) => scan.role !== 'styles');
    walkParts([body, styles], [all, noRuns, noFields]);
    expect(all.seen).toEqual(['w:document', 'w:body', 'w:p', 'w:r', 'w:t', 'w:fldSimple', 'w:r', 'w:t', 'w:styles', 'w:style']);
    // Leaving a subtree is each visitor's own: the others still go below it.
    expect(noRuns.seen).toEqual(['w:document', 'w:body', 'w:p', 'w:r', 'w:fldSimple', 'w:r', 'w:styles', 'w:style']);
    expect(noFields.seen).toEqual(['w:document', 'w:body', 'w:p', 'w:r', 'w:t', 'w:fldSimple']);
  });

  it('goes below an element only while some visitor reads there', () => {
    const entered: string[] = [];
    const both = (stopAt: string): PartVisitor => ({
      reads: () => true,
      enter(el) {
        entered.push(el.name);
        return el.name !== stopAt && el.name !== 'w:p';
      },
    });
    walkParts([body], [both('w:body'), both('w:document')]);
    // The second stops at w:document, the first at w:body: w:p is never reached.
    expect(entered).toEqual(['w:document', 'w:document', 'w:body']);
  });
});
