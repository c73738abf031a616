import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ingestDocx, listRevisions, openDocx } from '..';
import { buildBenchmarkContract, buildKindSample } from '../fixture';

describe('revision ids on ingest', () => {
  it('renumbers an absurdly long w:id so every change id stays short', () => {
    const files = unzipSync(buildKindSample('insert'));
    const xml = strFromU8(files['word/document.xml']!);
    const hostile = xml.replace(/(<w:ins\b[^>]*\bw:id=")\d+"/, `$1${'9'.repeat(5000)}"`);
    expect(hostile).not.toBe(xml);
    files['word/document.xml'] = strToU8(hostile);
    const ingested = ingestDocx(zipSync(files));
    const ids = listRevisions(ingested.bytes).map((r) => r.change_id);
    expect(ids).toHaveLength(1);
    expect(ids[0]!.length).toBeLessThan(12);
  });

  it('lists the renumbered ids when a file is opened without being ingested first', () => {
    const files = unzipSync(buildKindSample('insert'));
    const xml = strFromU8(files['word/document.xml']!);
    // A second insertion with the first one's id, as Word writes across kinds and parts.
    const id = /<w:ins\b[^>]*\bw:id="(\d+)"/.exec(xml)![1]!;
    const twin = `<w:p><w:ins w:id="${id}" w:author="B" w:date="2025-01-01T00:00:00Z"><w:r><w:t>Twin.</w:t></w:r></w:ins></w:p>`;
    files['word/document.xml'] = strToU8(xml.replace('<w:sectPr', `${twin}<w:sectPr`));
    const raw = zipSync(files);
    const opened = openDocx(raw);
    expect(opened.renumbered).toBe(true);
    const listed = opened.revisions().map((r) => r.change_id);
    expect(new Set(listed).size).toBe(listed.length);
    expect(opened.changeIds()).toEqual(listed);
    expect(listed).toEqual(listRevisions(ingestDocx(raw).bytes).map((r) => r.change_id));
  });

  it('builds a small benchmark contract with the default revision budget (no endless search)', () => {
    const bytes = buildBenchmarkContract({ pages: 5 });
    expect(listRevisions(bytes).length).toBeGreaterThan(1000);
  });
});
