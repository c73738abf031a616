import { ingestDocx } from '../../src/docx/index';
import { readCorpusFile } from './shared-corpus';

/** The corpus files named, as the service stores them after upload (ingested), with their names; files refused at upload are left out (the conformance test covers which and why). */
export function* ingestedDrafts(files: readonly string[]): Generator<{ file: string; bytes: Uint8Array }> {
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = ingestDocx(readCorpusFile(file)).bytes;
    } catch {
      continue;
    }
    yield { file, bytes };
  }
}
