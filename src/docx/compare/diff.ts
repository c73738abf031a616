/**
 * A sequence diff over interned keys (small integers): the longest run of matches, found by
 * trimming the common prefix and suffix, anchoring on keys that occur exactly once on each side
 * (patience diff: the longest increasing run of those anchors), and Myers' O(ND) greedy algorithm
 * in the gaps between anchors. Paragraphs of a contract are nearly all unique, so a 300-page
 * document falls apart into tiny gaps at once; words are not, so Myers does the work inside a
 * paragraph. A gap whose edit distance exceeds MAX_EDITS is given up as "all deleted, all
 * inserted": correct (the round trip holds) and bounded in time and memory.
 */

/** One stretch of the edit script: `a[aStart, aEnd)` against `b[bStart, bEnd)`; equal stretches have the same length. */
export interface Hunk {
  equal: boolean;
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

const MAX_EDITS = 2000;

/** Matched index pairs (ascending in both) of a longest common subsequence, approximately. */
export function matchSequences(a: ArrayLike<number>, b: ArrayLike<number>): [number, number][] {
  const out: [number, number][] = [];
  const keys = new DenseKeys(a, b);
  matchRange(keys.a, 0, a.length, keys.b, 0, b.length, out, keys);
  return out;
}

/**
 * Both sequences with their keys renumbered 0, 1, 2... (block hashes are 53-bit numbers, which
 * a Map hashes as heap numbers), and the scratch tables the anchor search counts keys in: one
 * renumbering per diff instead of two Maps at every level of the recursion between anchors.
 */
class DenseKeys {
  readonly a: Int32Array;
  readonly b: Int32Array;
  /** Per key: where it was seen in the current range of a (b), -1 if more than once; valid when its stamp is the current round. */
  readonly atA: Int32Array;
  readonly atB: Int32Array;
  readonly stampA: Int32Array;
  readonly stampB: Int32Array;
  round = 0;

  constructor(a: ArrayLike<number>, b: ArrayLike<number>) {
    const ids = new Map<number, number>();
    const dense = (xs: ArrayLike<number>): Int32Array => {
      const out = new Int32Array(xs.length);
      for (let i = 0; i < xs.length; i++) {
        const k = xs[i]!;
        let id = ids.get(k);
        if (id === undefined) ids.set(k, (id = ids.size));
        out[i] = id;
      }
      return out;
    };
    this.a = dense(a);
    this.b = dense(b);
    const n = ids.size;
    this.atA = new Int32Array(n);
    this.atB = new Int32Array(n);
    this.stampA = new Int32Array(n);
    this.stampB = new Int32Array(n);
  }
}

/** The edit script as alternating equal and changed hunks, in order. */
export function diffSequences(a: ArrayLike<number>, b: ArrayLike<number>): Hunk[] {
  return hunksOf(matchSequences(a, b), a.length, b.length);
}

export function hunksOf(pairs: readonly [number, number][], aLen: number, bLen: number): Hunk[] {
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  let k = 0;
  while (k < pairs.length) {
    const [pi, pj] = pairs[k]!;
    if (pi > i || pj > j) hunks.push({ equal: false, aStart: i, aEnd: pi, bStart: j, bEnd: pj });
    let n = 1;
    while (k + n < pairs.length && pairs[k + n]![0] === pi + n && pairs[k + n]![1] === pj + n) n++;
    hunks.push({ equal: true, aStart: pi, aEnd: pi + n, bStart: pj, bEnd: pj + n });
    i = pi + n;
    j = pj + n;
    k += n;
  }
  if (i < aLen || j < bLen) hunks.push({ equal: false, aStart: i, aEnd: aLen, bStart: j, bEnd: bLen });
  return hunks;
}

function matchRange(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, out: [number, number][], keys: DenseKeys): void {
  // Common prefix and suffix.
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) out.push([aLo++, bLo++]);
  const tail: [number, number][] = [];
  while (aHi > aLo && bHi > bLo && a[aHi - 1] === b[bHi - 1]) tail.push([--aHi, --bHi]);
  if (aLo < aHi && bLo < bHi) {
    const anchors = uniqueAnchors(a, aLo, aHi, b, bLo, bHi, keys);
    if (anchors.length) {
      let i = aLo;
      let j = bLo;
      for (const [ai, bj] of anchors) {
        matchRange(a, i, ai, b, j, bj, out, keys);
        out.push([ai, bj]);
        i = ai + 1;
        j = bj + 1;
      }
      matchRange(a, i, aHi, b, j, bHi, out, keys);
    } else myers(a, aLo, aHi, b, bLo, bHi, out);
  }
  for (let k = tail.length - 1; k >= 0; k--) out.push(tail[k]!);
}

/** Keys occurring once in each range, paired, reduced to their longest increasing run (patience). */
function uniqueAnchors(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, keys: DenseKeys): [number, number][] {
  // A new round: every key's entry from an earlier round reads as unseen.
  const round = ++keys.round;
  const { atA, atB, stampA, stampB } = keys;
  for (let i = aLo; i < aHi; i++) {
    const k = a[i]!;
    if (stampA[k] === round) atA[k] = -1;
    else {
      stampA[k] = round;
      atA[k] = i;
    }
  }
  for (let j = bLo; j < bHi; j++) {
    const k = b[j]!;
    if (stampB[k] === round) atB[k] = -1;
    else {
      stampB[k] = round;
      atB[k] = j;
    }
  }
  const pairs: [number, number][] = [];
  for (let i = aLo; i < aHi; i++) {
    const k = a[i]!;
    if (atA[k]! < 0 || stampB[k] !== round) continue;
    const bj = atB[k]!;
    if (bj >= 0) pairs.push([i, bj]);
  }
  if (pairs.length === 0) return [];
  // Longest increasing subsequence on the b side (patience sorting).
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const v = pairs[k]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1]!;
    tails[lo] = k;
  }
  const out: [number, number][] = [];
  for (let k = tails[tails.length - 1]!; k >= 0; k = prev[k]!) out.push(pairs[k]!);
  return out.reverse();
}

/**
 * Myers' greedy forward algorithm, keeping each round's furthest reaching paths to trace the
 * snake back. Gives up (no matches) beyond MAX_EDITS edits.
 */
function myers(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, out: [number, number][]): void {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return; // too different: everything deleted and inserted
  // Trace back from (n, m).
  const matches: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const snap = trace[d]!; // v as it was before round d, indices k in [-d-1, d+1]
    const at = (k: number): number => snap[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    const startX = down ? prevX : prevX + 1;
    const startY = startX - k;
    while (x > startX && y > startY) matches.push([aLo + --x, bLo + --y]);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) matches.push([aLo + --x, bLo + --y]);
  for (let i = matches.length - 1; i >= 0; i--) out.push(matches[i]!);
}

/** Interns strings as small integers so the diff compares numbers. */
export class Interner {
  private ids = new Map<string, number>();
  id(key: string): number {
    let v = this.ids.get(key);
    if (v === undefined) {
      v = this.ids.size;
      this.ids.set(key, v);
    }
    return v;
  }
}
