import { describe, expect, it } from 'vitest';
import { openDocx } from '../../docx';
import { buildDemoContract } from '../../docx/fixture';
import { OpenDrafts } from './open-drafts';

describe('open drafts', () => {
  const bytes = buildDemoContract();

  it('hands a kept document over once: two drafts with the same content never share it', () => {
    const drafts = new OpenDrafts(1 << 30);
    const doc = openDocx(bytes);
    drafts.keep('sha-a', doc);
    expect(drafts.take('sha-a')).toBe(doc);
    expect(drafts.take('sha-a')).toBeUndefined();
    expect(drafts.take('sha-b')).toBeUndefined();
  });

  it('lets the least recently kept go once the memory budget is passed, and never keeps one larger than it', () => {
    const size = openDocx(bytes).approximateHeapBytes;
    expect(size).toBeGreaterThan(0);
    const drafts = new OpenDrafts(2 * size);
    for (const sha of ['one', 'two', 'three']) drafts.keep(sha, openDocx(bytes));
    expect(drafts.size).toBe(2);
    expect(drafts.take('one')).toBeUndefined();
    expect(drafts.take('three')).toBeDefined();

    const tiny = new OpenDrafts(size - 1);
    tiny.keep('one', openDocx(bytes));
    expect(tiny.size).toBe(0);
  });
});
