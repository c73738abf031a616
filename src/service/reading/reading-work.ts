/**
 * The reading's heavy work, as it runs on an engine thread (engine/engine-thread-worker.ts): a
 * view's blocks read from a content's bytes, and a search over a view's paragraph texts. Pure
 * functions of what they are given, so the service's thread only posts and caches.
 */
import { deserialize, serialize } from 'node:v8';
import type { Block, ParagraphBlock, ReadingView } from '../../contract/reading';
import { openDocx, type OpenOptions } from '../../docx';
import { searchMatcher, type SearchPattern } from './search-pattern';

/**
 * A view's reading as it crosses back to the service's thread, shaped so that thread never
 * spends long on it at once: the blocks in serialized chunks (deserialized one at a time between
 * other requests: a 20,000-paragraph draft's blocks in one message took 150 to 370 ms to
 * receive), and every paragraph's text in one UTF-16 buffer, which a search posts back as it is
 * (one copy of bytes, no strings to serialize).
 */
export interface ViewRead {
  chunks: Uint8Array[];
  texts: PackedTexts;
}

/** Paragraph texts in reading order: their UTF-16 code units end to end, and where each ends. */
export interface PackedTexts {
  units: Uint16Array;
  ends: Uint32Array;
}

/** Top-level blocks per serialized chunk: a few hundred paragraphs, a few ms to deserialize. */
const BLOCKS_PER_CHUNK = 250;

/** The blocks of a content in one view: as it stands (markup), or after every change is accepted or rejected. */
export function readView(bytes: Uint8Array, view: ReadingView, open: OpenOptions): ViewRead {
  const doc = openDocx(bytes, open);
  if (view !== 'markup') {
    const ids = doc.changeIds();
    doc.apply(view === 'accepted' ? { accept: ids, reject: [] } : { accept: [], reject: ids });
  }
  const blocks = doc.blocks();
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < blocks.length; at += BLOCKS_PER_CHUNK) chunks.push(serialize(blocks.slice(at, at + BLOCKS_PER_CHUNK)));
  return { chunks, texts: packTexts(paragraphsOf(blocks).map((p) => p.text)) };
}

/** Blocks of one chunk of a ViewRead. */
export function blocksOfChunk(chunk: Uint8Array): Block[] {
  return deserialize(chunk) as Block[];
}

/** Every paragraph in reading order, table cells' paragraphs in place (a search's hits index into it). */
export function paragraphsOf(blocks: readonly Block[]): ParagraphBlock[] {
  const paragraphs: ParagraphBlock[] = [];
  const visit = (list: readonly Block[]): void => {
    for (const b of list) {
      if (b.type === 'paragraph') paragraphs.push(b);
      else for (const row of b.rows) for (const cell of row.cells) visit(cell.blocks);
    }
  };
  visit(blocks);
  return paragraphs;
}

export function packTexts(texts: readonly string[]): PackedTexts {
  let total = 0;
  for (const t of texts) total += t.length;
  const units = new Uint16Array(total);
  const ends = new Uint32Array(texts.length);
  let at = 0;
  texts.forEach((t, i) => {
    for (let k = 0; k < t.length; k++) units[at + k] = t.charCodeAt(k);
    at += t.length;
    ends[i] = at;
  });
  return { units, ends };
}

export function unpackTexts(packed: PackedTexts): string[] {
  const all = new TextDecoder('utf-16le').decode(packed.units);
  const texts: string[] = [];
  let from = 0;
  for (const end of packed.ends) {
    texts.push(all.slice(from, end));
    from = end;
  }
  return texts;
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
 * texts'). RE2 finds each match in time linear in the text after it, but listing every match
 * is not linear in general: for `a+? |a` each match's search reads the rest of a run of a's (to
 * know the first alternative fails), so 16,000 a's take 17 s. Hence the time limit: the clock
 * is read before each match, and past `timeLimitMs` the search stops (one match's search
 * taking longer still is ended by the pool, which ends the thread).
 */
export function searchTexts(texts: readonly string[], pattern: SearchPattern, maxHits: number, timeLimitMs: number): SearchFound {
  const matchesIn = searchMatcher(pattern);
  const stopAt = performance.now() + timeLimitMs;
  const hits: SearchFound['hits'] = [];
  let count = 0;
  for (let i = 0; i < texts.length; i++) {
    const next = matchesIn(texts[i]!);
    for (;;) {
      if (performance.now() > stopAt) return { hits, count, timedOut: true };
      const match = next();
      if (!match) break;
      const [start, end] = match;
      if (start === end) continue;
      count++;
      if (hits.length < maxHits) hits.push([i, start, end]);
    }
  }
  return { hits, count, timedOut: false };
}
