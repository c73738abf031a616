import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ingestDocx } from '../../src/docx/index';

/** The corpus files of `dir` as the service stores them after upload (ingested), with their names; files refused at upload are left out (the conformance test covers which and why). */
export function* ingestedDrafts(dir: string, files: readonly string[]): Generator<{ file: string; bytes: Uint8Array }> {
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = ingestDocx(readFileSync(path.join(dir, file))).bytes;
    } catch {
      continue;
    }
    yield { file, bytes };
  }
}
