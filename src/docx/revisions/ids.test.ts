import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ingestDocx, listRevisions } from '..';
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

  it('builds a small benchmark contract with the default revision budget (no endless search)', () => {
    const bytes = buildBenchmarkContract({ pages: 5 });
    expect(listRevisions(bytes).length).toBeGreaterThan(1000);
  });
});
