import { describe, expect, it } from 'vitest';
import { minimalDocx } from '../../../test/support/docx-files';
import { openDocx } from '../../docx';
import { baselineSha, factsOf, withNewChanges } from './decision-facts';

type Step = Parameters<typeof baselineSha>[0][number];
const step = (kind: Step['kind'], previousSha256: string, nextSha256: string): Step => ({ kind, previousSha256, nextSha256 });

describe("a draft's baseline: the content its current run of decisions started from", () => {
  it('is the current content before any decision', () => {
    expect(baselineSha([], 'A')).toBe('A');
    expect(baselineSha([step('comment', 'A', 'B'), step('note', 'B', 'B')], 'B')).toBe('B');
  });

  it('is the content before the first decision, through comments, notes and undone batches', () => {
    const log = [step('decide', 'A', 'B'), step('comment', 'B', 'C'), step('decide', 'C', 'D'), step('note', 'D', 'D'), step('undo', 'D', 'C')];
    expect(baselineSha(log, 'C')).toBe('A');
    expect(baselineSha(log.slice(0, 3), 'D')).toBe('A');
  });

  it('starts again after redline edits, which wrote changes around the old ones', () => {
    const log = [step('decide', 'A', 'B'), step('redline', 'B', 'C')];
    expect(baselineSha(log, 'C')).toBe('C');
    expect(baselineSha([...log, step('decide', 'C', 'D')], 'D')).toBe('C');
  });

  it('starts again after a saved draft replaced the content outside the log', () => {
    const log = [step('decide', 'A', 'B'), step('decide', 'B', 'C')];
    expect(baselineSha(log, 'S')).toBe('S');
    expect(baselineSha([...log, step('decide', 'S', 'T')], 'T')).toBe('S');
  });
});

describe('facts of changes the baseline does not hold', () => {
  it("come from the current draft; the baseline's own stay as they were", () => {
    const A = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';
    const run = (text: string) => `<w:r><w:t>${text}</w:t></w:r>`;
    const baseline = factsOf(openDocx(minimalDocx(`<w:p><w:ins w:id="1" ${A}>${run('new')}</w:ins></w:p>`)));
    const current = factsOf(openDocx(minimalDocx(
      `<w:p><w:ins w:id="1" ${A}>${run('new')}<w:del w:id="2" ${A}><w:r><w:delText>gone</w:delText></w:r></w:del></w:ins></w:p>`,
    )));
    const merged = withNewChanges(baseline, current);
    expect([...merged.ids]).toEqual(['c1', 'c2']);
    expect(merged.takers.get('c2')).toEqual([{ changeId: 'c1', removedOn: 'reject' }]);
    expect(merged.takers.get('c1')).toEqual(baseline.takers.get('c1'));
    expect(withNewChanges(baseline, baseline)).toBe(baseline);
  });
});
