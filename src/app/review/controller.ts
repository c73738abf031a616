import type { ApplyRevisionsBody, ReviewResponse } from '../../contract/review';
import type { Track, TrackItem, TrackState } from '../../contract/track';
import { ApiError, describeError } from '../api/errors';

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

/** One track item as the reviewer sees it now: the server's state with pending decisions laid over it. */
export interface ShownItem {
  item: TrackItem;
  state: TrackState;
  /** Decided here but not yet confirmed by the service. */
  pending: boolean;
}

export interface ReviewSnapshot {
  data: ReviewResponse | null;
  items: readonly ShownItem[];
  shown: readonly ShownItem[];
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
}

export interface ReviewTransport {
  apply(body: ApplyRevisionsBody): Promise<ReviewResponse>;
  undo(): Promise<ReviewResponse>;
  /** The reconciled answer, for the query cache (so leaving and coming back shows it). */
  onServerData(data: ReviewResponse): void;
  /** Fetch the review again (after an answer with `track: null`). */
  refetch(): void;
}

/** How long after the last decision key the batch is sent (the brief: within 500 ms). */
export const BATCH_DELAY_MS = 300;

interface ApplyOp {
  kind: 'apply';
  key: number;
  layer: Map<string, TrackState>;
}
interface UndoOp {
  kind: 'undo';
  key: number;
  /** The apply this undo expects to reverse, when this tab knows it; its ids are shown open meanwhile. */
  target: ApplyOp | null;
  layer: Map<string, TrackState>;
}
type Op = ApplyOp | UndoOp;

const VERDICT_WORD: Record<Verdict, { done: string; verb: string }> = {
  in: { done: 'Accepted', verb: 'accept' },
  back: { done: 'Rejected', verb: 'reject' },
};

/**
 * The review session of one working draft: current change, selection, filters and the queue
 * of decisions. It lives outside React (a small store read with useSyncExternalStore, the way
 * Excalidraw keeps its action state) so that every key press acts on the latest state at once,
 * in order, however fast the keys come; React only paints snapshots.
 *
 * Decisions are optimistic. Each one goes into the open batch, shown at once; the batch is
 * sent BATCH_DELAY_MS after the last key. Requests go one at a time, in order, each with its
 * own layer of states laid over the last server answer. A refused request removes its layer
 * (the changes visibly return to open) and says why; nothing is dropped without a message.
 */
export class ReviewController {
  private data: ReviewResponse | null = null;
  /** The last track the service gave (kept when an answer carries `track: null`). */
  private track: Track | null = null;
  private openBatch = new Map<string, TrackState>();
  private ops: Op[] = [];
  private inFlight = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private nextKey = 1;
  /** The last apply this tab saw confirmed: what `u` undoes when nothing newer is pending. */
  private lastConfirmed: ApplyOp | null = null;
  private currentId: string | null = null;
  private selected = new Set<string>();
  private filters: Filters = NO_FILTERS;
  private notice: Notice | null = null;
  private trackStale = false;
  private focusSeq = 0;
  private snapshot: ReviewSnapshot;
  private listeners = new Set<() => void>();

  constructor(private readonly transport: ReviewTransport) {
    this.snapshot = this.computeSnapshot();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ReviewSnapshot => this.snapshot;

  /** Sends what is waiting at once: leaving the page must not lose the open batch. */
  flushOnLeave(): void {
    this.flush();
  }

  /** Server data from the query (first load, or a refetch). */
  load(data: ReviewResponse): void {
    if (data === this.data) return;
    this.data = data;
    if (data.track) {
      this.track = data.track;
      this.trackStale = false;
    }
    if (this.currentId === null || !this.track?.items.some((i) => i.id === this.currentId)) {
      this.currentId = this.track?.hereId ?? this.track?.items[0]?.id ?? null;
    }
    this.emit();
  }

  // ---- navigation -------------------------------------------------------------------------

  /** j / k: the next or previous change among those shown. */
  move(delta: 1 | -1): void {
    const shown = this.snapshot.shown;
    if (shown.length === 0) return;
    const index = shown.findIndex((s) => s.item.id === this.currentId);
    let next: number;
    if (index !== -1) next = index + delta;
    else {
      // The current change is filtered out: step from where it sits in the whole track.
      const after = this.firstShownAfterCurrent(shown);
      next = delta > 0 ? after : after - 1;
    }
    const target = shown[Math.min(shown.length - 1, Math.max(0, next))];
    if (target) this.setCurrent(target.item.id);
  }

  moveToEdge(edge: 'first' | 'last'): void {
    const shown = this.snapshot.shown;
    const target = edge === 'first' ? shown[0] : shown[shown.length - 1];
    if (target) this.setCurrent(target.item.id);
  }

  /** The next change of current moves the keyboard focus to it (keys do this; clicks on buttons do not). */
  requestFocus(): void {
    this.focusSeq++;
  }

  setCurrent(id: string): void {
    if (id === this.currentId) return;
    this.currentId = id;
    this.emit();
  }

  setFilters(filters: Partial<Filters>): void {
    this.filters = { ...this.filters, ...filters };
    this.emit();
    // Keep the current change if it is still shown; otherwise go to the first shown one.
    const shown = this.snapshot.shown;
    if (!shown.some((s) => s.item.id === this.currentId) && shown[0]) this.setCurrent(shown[0].item.id);
  }

  // ---- selection ----------------------------------------------------------------------------

  /** x: toggle the current change in the selection. */
  toggleSelected(id = this.currentId): void {
    if (!id) return;
    if (this.selected.has(id)) this.selected.delete(id);
    else this.selected.add(id);
    this.selected = new Set(this.selected);
    this.emit();
  }

  clearSelection(): void {
    if (this.selected.size === 0) return;
    this.selected = new Set();
    this.emit();
  }

  // ---- decisions ----------------------------------------------------------------------------

  /** a / r: decide the current change, then go to the next open change. */
  decideCurrent(verdict: Verdict): void {
    const current = this.snapshot.items.find((s) => s.item.id === this.currentId);
    if (!current) return;
    if (current.state !== 'open') {
      this.setNotice({
        tone: 'info',
        text: `${current.item.label} is already ${current.state === 'in' ? 'accepted' : 'rejected'}. Press u (or Undo) to reopen the last batch.`,
      });
      return;
    }
    this.openBatch.set(current.item.id, verdict);
    this.notice = null;
    this.afterDecision(current.item.id);
  }

  /** Shift+A / Shift+R: decide the selection, or every open change shown when nothing is selected. */
  decideMany(verdict: Verdict): void {
    const bySelection = this.selected.size > 0;
    const pool = bySelection ? this.snapshot.items.filter((s) => this.selected.has(s.item.id)) : this.snapshot.shown;
    const targets = pool.filter((s) => s.state === 'open');
    if (targets.length === 0) {
      this.setNotice({ tone: 'info', text: bySelection ? 'None of the selected changes is open.' : 'No open change is shown.' });
      return;
    }
    for (const t of targets) this.openBatch.set(t.item.id, verdict);
    const skipped = pool.length - targets.length;
    this.selected = new Set();
    this.notice = {
      tone: 'info',
      text: `${VERDICT_WORD[verdict].done} ${targets.length} change${targets.length === 1 ? '' : 's'}${
        skipped > 0 && bySelection ? ` (${skipped} already decided, left as they were)` : ''
      }.`,
    };
    this.afterDecision(this.currentId);
  }

  /**
   * u: undo the last batch. Decisions not sent yet are simply withdrawn; otherwise the service
   * undoes its last batch (revisions/undo), after whatever is still queued before it.
   */
  undo(): void {
    if (this.openBatch.size > 0) {
      const count = this.openBatch.size;
      this.openBatch = new Map();
      this.cancelTimer();
      this.setNotice({ tone: 'info', text: `Withdrew ${count} decision${count === 1 ? '' : 's'} before ${count === 1 ? 'it was' : 'they were'} sent.` });
      return;
    }
    const queuedApplies = this.ops.filter((o): o is ApplyOp => o.kind === 'apply');
    const queuedUndos = this.ops.filter((o) => o.kind === 'undo').length;
    // The batch this undo will reverse, when known: the newest apply still queued, or the last
    // one confirmed. After another undo in the queue we cannot tell, so show nothing early.
    const target = queuedUndos > 0 ? null : (queuedApplies[queuedApplies.length - 1] ?? this.lastConfirmed);
    const layer = new Map<string, TrackState>();
    if (target) for (const id of target.layer.keys()) layer.set(id, 'open');
    this.ops.push({ kind: 'undo', key: this.nextKey++, target, layer });
    if (target) this.lastConfirmed = null;
    this.notice = { tone: 'info', text: 'Undoing the last batch…' };
    this.emit();
    this.pump();
  }

  /** Sends the open batch now. */
  flush(): void {
    this.cancelTimer();
    if (this.openBatch.size === 0) return;
    this.ops.push({ kind: 'apply', key: this.nextKey++, layer: this.openBatch });
    this.openBatch = new Map();
    this.emit();
    this.pump();
  }

  dismissNotice(): void {
    this.setNotice(null);
  }

  /** A message from elsewhere on the page (a failed download, say), shown where decisions report. */
  say(notice: Notice): void {
    this.setNotice(notice);
  }

  // ---- internals ----------------------------------------------------------------------------

  private afterDecision(fromId: string | null): void {
    this.emit();
    const next = this.nextOpenAfter(fromId);
    if (next) this.currentId = next;
    else if (this.snapshot.counts.open === 0) this.notice ??= { tone: 'info', text: 'Every change is decided.' };
    this.emit();
    this.cancelTimer();
    this.timer = setTimeout(() => this.flush(), BATCH_DELAY_MS);
  }

  /** The next open change shown after `fromId`, wrapping round to the top. */
  private nextOpenAfter(fromId: string | null): string | null {
    const shown = this.snapshot.shown;
    const start = fromId ? shown.findIndex((s) => s.item.id === fromId) : -1;
    for (let step = 1; step <= shown.length; step++) {
      const candidate = shown[(start + step + shown.length) % shown.length];
      if (candidate && candidate.state === 'open') return candidate.item.id;
    }
    return null;
  }

  /** Index in `shown` of the first item after the current one in track order (length if none). */
  private firstShownAfterCurrent(shown: readonly ShownItem[]): number {
    const order = new Map(this.track?.items.map((item, i) => [item.id, i]));
    const here = order.get(this.currentId ?? '') ?? -1;
    const after = shown.findIndex((s) => (order.get(s.item.id) ?? -1) > here);
    return after === -1 ? shown.length : after;
  }

  private cancelTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Sends the queued requests one at a time, in order. */
  private pump(): void {
    if (this.inFlight) return;
    const op = this.ops[0];
    if (!op) return;
    this.inFlight = true;
    const request = op.kind === 'apply' ? this.transport.apply(bodyOf(op)) : this.transport.undo();
    request.then(
      (data) => this.settle(op, data, null),
      (error: unknown) => this.settle(op, null, error),
    );
  }

  private settle(op: Op, data: ReviewResponse | null, error: unknown): void {
    this.ops.shift();
    this.inFlight = false;
    if (data) this.reconcile(op, data);
    else this.refuse(op, error);
    this.emit();
    this.pump();
  }

  private reconcile(op: Op, data: ReviewResponse): void {
    this.data = data;
    if (op.kind === 'apply') this.lastConfirmed = op;
    if (data.track) {
      this.track = data.track;
      this.trackStale = false;
      if (op.kind === 'undo') {
        this.notice = { tone: 'info', text: 'Undid the last batch: its changes are open again.' };
        // Reopened changes are where the reviewer wants to be.
        const reopened = [...op.layer.keys()][0];
        if (reopened) this.currentId = reopened;
      }
    } else {
      // The document changed but the decision record could not be read back. Keep showing the
      // decisions as made (the service logged them) and fetch the record again.
      if (this.track) this.track = bake(this.track, op.layer);
      this.trackStale = true;
      this.notice = { tone: 'warn', text: 'Saved, but the decision record could not be read back just now. Refreshing it…' };
      this.transport.refetch();
    }
    this.transport.onServerData(data);
  }

  private refuse(op: Op, error: unknown): void {
    const labels = this.labelsOf([...op.layer.keys()]);
    const why = reasonOf(error);
    if (op.kind === 'undo') {
      if (op.target) this.lastConfirmed = op.target;
      this.notice = {
        tone: error instanceof ApiError && error.code === 'nothing_to_undo' ? 'info' : 'error',
        text: error instanceof ApiError && error.code === 'nothing_to_undo' ? `Nothing to undo: ${why}` : `Undo failed: ${why}`,
      };
      return;
    }
    const verdicts = new Set(op.layer.values());
    const verb = verdicts.size === 1 ? VERDICT_WORD[[...verdicts][0] as Verdict].verb : 'decide';
    this.notice = {
      tone: 'error',
      text: `Could not ${verb} ${labels}: ${why} ${op.layer.size === 1 ? 'It is' : 'They are'} shown as before again.`,
    };
    // A conflict means this tab's picture is out of date (another tab or person decided since):
    // fetch the truth so the list shows what the service holds.
    if (error instanceof ApiError && (error.status === 409 || error.status === 422)) this.transport.refetch();
    // An undo queued right behind this batch would now undo an older one: cancel it as well.
    const orphan = this.ops.findIndex((o) => o.kind === 'undo' && o.target === op);
    if (orphan !== -1) {
      this.ops.splice(orphan, 1);
      this.notice.text += ' The undo queued after it was cancelled too.';
    }
  }

  private labelsOf(ids: string[]): string {
    const byId = new Map(this.track?.items.map((i) => [i.id, i.label]));
    const labels = ids.map((id) => byId.get(id) ?? id);
    return labels.length > 6 ? `${labels.slice(0, 5).join(', ')} and ${labels.length - 5} more` : labels.join(', ');
  }

  private setNotice(notice: Notice | null): void {
    this.notice = notice;
    this.emit();
  }

  private emit(): void {
    this.snapshot = this.computeSnapshot();
    for (const listener of this.listeners) listener();
  }

  private computeSnapshot(): ReviewSnapshot {
    const layers = [...this.ops.map((o) => o.layer), this.openBatch];
    const previous = this.snapshot as ReviewSnapshot | undefined;
    const previousById = new Map(previous?.items.map((s) => [s.item.id, s]));
    const counts = { open: 0, in: 0, back: 0, total: 0 };
    const items: ShownItem[] = (this.track?.items ?? []).map((item) => {
      let state: TrackState = item.state;
      let pending = false;
      for (const layer of layers) {
        const s = layer.get(item.id);
        if (s !== undefined) {
          state = s;
          pending = true;
        }
      }
      counts[state]++;
      counts.total++;
      // Reuse the old object when nothing changed, so memoised list rows skip re-rendering.
      const old = previousById.get(item.id);
      return old && old.item === item && old.state === state && old.pending === pending ? old : { item, state, pending };
    });
    const { kind, author, state } = this.filters;
    const shown = items.filter(
      (s) =>
        (kind === 'all' || s.item.kind === kind) &&
        (author === 'all' || (s.item.author ?? '') === author) &&
        (state === 'all' || s.state === state),
    );
    return {
      data: this.data,
      items,
      shown,
      currentId: this.currentId,
      selected: this.selected,
      filters: this.filters,
      notice: this.notice,
      counts,
      pendingOps: this.ops.length + (this.openBatch.size > 0 ? 1 : 0),
      trackStale: this.trackStale,
      focusSeq: this.focusSeq,
    };
  }
}

function bodyOf(op: ApplyOp): ApplyRevisionsBody {
  const accepted: string[] = [];
  const rejected: string[] = [];
  for (const [id, state] of op.layer) (state === 'in' ? accepted : rejected).push(id);
  return { accepted_change_ids: accepted, rejected_change_ids: rejected };
}

/** A track with a layer's decisions written in (used when the service could not send the track). */
function bake(track: Track, layer: Map<string, TrackState>): Track {
  const items = track.items.map((i) => {
    const state = layer.get(i.id);
    return state === undefined ? i : { ...i, state };
  });
  const counts = { open: 0, in: 0, back: 0, total: items.length };
  for (const i of items) counts[i.state]++;
  return { items, counts, hereId: items.find((i) => i.state === 'open')?.id ?? null };
}

/** Why a request was refused, in words, naming the service's reason where it gave one. */
function reasonOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'the service could not be reached.';
    const detail = describeError(error);
    return /[.!?]$/.test(detail) ? detail : `${detail}.`;
  }
  return `${describeError(error)}.`;
}
