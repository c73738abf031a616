import type { Revision } from '../../contract/revision';
import { trackLabel, type Track, type TrackItem } from '../../contract/track';

/** What the log remembers of a decided change, once it has left the document. */
export interface DecidedChange {
  state: 'in' | 'back';
  kind: string | null;
  textPreview: string;
  author: string | null;
  decidedAt: string;
  decidedByUserId: string | null;
}

/** One entry of the append-only decision log, as the projection reads it. */
export interface LogEntry {
  seq: number;
  kind: 'decide' | 'undo';
  undoesSeq: number | null;
  /** Track order (change ids) right after this entry. */
  order: string[];
  /** Changes decided (and recorded) by this entry. */
  decided: Record<string, DecidedChange>;
  /** Changes applied with recordDecision false: they leave the track. */
  unrecorded: string[];
}

export interface LogState {
  /** Decided changes of the entries still in effect. */
  decided: Map<string, DecidedChange>;
  withdrawn: Set<string>;
  /** Track order after the newest entry, or null when the log is empty. */
  order: string[] | null;
  /** Decide-entries still in effect, oldest first (the last one is what undo undoes). */
  effective: number[];
}

/** Replays the log: an undo entry cancels the decide-entry it names. */
export function replayLog(entries: readonly LogEntry[]): LogState {
  const undone = new Set(entries.filter((e) => e.kind === 'undo' && e.undoesSeq !== null).map((e) => e.undoesSeq!));
  const decided = new Map<string, DecidedChange>();
  const withdrawn = new Set<string>();
  const effective: number[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'decide' || undone.has(entry.seq)) continue;
    effective.push(entry.seq);
    for (const [id, change] of Object.entries(entry.decided)) decided.set(id, change);
    for (const id of entry.unrecorded) withdrawn.add(id);
  }
  const last = entries[entries.length - 1];
  return { decided, withdrawn, order: last ? last.order : null, effective };
}

/**
 * The track: every change of the draft in document order of first appearance.
 * Open items are the revisions now in the document; decided items keep the place
 * they had when they left it; a change that arrives later (redline edits, a saved
 * draft) is placed right after the change that precedes it in the document.
 */
export function projectTrack(state: Pick<LogState, 'decided' | 'withdrawn' | 'order'>, revisions: readonly Revision[]): Track {
  const present = new Map(revisions.map((r) => [r.change_id, r]));
  const order = (state.order ?? []).filter((id) => present.has(id) || (state.decided.has(id) && !state.withdrawn.has(id)));
  const index = new Map(order.map((id, i) => [id, i]));
  // Insert each new revision after its predecessor in the document. Done as one merge
  // rather than repeated splices so a 3,000-change track stays linear.
  const after = new Map<string | null, string[]>();
  let previous: string | null = null;
  for (const revision of revisions) {
    const id = revision.change_id;
    if (!index.has(id)) {
      const list = after.get(previous) ?? [];
      list.push(id);
      after.set(previous, list);
    }
    previous = id;
  }
  // Emit each anchor followed by the chain of new changes hanging off it (a new change
  // can itself be the predecessor of the next new change).
  const ids: string[] = [];
  const emitFollowers = (anchor: string | null) => {
    const stack = [...(after.get(anchor) ?? [])].reverse();
    while (stack.length > 0) {
      const id = stack.pop()!;
      ids.push(id);
      const next = after.get(id);
      if (next) for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
    }
  };
  emitFollowers(null);
  for (const id of order) {
    ids.push(id);
    emitFollowers(id);
  }

  const counts = { open: 0, in: 0, back: 0, total: 0 };
  let hereId: string | null = null;
  const items: TrackItem[] = ids.map((id, i): TrackItem => {
    const revision = present.get(id);
    const decision = state.decided.get(id);
    if (revision && !decision) {
      counts.open++;
      hereId ??= id;
      return {
        id, state: 'open', label: trackLabel(i), kind: revision.kind, textPreview: revision.text_preview,
        justification: revision.justification ?? null, author: revision.author ?? null, date: revision.date ?? null,
      };
    }
    const d = decision!;
    counts[d.state]++;
    return {
      id, state: d.state, label: trackLabel(i), kind: d.kind, textPreview: d.textPreview, author: d.author,
      decidedAt: d.decidedAt, decidedByUserId: d.decidedByUserId,
    };
  });
  counts.total = items.length;
  return { items, hereId, counts };
}
