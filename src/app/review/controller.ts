import type { DraftLogEvent, Viewer } from '../../contract/events';
// The controller reads only what the minimal answer of a change carries (no content): the page fetches that when it renders.
import type { ApplyRevisionsBody, ReviewMinimalResponse as ReviewResponse } from '../../contract/review';
import type { Track, TrackItem, TrackState } from '../../contract/track';
import { ApiError, describeError } from '../api/errors';
import { formatDateTime } from '../components/format';
import { applyLogEvent, describeLogEvent, type LiveStatus } from './live';
import { entriesOf, membersOf, type ShownItem } from './entries';
import { isUnreachable, newBatchKey, retryDelayMs, type BatchStore, type QueuedBatch } from './outbox';

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

export type { ShownItem } from './entries';

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

/** How long after the last decision key the batch is sent (the brief: within 500 ms). */
export const BATCH_DELAY_MS = 300;

interface ApplyOp {
  kind: 'apply';
  key: number;
  batchKey: string;
  /** Sent at least once: the service may hold it, so only its own undo takes it back. */
  sent?: boolean;
  layer: Map<string, TrackState>;
  /** Notes sent with this batch's decisions. */
  notes?: Record<string, string>;
}
interface UndoOp {
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
type Op = ApplyOp | UndoOp | EditOp;

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
  /**
   * The open batch's Idempotency-Key, chosen at its first decision: the batch is kept in the
   * outbox under it at every decision, so a reload inside the batching delay loses nothing,
   * and it is sent under the same key.
   */
  private openBatchKey: string | null = null;
  private ops: Op[] = [];
  private inFlight = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private nextKey = 1;
  /** The last apply (or undoable edit) this tab saw confirmed: what `u` undoes when nothing newer is pending. */
  private lastConfirmed: ApplyOp | EditOp | null = null;
  /** Notes for decisions still in the open batch: they go with it (the apply body's `notes`). */
  private batchNotes = new Map<string, string>();
  private currentId: string | null = null;
  private selected = new Set<string>();
  private filters: Filters = NO_FILTERS;
  private notice: Notice | null = null;
  private trackStale = false;
  private focusSeq = 0;
  private offline = false;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private refused: RefusedDecision[] = [];
  private viewers: readonly Viewer[] = [];
  private live: LiveStatus = 'connecting';
  /** Idempotency-Keys of the batches this tab sent: their log entries come back on the stream and change nothing. */
  private readonly ownKeys = new Set<string>();
  /** A change arrived that the track cannot show by itself (new or withdrawn changes, an undo): fetch the review when idle. */
  private refetchWhenIdle = false;
  /**
   * The dates of changes seen open: the interface gives a change's date on open entries only,
   * and a decided change's panel still says when it was written.
   */
  private readonly openDates = new Map<string, string>();
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
    this.currentId = this.leaderOf(this.currentId);
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
    // At either end the keys stay put and say so (a polite live region reads it out).
    if (next < 0 || next >= shown.length) {
      this.setNotice({ tone: 'info', text: next < 0 ? 'This is the first change shown.' : 'This is the last change shown.' });
      return;
    }
    const target = shown[next];
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

  /** A click or tap on a change in the draft: it becomes current and the focus goes to it, as after a key. */
  pick(id: string): void {
    if (!this.track?.items.some((i) => i.id === id)) return;
    this.focusSeq++;
    this.currentId = this.leaderOf(id);
    this.emit();
  }

  setCurrent(member: string): void {
    const id = this.leaderOf(member) ?? member;
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
    const current = this.snapshot.entryById.get(this.currentId ?? '');
    if (!current) return;
    const open = membersOf(current).filter((m) => m.state === 'open');
    if (open.length === 0) {
      this.setNotice({
        tone: 'info',
        text: `${current.item.label} is already ${current.state === 'in' ? 'accepted' : 'rejected'}. Press u (or Undo) to reopen the last batch.`,
      });
      return;
    }
    // An edit is decided whole: a replacement's deletion with its insertion, a paragraph with its mark.
    for (const m of open) this.openBatch.set(m.item.id, verdict);
    this.notice = null;
    this.afterDecision(current.item.id);
  }

  /** Shift+A / Shift+R: decide the selection, or every open change shown when nothing is selected. */
  decideMany(verdict: Verdict): void {
    const bySelection = this.selected.size > 0;
    const pool = bySelection ? [...new Set(this.snapshot.entryById.values())].filter((s) => this.selected.has(s.item.id)) : this.snapshot.shown;
    const targets = pool.filter((s) => s.state === 'open');
    if (targets.length === 0) {
      this.setNotice({ tone: 'info', text: bySelection ? 'None of the selected changes is open.' : 'No open change is shown.' });
      return;
    }
    for (const t of targets) for (const m of membersOf(t)) if (m.state === 'open') this.openBatch.set(m.item.id, verdict);
    const skipped = pool.length - targets.length;
    this.selected = new Set();
    // The summary says what was skipped and why; any the service refuses are said when it answers.
    this.notice = {
      tone: 'info',
      text: `${VERDICT_WORD[verdict].done} ${plural(targets.length, 'change')}.${skipped > 0 ? ` Skipped ${skipped}: already decided, left as ${skipped === 1 ? 'it was' : 'they were'}.` : ''}`,
    };
    this.afterDecision(this.currentId);
  }

  /**
   * u: undo the last batch. Decisions not sent yet are simply withdrawn; otherwise the service
   * undoes its last batch (revisions/undo), after whatever is still queued before it.
   */
  undo(): void {
    const lastOp = this.ops[this.ops.length - 1];
    const lastEdit = this.openBatch.size > 0 ? null : lastOp ? (lastOp.kind === 'edit' ? lastOp : null) : this.lastConfirmed?.kind === 'edit' ? this.lastConfirmed : null;
    if (lastEdit) {
      if (lastEdit === lastOp) {
        this.setNotice({ tone: 'info', text: `Wait a moment: the service is still working on it (${lastEdit.what}).` });
        return;
      }
      this.lastConfirmed = null;
      if (lastEdit.reverse) this.enqueueEdit(lastEdit.reverse);
      return;
    }
    // A batch queued on this device and never sent (the service was out of reach) is taken
    // back here, one batch (one key press) at a time, without asking the service anything.
    if (this.openBatch.size === 0 && lastOp?.kind === 'apply' && !lastOp.sent) {
      this.ops.pop();
      this.transport.outbox?.remove(lastOp.batchKey).catch(() => {});
      const count = new Set([...lastOp.layer.keys()].map((id) => this.snapshot.entryById.get(id) ?? id)).size;
      this.setNotice({ tone: 'info', text: `Took back ${count === 1 ? 'your last decision' : `your last ${count} decisions`} before ${count === 1 ? 'it was' : 'they were'} sent.` });
      return;
    }
    if (this.openBatch.size > 0) {
      const count = this.openBatch.size;
      this.openBatch = new Map();
      this.batchNotes = new Map();
      this.cancelTimer();
      this.keepOpenBatch();
      this.setNotice({ tone: 'info', text: `Withdrew ${count} decision${count === 1 ? '' : 's'} before ${count === 1 ? 'it was' : 'they were'} sent.` });
      return;
    }
    const queuedApplies = this.ops.filter((o): o is ApplyOp => o.kind === 'apply');
    const queuedUndos = this.ops.filter((o) => o.kind === 'undo').length;
    // The batch this undo will reverse, when known: the newest apply still queued, or the last
    // one confirmed. After another undo in the queue we cannot tell, so show nothing early.
    const confirmed = this.lastConfirmed?.kind === 'apply' ? this.lastConfirmed : null;
    const target = queuedUndos > 0 ? null : (queuedApplies[queuedApplies.length - 1] ?? confirmed);
    const layer = new Map<string, TrackState>();
    if (target) for (const id of target.layer.keys()) layer.set(id, 'open');
    this.enqueue({ kind: 'undo', key: this.nextKey++, batchKey: newBatchKey(), target, layer });
    if (target) this.lastConfirmed = null;
    this.notice = { tone: 'info', text: 'Undoing the last batch…' };
    this.emit();
    this.pump();
  }

  /** Sends the open batch now. */
  flush(): void {
    this.cancelTimer();
    if (this.openBatch.size === 0) return;
    const batchKey = this.openBatchKey ?? newBatchKey();
    this.openBatchKey = null;
    this.enqueue({ kind: 'apply', key: this.nextKey++, batchKey, layer: this.openBatch, ...(this.batchNotes.size > 0 ? { notes: Object.fromEntries(this.batchNotes) } : {}) });
    this.openBatch = new Map();
    this.batchNotes = new Map();
    this.emit();
    this.pump();
  }

  // ---- the answer: counter-proposals, withdrawals, notes (issue 14) ------------------------

  /** Queues an edit behind whatever is pending (the open batch is sent first). */
  enqueueEdit(edit: EditRequest): void {
    this.flush();
    const batchKey = newBatchKey();
    this.ownKeys.add(batchKey);
    this.ops.push({ ...edit, kind: 'edit', key: this.nextKey++, batchKey, layer: new Map() });
    this.notice = { tone: 'info', text: `Working: ${edit.what}…` };
    this.emit();
    this.pump();
  }

  // ---- the network: queued batches, retries, live entries -----------------------------------

  /** Batches a previous page left queued on this device (IndexedDB): shown as decided and sent first. */
  restore(batches: readonly QueuedBatch[]): void {
    const known = new Set(this.ops.map((o) => o.batchKey));
    const restored: Op[] = batches.filter((b) => !known.has(b.key)).map((b) => {
      this.ownKeys.add(b.key);
      return b.kind === 'apply'
        ? { kind: 'apply', key: this.nextKey++, batchKey: b.key, layer: new Map(b.decisions), ...(b.notes ? { notes: b.notes } : {}) }
        : { kind: 'undo', key: this.nextKey++, batchKey: b.key, target: null, layer: new Map() };
    });
    if (restored.length === 0) return;
    this.ops = [...restored, ...this.ops];
    this.emit();
    this.pump();
  }

  /**
   * n: a note on the current change's decision. A decision still in the open batch takes it
   * along; one already sent gets it through `sendNote` (the note route); an open change is
   * decided with it (`verdict`). Empty text removes a note.
   */
  noteCurrent(text: string, sendNote: (changeId: string, note: string) => Promise<ReviewResponse>, verdict?: Verdict): void {
    const current = this.snapshot.entryById.get(this.currentId ?? '');
    if (!current) return;
    const id = current.item.id;
    if (current.state === 'open' && verdict) {
      if (text.trim()) this.batchNotes.set(id, text);
      this.decideCurrent(verdict);
      return;
    }
    if (this.openBatch.has(id)) {
      if (text.trim()) this.batchNotes.set(id, text);
      else this.batchNotes.delete(id);
      this.keepOpenBatch();
      this.setNotice({ tone: 'info', text: `The note goes with the decision on ${current.item.label}.` });
      return;
    }
    if (current.state === 'open') {
      this.setNotice({ tone: 'info', text: `${current.item.label} is open: accept or reject it with the note.` });
      return;
    }
    this.enqueueEdit({
      send: () => sendNote(id, text),
      what: `note the decision on ${current.item.label}`,
      done: text.trim() ? `Noted the decision on ${current.item.label}.` : `Removed the note on ${current.item.label}.`,
    });
  }

  /** The note waiting to go with a decision in the open batch, if any. */
  pendingNote(id: string): string | undefined {
    return this.batchNotes.get(id);
  }

  /** The connection is back (the browser says so): send what waits now rather than at the next retry. */
  retryNow(): void {
    if (this.retryTimer === null) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.pump();
  }

  /** One decision-log entry from the live stream: laid onto the track at once, and said in words. */
  receive(event: DraftLogEvent): void {
    if (event.batchKey !== null && this.ownKeys.has(event.batchKey)) return;
    if (this.track) {
      const next = applyLogEvent(this.track, event);
      if (next) this.track = next;
    }
    this.notice = { tone: 'info', text: describeLogEvent(event, (id) => this.labelsOf([id]), this.transport.me ?? null) };
    if (event.kind !== 'decide' || event.withdrawn.length > 0) this.refetchWhenIdle = true;
    this.emit();
    this.refetchIfIdle();
  }

  setViewers(viewers: readonly Viewer[]): void {
    const me = this.transport.me ?? null;
    this.viewers = viewers.filter((v) => v.userId !== me);
    this.emit();
  }

  setLiveStatus(status: LiveStatus): void {
    if (status === this.live) return;
    this.live = status;
    this.emit();
  }

  private enqueue(op: ApplyOp | UndoOp): void {
    this.ownKeys.add(op.batchKey);
    this.ops.push(op);
    this.keep({
      key: op.batchKey, kind: op.kind, decisions: op.kind === 'apply' ? [...op.layer] : [], createdAt: Date.now() + op.key / 1000,
      ...(op.kind === 'apply' && op.notes ? { notes: op.notes } : {}),
    });
  }

  /** Writes a batch to the outbox; where storage refuses, it is not kept across a reload but is still sent from memory. */
  private keep(batch: QueuedBatch): void {
    this.transport.outbox?.save(batch).catch(() => {});
  }

  /**
   * Writes the open batch to the outbox as it stands (or removes it once withdrawn). It is
   * queued after everything already queued, so a page restoring it sends it last, as this one would.
   */
  private keepOpenBatch(): void {
    if (this.openBatch.size === 0) {
      if (this.openBatchKey !== null) this.transport.outbox?.remove(this.openBatchKey).catch(() => {});
      this.openBatchKey = null;
      return;
    }
    this.openBatchKey ??= newBatchKey();
    this.ownKeys.add(this.openBatchKey);
    this.keep({
      key: this.openBatchKey, kind: 'apply', decisions: [...this.openBatch], createdAt: Date.now() + this.nextKey / 1000,
      ...(this.batchNotes.size > 0 ? { notes: Object.fromEntries(this.batchNotes) } : {}),
    });
  }

  private refetchIfIdle(): void {
    if (!this.refetchWhenIdle || this.ops.length > 0 || this.openBatch.size > 0) return;
    this.refetchWhenIdle = false;
    this.transport.refetch();
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
    this.keepOpenBatch();
    this.emit();
    const next = this.nextOpenAfter(fromId);
    if (next) {
      // Going back round to an earlier open change is said, never done silently.
      const shown = this.snapshot.shown;
      const order = (id: string | null) => shown.findIndex((s) => s.item.id === id);
      if (fromId && order(next) < order(fromId)) this.notice ??= { tone: 'info', text: `No open change after this one: back to ${this.snapshot.entryById.get(next)?.item.label ?? this.labelsOf([next])}, the first still open.` };
      this.currentId = next;
    } else if (this.snapshot.counts.open === 0) this.notice ??= { tone: 'info', text: 'All changes decided.' };
    else this.notice ??= { tone: 'info', text: `All changes shown are decided; ${plural(this.snapshot.counts.open, 'change')} open under other filters.` };
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
    if (this.inFlight || this.retryTimer !== null) return;
    const op = this.ops[0];
    if (!op) {
      this.refetchIfIdle();
      return;
    }
    this.inFlight = true;
    if (op.kind === 'apply') op.sent = true;
    const request = op.kind === 'apply' ? this.transport.apply(bodyOf(op), op.batchKey) : op.kind === 'edit' ? op.send(op.batchKey) : this.transport.undo(op.batchKey);
    request.then(
      (data) => this.settle(op, data, null),
      (error: unknown) => this.settle(op, null, error),
    );
  }

  private settle(op: Op, data: ReviewResponse | null, error: unknown): void {
    this.inFlight = false;
    if (!data && isUnreachable(error)) {
      // Not an answer: the batch stays first in line, shown as decided, and goes again later
      // with the same key (if it did reach the service, the service answers its result once).
      this.offline = true;
      this.attempts++;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.pump();
      }, retryDelayMs(this.attempts, error instanceof ApiError ? error.retryAfterSeconds : null));
      this.emit();
      return;
    }
    this.offline = false;
    this.attempts = 0;
    this.ops.shift();
    this.transport.outbox?.remove(op.batchKey).catch(() => {});
    if (data) this.reconcile(op, data);
    else this.refuse(op, error);
    this.emit();
    // The caller hears of it once the snapshot shows the answer (its current change, say).
    if (data && op.kind === 'edit') op.onDone?.();
    this.pump();
  }

  private reconcile(op: Op, data: ReviewResponse): void {
    this.data = data;
    if (op.kind === 'apply') this.lastConfirmed = op;
    if (op.kind === 'edit') {
      op.reverse = op.undoWith?.(data) ?? null;
      this.lastConfirmed = op.reverse ? op : null;
      this.notice = { tone: 'info', text: op.done };
      const focus = op.focus?.(data);
      if (focus) this.currentId = this.leaderOf(focus);
    }
    if (data.track) {
      this.track = data.track;
      this.trackStale = false;
      if (op.kind === 'undo') {
        this.notice = { tone: 'info', text: 'Undid the last batch: its changes are open again.' };
        // Reopened changes are where the reviewer wants to be.
        const reopened = [...op.layer.keys()][0];
        if (reopened) this.currentId = this.leaderOf(reopened);
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
    if (op.kind === 'edit') {
      this.notice = { tone: 'error', text: `Could not ${op.what}: ${why}` };
      op.onRefused?.(error);
      if (error instanceof ApiError && (error.status === 409 || error.status === 422)) this.transport.refetch();
      return;
    }
    if (op.kind === 'undo') {
      if (op.target) this.lastConfirmed = op.target;
      this.notice = {
        tone: error instanceof ApiError && error.code === 'nothing_to_undo' ? 'info' : 'error',
        text: error instanceof ApiError && error.code === 'nothing_to_undo' ? `Nothing to undo: ${why}` : `Undo failed: ${why}`,
      };
      return;
    }
    if (this.refusePart(op, error)) return;
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

  /**
   * A batch refused because some of its changes were decided by someone else meanwhile (409) or
   * left the draft (422): those are shown as refused, with who decided them and how, and the rest
   * of the batch is sent again as a new batch. Answers false when the refusal is of another kind.
   */
  private refusePart(op: ApplyOp, error: unknown): boolean {
    if (!(error instanceof ApiError) || !error.problem?.ids?.length) return false;
    if (error.code !== 'already_decided' && error.code !== 'unknown_change_ids') return false;
    const refusedIds = new Set(error.problem.ids.filter((id) => op.layer.has(id)));
    if (refusedIds.size === 0) return false;
    const how = new Map((error.problem.decisions ?? []).map((d) => [d.id, d]));
    const refused: RefusedDecision[] = [...refusedIds].map((id) => {
      const d = how.get(id);
      return { id, label: this.labelsOf([id]), mine: op.layer.get(id) as Verdict, theirs: d ? d.state : 'gone', by: d?.decidedByName ?? null, at: d?.decidedAt ?? null };
    });
    this.refused = [...this.refused, ...refused].slice(-20);
    const decided = op.layer.size - refused.length;
    const summary = op.layer.size > 1 ? `${decided} of ${op.layer.size} decided; ${refused.length} refused. ` : '';
    this.notice = { tone: 'error', text: summary + refused.map(refusalText).join(' ') };
    const rest = new Map([...op.layer].filter(([id]) => !refusedIds.has(id)));
    if (rest.size > 0) {
      const again: ApplyOp = { kind: 'apply', key: this.nextKey++, batchKey: newBatchKey(), layer: rest };
      this.enqueue(again);
      // First in line again: the rest of this batch goes before anything decided after it.
      this.ops = [again, ...this.ops.filter((o) => o !== again)];
    }
    this.transport.refetch();
    return true;
  }

  /** The first member of the edit a change belongs to: the entry the list shows for it. */
  private leaderOf(id: string | null): string | null {
    if (id === null) return null;
    const group = this.track?.items.find((i) => i.id === id)?.group;
    return group && this.track?.items.some((i) => i.id === group) ? group : id;
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

  /** A change's own date: from the track while it is open, remembered once it is decided. */
  dateOf(item: TrackItem): string | null {
    return item.date ?? this.openDates.get(item.id) ?? null;
  }

  private computeSnapshot(): ReviewSnapshot {
    for (const item of this.track?.items ?? []) if (item.date) this.openDates.set(item.id, item.date);
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
      // Reuse the old object when nothing changed, so memoised list rows skip re-rendering.
      const old = previousById.get(item.id);
      return old && old.item === item && old.state === state && old.pending === pending ? old : { item, state, pending };
    });
    const { kind, author, state } = this.filters;
    const entries = entriesOf(items, new Map(previous?.shown.map((s) => [s.item.id, s])));
    const entryById = new Map<string, ShownItem>();
    for (const entry of entries) for (const m of membersOf(entry)) entryById.set(m.item.id, entry);
    // Progress counts what the reviewer decides: edits, as the list shows them.
    for (const entry of entries) {
      counts[entry.state]++;
      counts.total++;
    }
    // Document-wide changes (styles, numbering) are listed, and walked, first. An edit is shown
    // when any of its changes is of the kind and author asked for.
    const shown = [...entries.filter((s) => s.item.documentWide), ...entries.filter((s) => !s.item.documentWide)].filter(
      (s) =>
        membersOf(s).some((m) => (kind === 'all' || m.item.kind === kind) && (author === 'all' || (m.item.author ?? '') === author)) &&
        (state === 'all' || s.state === state),
    );
    return {
      data: this.data,
      items,
      shown,
      entryById,
      currentId: this.currentId,
      selected: this.selected,
      filters: this.filters,
      notice: this.notice,
      counts,
      pendingOps: this.ops.length + (this.openBatch.size > 0 ? 1 : 0),
      trackStale: this.trackStale,
      focusSeq: this.focusSeq,
      offline: this.offline,
      // Counted as the list shows them: an edit of several changes waits as one decision.
      waiting: this.ops.reduce((n, o) => n + (o.kind === 'apply' ? new Set([...o.layer.keys()].map((id) => entryById.get(id) ?? id)).size : 1), 0),
      refused: this.refused,
      viewers: this.viewers,
      live: this.live,
    };
  }
}

function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-GB')} ${noun}${n === 1 ? '' : 's'}`;
}

function bodyOf(op: ApplyOp): ApplyRevisionsBody {
  const accepted: string[] = [];
  const rejected: string[] = [];
  for (const [id, state] of op.layer) (state === 'in' ? accepted : rejected).push(id);
  return { accepted_change_ids: accepted, rejected_change_ids: rejected, ...(op.notes ? { notes: op.notes } : {}) };
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

/** "Could not reject Change 8: Priya had already accepted it (24 Nov, 10:02). Your decision was not applied." */
function refusalText(r: RefusedDecision): string {
  const verb = VERDICT_WORD[r.mine].verb;
  if (r.theirs === 'gone') return `Could not ${verb} ${r.label}: it is no longer in the draft (withdrawn or decided away). Your decision was not applied.`;
  const theirs = r.theirs === 'in' ? 'accepted' : 'rejected';
  return `Could not ${verb} ${r.label}: ${r.by ?? 'someone else'} had already ${theirs} it${r.at ? ` (${formatDateTime(r.at)})` : ''}. Your decision was not applied.`;
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
