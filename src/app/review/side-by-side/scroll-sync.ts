/**
 * Scrolling the older version and the redline together, paragraph by paragraph (issue 34.5).
 *
 * The redline's paragraphs each come from an older paragraph or are inserted (the service's
 * mapping). Each older paragraph's first redline paragraph is an anchor pair: the two places
 * are one place. Between two pairs each side moves in proportion, so an inserted passage on the
 * right goes by while the left waits at the gap, and a deleted one shows on both (the redline
 * shows deletions too). Positions are kept as (pair, fraction), which either side can turn into
 * its own offset: a side that is hidden (the phone shows one at a time) is placed when it shows.
 */

/** One place on both sides: redline paragraph `redline` is where older paragraph `older` begins. */
export interface AnchorPair {
  redline: number;
  older: number;
}

/** The anchor pairs of a mapping: the first redline paragraph of each older paragraph, in order. */
export function anchorPairs(olderOf: readonly (number | null)[]): AnchorPair[] {
  const pairs: AnchorPair[] = [];
  let last = -1;
  olderOf.forEach((older, redline) => {
    if (older === null || older <= last) return;
    pairs.push({ redline, older });
    last = older;
  });
  return pairs;
}

/** Where the reading line is, between two anchors: `pair` (-1: before the first) and how far to the next (0..1). */
export interface SyncPosition {
  pair: number;
  fraction: number;
}

/**
 * The position of content offset `y` on a side whose anchors stand at `tops` (content offsets, one
 * per pair, null where the side shows none of it) and whose content ends at `end`.
 */
export function positionAt(y: number, tops: readonly (number | null)[], end: number): SyncPosition {
  const known = knownTops(tops, end);
  let k = -1;
  for (let lo = 0, hi = known.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    if (known[mid]!.top <= y) {
      k = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const from = k < 0 ? { pair: -1, top: 0 } : known[k]!;
  const to = known[k + 1] ?? { pair: tops.length, top: end };
  const span = to.top - from.top;
  return { pair: from.pair, fraction: span > 0 ? Math.min(1, Math.max(0, (y - from.top) / span)) : 0 };
}

/** The content offset of `position` on a side whose anchors stand at `tops`, its content ending at `end`. */
export function offsetOf(position: SyncPosition, tops: readonly (number | null)[], end: number): number {
  const known = knownTops(tops, end);
  const at = known.findIndex((t) => t.pair >= position.pair);
  const from = position.pair < 0 ? { pair: -1, top: 0 } : at >= 0 && known[at]!.pair === position.pair ? known[at]! : known[at - 1] ?? { pair: -1, top: 0 };
  const next = known.find((t) => t.pair > from.pair) ?? { pair: tops.length, top: end };
  return from.top + position.fraction * (next.top - from.top);
}

function knownTops(tops: readonly (number | null)[], end: number): { pair: number; top: number }[] {
  const out: { pair: number; top: number }[] = [];
  tops.forEach((top, pair) => {
    // Kept in order: an anchor laid out above the one before it (a floating frame) is passed over.
    if (top !== null && top <= end && (out.length === 0 || top >= out[out.length - 1]!.top)) out.push({ pair, top });
  });
  return out;
}
