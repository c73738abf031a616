import type { ApplyRevisionsBody } from '../../../contract/review';
import type { Track, TrackState } from '../../../contract/track';
import type { ReviewResponse } from './types';

/**
 * The requests the review queues, one at a time and in order. Each carries a layer of states
 * laid over the last server answer while it waits, so what it decides shows at once.
 */

export interface ApplyOp {
  kind: 'apply';
  key: number;
  batchKey: string;
  /** Sent at least once: the service may hold it, so only its own undo takes it back. */
  sent?: boolean;
  layer: Map<string, TrackState>;
  /** Notes sent with this batch's decisions. */
  notes?: Record<string, string>;
}

export interface UndoOp {
  kind: 'undo';
  key: number;
  batchKey: string;
  /** The apply this undo expects to reverse, when this tab knows it; its ids are shown open meanwhile. */
  target: ApplyOp | null;
  layer: Map<string, TrackState>;
}

/**
 * Any other change to the draft made from the review (a counter-proposal, a withdrawal, a note on
 * a decision already sent): queued with the decisions so that each request sees the one before.
 */
export interface EditOp {
  kind: 'edit';
  key: number;
  /** Edits are not kept on the device (their request is a closure); the key only names the op. */
  batchKey: string;
  layer: Map<string, TrackState>;
  /**
   * Sends the edit with `key` as its Idempotency-Key where the route takes one, so a resend applies
   * once and the live stream's echo of it is known as this tab's own.
   */
  send: (key: string) => Promise<ReviewResponse>;
  /** What it does, for messages: "propose your change". */
  what: string;
  /** Said when the service confirms it. */
  done: string;
  /** Where to go once it is confirmed (a new proposal), given the answer. */
  focus?: (data: ReviewResponse) => string | null;
  /** How `u` takes it back ("undone like a batch"), made from its answer; none: `u` leaves it. */
  undoWith?: (data: ReviewResponse) => EditRequest | null;
  /** Set once confirmed, from `undoWith`. */
  reverse?: EditRequest | null;
  /** Told when the service confirms it (after the queue's own bookkeeping). */
  onDone?: () => void;
  /** Told when the service refuses it, with the error (the notice says it as well). */
  onRefused?: (error: unknown) => void;
}

/** An edit as its caller describes it (the queue adds the rest). */
export type EditRequest = Omit<EditOp, 'kind' | 'key' | 'batchKey' | 'layer' | 'reverse'>;

export type Op = ApplyOp | UndoOp | EditOp;

/** The apply route's body for a batch. */
export function bodyOf(op: ApplyOp): ApplyRevisionsBody {
  const accepted: string[] = [];
  const rejected: string[] = [];
  for (const [id, state] of op.layer) (state === 'in' ? accepted : rejected).push(id);
  return { accepted_change_ids: accepted, rejected_change_ids: rejected, ...(op.notes ? { notes: op.notes } : {}) };
}

/** A track with a layer's decisions written in (used when the service could not send the track). */
export function bake(track: Track, layer: Map<string, TrackState>): Track {
  const items = track.items.map((i) => {
    const state = layer.get(i.id);
    return state === undefined ? i : { ...i, state };
  });
  const counts = { open: 0, in: 0, back: 0, total: items.length };
  for (const i of items) counts[i.state]++;
  return { items, counts, hereId: items.find((i) => i.state === 'open')?.id ?? null };
}
