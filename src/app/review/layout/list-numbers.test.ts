import { describe, expect, it } from 'vitest';
import { counterPairs, labelFrom } from './list-numbers';

describe('list labels from docx-preview counters', () => {
  it('reads counter-reset, counter-set and counter-increment values', () => {
    expect(counterPairs('docx-num-1-0 0 docx-num-1-1 4', 0)).toEqual([['docx-num-1-0', 0], ['docx-num-1-1', 4]]);
    expect(counterPairs('docx-num-1-0', 1)).toEqual([['docx-num-1-0', 1]]);
    expect(counterPairs('a b 2 c', 1)).toEqual([['a', 1], ['b', 2], ['c', 1]]);
    expect(counterPairs('none', 0)).toEqual([]);
  });

  it('writes the label a computed ::before content gives, in Word formats', () => {
    const counters = new Map([['docx-num-1-0', 3], ['docx-num-1-1', 2], ['docx-num-2-0', 4]]);
    expect(labelFrom('"" counter(docx-num-1-0) ".\\9 "', counters)).toBe('3.\t');
    expect(labelFrom('"" counter(docx-num-1-0, decimal) "." counter(docx-num-1-1, decimal) "\\a0 "', counters)).toBe('3.2\u00a0');
    expect(labelFrom('"(" counter(docx-num-1-1, lower-alpha) ")"', counters)).toBe('(b)');
    expect(labelFrom('"" counter(docx-num-2-0, upper-roman) "."', counters)).toBe('IV.');
    expect(labelFrom('"Article " counter(docx-num-1-0, decimal-leading-zero)', counters)).toBe('Article 03');
    // A counter never set reads 0, as in CSS.
    expect(labelFrom('counter(docx-num-9-0)', counters)).toBe('0');
  });

  it('leaves alone what it cannot write: no counter, a format it does not know, content it cannot read', () => {
    const counters = new Map([['docx-num-1-0', 1]]);
    expect(labelFrom('"•\\9 "', counters)).toBeNull();
    expect(labelFrom('none', counters)).toBeNull();
    expect(labelFrom('"" counter(docx-num-1-0, cjk-ideographic) "、"', counters)).toBeNull();
    expect(labelFrom('"" counter(docx-num-1-0) attr(x)', counters)).toBeNull();
  });
});
