import type { Revision } from '../../contract/revision';
import { trackLabel, type Track, type TrackItem } from '../../contract/track';
import { goneWhenHolds, goneWhenMentions, type GoneWhen } from '../../docx';

/** What the log remembers of a decided change, once it has left the document. */
export interface DecidedChange {
  state: 'in' | 'back';
  kind: string | null;
  textPreview: string;
  author: string | null;
  decidedAt: string;
  decidedByUserId: string | null;
  /** The change just before it in the track when it was decided: where it keeps its place. */
  after: string | null;
  /**
   * The changes whose decision removes this one's content, innermost first, each with the verdict
   * that removes it, as the draft's baseline had them (decision-facts.ts). Absent when nothing could.
   */
  takenBy?: TakenBy[];
  /**
   * When other decisions remove this change whatever its own verdict (OpenDocx.goneWhen, read
   * on the draft's baseline), and the state that amounts to (OpenDocx.goneAs); absent when nothing
   * could remove it so. For a taken (implied) change, what removed it.
   */
  goneWhen?: GoneWhen;
  goneAs?: 'in' | 'back';
  /** Decided by no one: taken with another change, or gone with its row (implied-decisions.ts). */
  implied?: true;
  /** Taken: the change whose verdict took it with it (absent when none did, and in older entries). */
  takenWith?: string;
  /** The change's own date and justification when it was decided (for the report; absent in older entries). */
  date?: string | null;
  justification?: string | null;
  /** The edit group it was decided in and how that group read (absent in older entries). */
  group?: string;
  groupSummary?: string;
  /** A move (both halves one change); absent otherwise and in older entries. */
  move?: true;
  /** The clause of its paragraph when decided (absent in older entries). */
  clause?: string | null;
  /** Set by replay from the log's notes; never stored inside `decided`. */
  note?: string | null;
}

/** A change that takes another with it when decided `on` that way (and, when given, while `when` holds: containment.ts, Taker). */
export interface TakenBy {
  id: string;
  on: 'in' | 'back';
  when?: GoneWhen;
}

/**
 * A decided change's state in the track: its own verdict, unless a change that takes it was
 * decided the way that removes it (a rejected row around an accepted insertion): then the
 * taker's, whichever of the two was decided first, so the track does not depend on the order.
 * Failing that, when the other decisions remove it whatever its own verdict (every cell of its
 * row deleted; both halves of a move gone with their containers), the state its kind's going
 * amounts to (goneAs). The verdict the lawyer gave is kept in the log as given (`state`); only
 * the track shows it moot.
 *
 * A taker counts as it went: a taken one (implied) with the state it was recorded with, a named
 * one whose own verdict was moot (an inserted row whose every cell went) as its going. Two
 * changes that take each other (an inserted paragraph mark deleted again: rejecting the one and
 * accepting the other both remove the mark) never count for each other: whichever comes first
 * takes the other, and a later batch cannot name it (409), so each shows as it went (goneAs)
 * whenever the other removed their mark, in one batch as in several.
 */
export function effectiveState(decided: ReadonlyMap<string, DecidedChange>, id: string): 'in' | 'back' {
  let currentId = id;
  let current = decided.get(id)!;
  const seen = new Set([id]);
  for (;;) {
    const outer = [...(current.takenBy ?? [])].reverse().find((t) => {
      const taker = decided.get(t.id);
      if (!taker || seen.has(t.id) || removesToo(taker, currentId)) return false;
      if (t.when && !goneWhenHolds(t.when, (other) => verdictOf(decided.get(other)))) return false;
      if (!taker.implied) return (mootState(decided, taker, seen) ?? taker.state) === t.on;
      // Taken itself: it counts unless what removed it was this chain's own decision.
      const others = (other: string) => (seen.has(other) ? undefined : verdictOf(decided.get(other)));
      return taker.state === t.on && (!taker.goneWhen || goneWhenHolds(taker.goneWhen, others));
    });
    if (!outer) break;
    seen.add(outer.id);
    currentId = outer.id;
    current = decided.get(outer.id)!;
  }
  return mootState(decided, current) ?? current.state;
}

/**
 * Whether `id` removes `change` too (is among its takers, or in what makes it moot): for a taker
 * of `id`, the two remove each other (two revisions of one mark; an inserted row and its only
 * cell, deleted).
 */
export const removesToo = (change: Pick<DecidedChange, 'takenBy' | 'goneWhen'>, id: string): boolean =>
  (change.takenBy ?? []).some((t) => t.id === id) || (change.goneWhen !== undefined && goneWhenMentions(change.goneWhen, id));

/**
 * The state a named change's going amounts to, when the other decisions remove it whatever its
 * verdict; leaving out the verdicts of `without` (a taker whose row goes only because the change
 * it would take removes the row's last cell did not take that change: the change removed itself).
 */
function mootState(decided: ReadonlyMap<string, DecidedChange>, change: DecidedChange, without: ReadonlySet<string> = new Set()): 'in' | 'back' | null {
  if (change.implied || !change.goneWhen || !change.goneAs) return null;
  return goneWhenHolds(change.goneWhen, (other) => (without.has(other) ? undefined : verdictOf(decided.get(other)))) ? change.goneAs : null;
}

const verdictOf = (d: DecidedChange | undefined): 'accept' | 'reject' | undefined => (d ? (d.state === 'in' ? 'accept' : 'reject') : undefined);

/** One entry of the append-only decision log, as the projection reads it. */
export interface LogEntry {
  seq: number;
  /**
   * 'comment': a comment written (no decisions; see comment-ops.ts). 'note': a note on a decision made
   * earlier. 'redline': edits wrote new changes (no decision; the entry only marks the draft's change).
   */
  kind: 'decide' | 'undo' | 'comment' | 'note' | 'redline';
  undoesSeq: number | null;
  /** Notes by change id: with this entry's decisions (decide), or on decisions made earlier (note). */
  notes?: Record<string, string>;
  /** Changes decided (and recorded) by this entry. */
  decided: Record<string, DecidedChange>;
  /** Changes applied with recordDecision false (withdrawn proposals), with their anchor: they leave the track. */
  withdrawn: Record<string, string | null>;
}

export interface LogState {
  decided: Map<string, DecidedChange>;
  withdrawn: Map<string, string | null>;
  /** Decide-entries still in effect, oldest first (the last one is what undo undoes). */
  effective: number[];
  lastSeq: number;
}

/** Replays the log: an undo entry cancels the decide-entry it names. */
export function replayLog(entries: readonly LogEntry[]): LogState {
  const undone = new Set(entries.filter((e) => e.kind === 'undo' && e.undoesSeq !== null).map((e) => e.undoesSeq!));
  const decided = new Map<string, DecidedChange>();
  const withdrawn = new Map<string, string | null>();
  const effective: number[] = [];
  let lastSeq = 0;
  for (const entry of entries) {
    lastSeq = Math.max(lastSeq, entry.seq);
    if (entry.kind === 'note') {
      // A note on a decision still in effect; one whose batch was undone (skipped below) finds none.
      for (const [id, note] of Object.entries(entry.notes ?? {})) {
        const change = decided.get(id);
        if (change) decided.set(id, { ...change, note: note || null });
      }
      continue;
    }
    if (entry.kind !== 'decide' || undone.has(entry.seq)) continue;
    effective.push(entry.seq);
    for (const [id, change] of Object.entries(entry.decided)) decided.set(id, entry.notes?.[id] ? { ...change, note: entry.notes[id] } : change);
    for (const [id, after] of Object.entries(entry.withdrawn)) withdrawn.set(id, after);
  }
  return { decided, withdrawn, effective, lastSeq };
}

/**
 * The track: every change of the draft in document order of first appearance.
 * Open items are the revisions now in the document, in document order; a decided
 * item, gone from the document, keeps its place right after the change that
 * preceded it when it was decided (itself placed the same way, recursively). So a
 * change that arrives later (redline edits, a saved draft) lands at its document
 * position, and decided items never move. Linear in the number of items.
 */
export function projectTrack(
  state: Pick<LogState, 'decided' | 'withdrawn'>,
  revisions: readonly Revision[],
  /** Who each change written through redline edits was written for (open items carry it). */
  proposers: ReadonlyMap<string, { userId: string | null }> = new Map(),
): Track {
  const present = new Map(revisions.map((r) => [r.change_id, r]));
  const visibleDecided = (id: string) => state.decided.has(id) && !present.has(id);
  // Where an item hangs: its anchor, skipping anchors that left the track (withdrawn or vanished).
  const resolve = (anchor: string | null): string | null => {
    const seen = new Set<string>();
    while (anchor !== null && !present.has(anchor) && !visibleDecided(anchor)) {
      if (seen.has(anchor)) return null;
      seen.add(anchor);
      anchor = state.withdrawn.get(anchor) ?? state.decided.get(anchor)?.after ?? null;
    }
    return anchor;
  };
  const hanging = new Map<string | null, string[]>();
  for (const [id, change] of state.decided) {
    if (!visibleDecided(id)) continue;
    const anchor = resolve(change.after);
    const list = hanging.get(anchor);
    if (list) list.push(id);
    else hanging.set(anchor, [id]);
  }

  const ids: string[] = [];
  const emitHanging = (anchor: string | null) => {
    const stack = [...(hanging.get(anchor) ?? [])].reverse();
    while (stack.length > 0) {
      const id = stack.pop()!;
      ids.push(id);
      const next = hanging.get(id);
      if (next) for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
    }
  };
  emitHanging(null);
  for (const revision of revisions) {
    ids.push(revision.change_id);
    emitHanging(revision.change_id);
  }

  const counts = { open: 0, in: 0, back: 0, total: 0 };
  let hereId: string | null = null;
  const items = ids.map((id, i): TrackItem => {
    const revision = present.get(id);
    const decision = revision ? undefined : state.decided.get(id);
    if (revision && !decision) {
      counts.open++;
      hereId ??= id;
      return openItem(revision, trackLabel(i), proposers);
    }
    const item = decidedItem(id, decision!, trackLabel(i), effectiveState(state.decided, id));
    counts[item.state as 'in' | 'back']++;
    return item;
  });
  counts.total = items.length;
  return { items, hereId, counts };
}

/** The track item of a change still in the document (its revision, grouped into its entry). */
export function openItem(revision: Revision, label: string, proposers: ReadonlyMap<string, { userId: string | null }>): TrackItem {
  const id = revision.change_id;
  return {
    id, state: 'open', label, kind: revision.kind, textPreview: revision.text_preview,
    justification: revision.justification ?? null, author: revision.author ?? null, date: revision.date ?? null,
    ...(proposers.has(id) ? { proposedByUserId: proposers.get(id)!.userId } : {}),
    ...(revision.document_wide ? { documentWide: true as const } : {}),
    ...(revision.move ? { move: true as const } : {}),
    group: revision.group ?? id, groupSummary: revision.group_summary ?? revision.text_preview, clause: revision.clause ?? null,
  };
}

/** The track item of a decided change, shown `shown` (effectiveState). */
export function decidedItem(id: string, d: DecidedChange, label: string, shown: 'in' | 'back'): TrackItem {
  return {
    id, state: shown, label, kind: d.kind, textPreview: d.textPreview, author: d.author,
    decidedAt: d.decidedAt, decidedByUserId: d.decidedByUserId, note: d.note ?? null,
    ...(d.justification ? { justification: d.justification } : {}),
    ...(d.move ? { move: true as const } : {}),
    ...(d.implied ? { implied: true as const } : {}), ...(d.takenWith ? { takenWith: d.takenWith } : {}),
    group: d.group ?? id, groupSummary: d.groupSummary ?? d.textPreview, clause: d.clause ?? null,
  };
}

/** For each id, the id before it in the track (null for the first): the anchors a new log entry records. */
export function predecessors(track: Track): Map<string, string | null> {
  const result = new Map<string, string | null>();
  track.items.forEach((item, i) => result.set(item.id, i === 0 ? null : track.items[i - 1]!.id));
  return result;
}
