import type { CheckView } from '../../contract/checks';
import type { BlockChange, ParagraphBlock } from '../../contract/reading';
import type { Place } from './model';

/**
 * Where a view's paragraph text lies in the draft as it stands. The markup view holds every
 * paragraph with its deleted and inserted text and where each change lies; a paragraph of the
 * accepted view is a markup paragraph without its deleted text (rejected: without its inserted
 * text), or several of them joined when a paragraph mark's deletion was accepted. Each view
 * paragraph is matched in order with the markup paragraphs so projected; a paragraph that matches
 * none (a move, a field the decision recomputed) is tied to the unmatched markup paragraphs
 * between its matched neighbours, all of whose changes then count as lying on it.
 */
interface Segment {
  markup: number;
  /** Where this markup paragraph's projection starts in the view paragraph's text. */
  viewStart: number;
  viewEnd: number;
  /** Markup offset of each projected character and one past the last ('same': the projection is the markup text; null: the tie is coarse). */
  offsets: Offsets | null;
}

const REMOVED: Record<CheckView, ReadonlySet<string>> = {
  accepted: new Set(['delete']),
  rejected: new Set(['insert', 'proposed']),
};

/** How far ahead a lost alignment looks for paragraphs that match again. */
const RESYNC_WINDOW = 40;

export class Alignment {
  private readonly segments: Segment[][];

  constructor(view: readonly ParagraphBlock[], private readonly markup: readonly ParagraphBlock[], which: CheckView) {
    const projected = markup.map((p) => project(p, REMOVED[which]));
    // Each distinct text as a number, so the resync's search compares numbers (0: the empty text, never a resync point).
    const ids = new Map<string, number>([['', 0]]);
    const idOf = (text: string): number => {
      let id = ids.get(text);
      if (id === undefined) ids.set(text, id = ids.size);
      return id;
    };
    const viewIds = Int32Array.from(view, (p) => idOf(p.text));
    const markupIds = Int32Array.from(projected, (p) => idOf(p.text));
    this.segments = view.map(() => []);
    let j = 0;
    for (let i = 0; i < view.length;) {
      const text = view[i]!.text;
      if (j < markup.length && viewIds[i] === markupIds[j]) {
        this.segments[i]!.push({ markup: j, viewStart: 0, viewEnd: text.length, offsets: projected[j]!.offsets });
        i++;
        j++;
        continue;
      }
      const joined = this.join(text, projected, j);
      if (joined) {
        this.segments[i] = joined;
        j = joined[joined.length - 1]!.markup + 1;
        i++;
        continue;
      }
      // Lost: the nearest pair that matches again; what lies between is tied coarsely.
      let next: [number, number] | null = null;
      for (let d = 1; d <= RESYNC_WINDOW * 2 && !next; d++) {
        for (let di = 0; di <= d && !next; di++) {
          const i2 = i + di;
          const j2 = j + d - di;
          if (i2 < view.length && j2 < markup.length && viewIds[i2] === markupIds[j2] && viewIds[i2] !== 0) next = [i2, j2];
        }
      }
      const [i2, j2] = next ?? [i + 1, Math.min(markup.length, j + 1)];
      for (let k = i; k < i2; k++) {
        for (let m = j; m < Math.max(j2, j + 1) && m < markup.length; m++) this.segments[k]!.push({ markup: m, viewStart: 0, viewEnd: view[k]!.text.length, offsets: null });
      }
      i = i2;
      j = j2;
    }
  }

  /** Several markup paragraphs whose projections, joined, are this view paragraph (a deleted paragraph mark accepted). */
  private join(text: string, projected: readonly Projection[], j: number): Segment[] | null {
    const out: Segment[] = [];
    let at = 0;
    for (let k = j; k < projected.length && k < j + RESYNC_WINDOW; k++) {
      const part = projected[k]!.text;
      if (!text.startsWith(part, at)) return null;
      out.push({ markup: k, viewStart: at, viewEnd: at + part.length, offsets: projected[k]!.offsets });
      at += part.length;
      if (at === text.length) return out.length > 1 ? out : null;
    }
    return null;
  }

  /** A view place in the draft as it stands: its markup paragraph and range (the first paragraph's, for a place across a join). */
  toMarkup(place: Place): { markup: number; start: number; end: number } | null {
    for (const s of this.segments[place.block] ?? []) {
      if (place.start > s.viewEnd || place.end < s.viewStart) continue;
      if (!s.offsets) return { markup: s.markup, start: 0, end: this.markup[s.markup]!.text.length };
      const from = Math.max(place.start, s.viewStart) - s.viewStart;
      const to = Math.min(place.end, s.viewEnd) - s.viewStart;
      return { markup: s.markup, start: offsetAt(s.offsets, from), end: to > from ? offsetAt(s.offsets, to - 1) + 1 : offsetAt(s.offsets, from) };
    }
    return null;
  }

  /** The changes lying on a view place: overlapping its range in the draft (a change removed in this view inside or at its edges too). */
  changesOn(place: Place): string[] {
    const out: string[] = [];
    for (const s of this.segments[place.block] ?? []) {
      if (place.start > s.viewEnd || place.end < s.viewStart) continue;
      const p = this.markup[s.markup]!;
      let start = 0;
      let end = p.text.length;
      if (s.offsets) {
        const from = Math.max(place.start, s.viewStart) - s.viewStart;
        const to = Math.min(place.end, s.viewEnd) - s.viewStart;
        // Widen to the removed text next to the place: a deletion just before or after it touches it.
        start = from > 0 ? offsetAt(s.offsets, from - 1) + 1 : 0;
        end = to < s.viewEnd - s.viewStart ? offsetAt(s.offsets, to) : p.text.length;
      }
      for (const c of p.changes ?? []) if (touches(c, start, end)) out.push(c.change_id);
    }
    return out;
  }
}

function touches(c: BlockChange, start: number, end: number): boolean {
  return c.start === c.end ? c.start >= start && c.start <= end : c.start < end && c.end > start;
}

/**
 * Where a projection's text lies in the markup text: the kept stretches in order, each with where
 * it starts in the projection and in the markup ('same' when nothing was removed). A projected
 * offset maps into its stretch; the projection's end maps to the markup's end.
 */
type Offsets = { kept: Kept[]; length: number; markupLength: number } | 'same';

interface Kept {
  /** Where the stretch starts in the projected text. */
  from: number;
  /** Where it starts in the markup text. */
  at: number;
}

function offsetAt(offsets: Offsets, k: number): number {
  if (offsets === 'same') return k;
  if (k >= offsets.length) return offsets.markupLength;
  const { kept } = offsets;
  let lo = 0;
  let hi = kept.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (kept[mid]!.from <= k) lo = mid;
    else hi = mid - 1;
  }
  return kept[lo]!.at + k - kept[lo]!.from;
}

interface Projection {
  text: string;
  offsets: Offsets;
}

/** A markup paragraph's text without the changes a view removes, built from slices of the kept text (no character-by-character concatenation). */
function project(p: ParagraphBlock, removed: ReadonlySet<string>): Projection {
  const gone = (p.changes ?? []).filter((c) => removed.has(c.kind) && c.end > c.start);
  if (gone.length === 0) return { text: p.text, offsets: 'same' };
  // The removed ranges merged, in order (changes may overlap or come out of order).
  gone.sort((a, b) => a.start - b.start);
  const kept: Kept[] = [];
  const pieces: string[] = [];
  let length = 0;
  let at = 0;
  const keep = (end: number): void => {
    if (end <= at) return;
    kept.push({ from: length, at });
    pieces.push(p.text.slice(at, end));
    length += end - at;
  };
  for (const c of gone) {
    keep(Math.min(c.start, p.text.length));
    at = Math.max(at, Math.min(c.end, p.text.length));
  }
  keep(p.text.length);
  return { text: pieces.join(''), offsets: { kept, length, markupLength: p.text.length } };
}

/** Every change lying on any of the places. */
export function changesAt(alignment: Alignment, places: readonly Place[]): string[] {
  const out = new Set<string>();
  for (const place of places) for (const id of alignment.changesOn(place)) out.add(id);
  return [...out];
}

/** Changes that insert, delete or renumber numbered paragraphs (a citation or numbering they can break by renumbering). */
export function structuralChanges(markup: readonly ParagraphBlock[]): string[] {
  const out = new Set<string>();
  for (const p of markup) {
    if (p.numbering === undefined) continue;
    for (const c of p.changes ?? []) {
      const whole = c.start === 0 && c.end >= p.text.length && p.text.length > 0;
      if (c.kind === 'paragraph_mark' || c.kind === 'p-prop-change' || whole && (c.kind === 'insert' || c.kind === 'delete' || c.kind === 'proposed')) out.add(c.change_id);
    }
  }
  return [...out];
}
