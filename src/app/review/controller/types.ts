import type { Viewer } from '../../../contract/events';
// The controller reads only what the minimal answer of a change carries (no content): the page fetches that when it renders.
import type { ApplyRevisionsBody, ReviewMinimalResponse as ReviewResponse } from '../../../contract/review';
import type { TrackState } from '../../../contract/track';
import type { ShownItem } from '../entries';
import type { LiveStatus } from '../live';
import type { BatchStore } from '../outbox';

/** The shapes the review page reads and hands the controller: its whole public vocabulary. */

/** What the keys and buttons decide: accept (`in`) or reject (`back`). */
export type Verdict = Extract<TrackState, 'in' | 'back'>;

export interface Filters {
  kind: string;
  author: string;
  state: TrackState | 'all';
}

export const NO_FILTERS: Filters = { kind: 'all', author: 'all', state: 'all' };

export interface Notice {
  tone: 'info' | 'warn' | 'error';
  text: string;
}

export type { ReviewResponse, ShownItem };

export interface ReviewSnapshot {
  data: ReviewResponse | null;
  /** Every change of the track, one per change id. */
  items: readonly ShownItem[];
  /** The list's entries the filters let through: one per edit group (entries.ts). */
  shown: readonly ShownItem[];
  /** The entry each change id belongs to (the current change is always an entry's first member). */
  entryById: ReadonlyMap<string, ShownItem>;
  currentId: string | null;
  selected: ReadonlySet<string>;
  filters: Filters;
  notice: Notice | null;
  counts: { open: number; in: number; back: number; total: number };
  /** Requests waiting or in flight; the UI says "Saving…" while non-zero. */
  pendingOps: number;
  /** The decision record could not be read with the last answer; a refetch is under way. */
  trackStale: boolean;
  /** Bumped when a key asks for the focus to follow the current change into the list. */
  focusSeq: number;
  /** The service cannot be reached: queued batches wait and are sent again with backoff. */
  offline: boolean;
  /** Decisions (and undos) queued on this device, not yet answered by the service. */
  waiting: number;
  /** Queued decisions the service refused when they arrived (someone else decided first), newest last. */
  refused: readonly RefusedDecision[];
  /** Who else has the draft open (other users; the live stream says). */
  viewers: readonly Viewer[];
  live: LiveStatus;
}

/** A decision made here that the service refused on arrival: shown with who decided the change and how. */
export interface RefusedDecision {
  id: string;
  label: string;
  mine: Verdict;
  /** What the change is now: decided by someone else, or gone from the draft (withdrawn). */
  theirs: Verdict | 'gone';
  by: string | null;
  at: string | null;
}

export interface ReviewTransport {
  /** `key`: the batch's Idempotency-Key (the same on every send of one batch). */
  apply(body: ApplyRevisionsBody, key: string): Promise<ReviewResponse>;
  undo(key: string): Promise<ReviewResponse>;
  /** Where queued batches are kept across reloads (IndexedDB); none: memory only. */
  outbox?: BatchStore;
  /** The signed-in user's id (their own changes from another window are named "You"). */
  me?: string | null;
  /** The reconciled answer, for the query cache (so leaving and coming back shows it). */
  onServerData(data: ReviewResponse): void;
  /** Fetch the review again (after an answer with `track: null`). */
  refetch(): void;
}
