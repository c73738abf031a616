import { describe, expect, it } from 'vitest';
import { numberedSample } from '../../../test/support/numbered-docx';
import { visibleText } from '../revisions/preview';
import { listRevisions, openDocx } from '../index';
import { formatNumber } from './formats';

describe('number formats', () => {
  it('writes numbers as Word does in each format', () => {
    expect([1, 4, 9, 14, 40, 1994].map((n) => formatNumber(n, 'upperRoman'))).toEqual(['I', 'IV', 'IX', 'XIV', 'XL', 'MCMXCIV']);
    expect(formatNumber(3, 'lowerRoman')).toBe('iii');
    expect([1, 26, 27, 53].map((n) => formatNumber(n, 'upperLetter'))).toEqual(['A', 'Z', 'AA', 'AAA']);
    expect(formatNumber(28, 'lowerLetter')).toBe('bb');
    expect([1, 2, 3, 11, 22].map((n) => formatNumber(n, 'ordinal'))).toEqual(['1st', '2nd', '3rd', '11th', '22nd']);
    expect(formatNumber(7, 'decimalZero')).toBe('07');
    expect(formatNumber(21, 'cardinalText')).toBe('Twenty-one');
    expect(formatNumber(12, 'ordinalText')).toBe('Twelfth');
    expect(formatNumber(5, 'none')).toBe('');
    expect(formatNumber(5, 'someFormatWeDoNotKnow')).toBe('5');
  });
});

describe('paragraph labels', () => {
  it('labels every paragraph of the numbering sample as Word shows it, and cites it with the levels above', () => {
    const { docx, paragraphs } = numberedSample();
    const labels = openDocx(docx).paragraphLabels();
    const body = [...labels.keys()][0]!.parent!;
    const ours = body.all('w:p').map((p) => ({ text: visibleText(p).trim(), label: labels.get(p)?.label ?? null, clause: labels.get(p)?.clause ?? null }));
    expect(ours).toEqual(paragraphs);
  });

  it('gives each revision the clause of its paragraph (null for unnumbered paragraphs and bullets)', () => {
    const sample = numberedSample();
    const revisions = listRevisions(sample.docx);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ kind: 'paragraph_mark', clause: '6.' });
  });
});
