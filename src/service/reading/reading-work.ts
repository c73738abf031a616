/**
 * The reading's heavy work, as it runs on an engine thread (engine/engine-thread-worker.ts): a
 * view's blocks read from a content's bytes, and a search over a view's paragraph texts. Pure
 * functions of what they are given, so the service's thread only posts and caches.
 */
import type { Block, ReadingView } from '../../contract/reading';
import { openDocx, type OpenOptions } from '../../docx';
import { searchMatcher, type SearchPattern } from './search-pattern';

/** The blocks of a content in one view: as it stands (markup), or after every change is accepted or rejected. */
export function readBlocks(bytes: Uint8Array, view: ReadingView, open: OpenOptions): Block[] {
  const doc = openDocx(bytes, open);
  if (view !== 'markup') {
    const ids = doc.changeIds();
    doc.apply(view === 'accepted' ? { accept: ids, reject: [] } : { accept: [], reject: ids });
  }
  return doc.blocks();
}

/** A search's matches: [paragraph index, start, end] of the first `maxHits`, and how many in all. */
export interface SearchFound {
  hits: [paragraph: number, start: number, end: number][];
  count: number;
  /** The time limit ended the search before the last paragraph: `count` is not the whole. */
  timedOut: boolean;
}

/**
 * Every non-empty match of the pattern in each text (offsets in UTF-16 code units, as the
 * texts'). RE2 keeps each paragraph's scan linear; the clock is read between matches and
 * paragraphs, and past `timeLimitMs` the search stops (a single paragraph longer than the
 * limit allows is ended by the pool, which ends the thread).
 */
export function searchTexts(texts: readonly string[], pattern: SearchPattern, maxHits: number, timeLimitMs: number): SearchFound {
  const re = searchMatcher(pattern);
  const stopAt = performance.now() + timeLimitMs;
  const hits: SearchFound['hits'] = [];
  let count = 0;
  for (let i = 0; i < texts.length; i++) {
    if (performance.now() > stopAt) return { hits, count, timedOut: true };
    const matcher = re.matcher(texts[i]!);
    while (matcher.find()) {
      const start = matcher.start();
      const end = matcher.end();
      if (start === end) continue;
      count++;
      if (hits.length < maxHits) hits.push([i, start, end]);
    }
  }
  return { hits, count, timedOut: false };
}
