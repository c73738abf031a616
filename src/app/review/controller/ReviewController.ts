import type { DraftLogEvent, Viewer } from '../../../contract/events';
import type { Track, TrackItem, TrackState } from '../../../contract/track';
import { ApiError } from '../../api/errors';
import { membersOf } from '../entries';
import { applyLogEvent, describeLogEvent, type LiveStatus } from '../live';
import { newBatchKey, type QueuedBatch } from '../outbox';
import { bulkSummary, labelList, plural, reasonOf, refusalText, takenSummary, VERDICT_WORD } from './messages';
import { newlyTaken } from '../taken';
import { leaderOf, nextOpenAfter, stepFrom } from './navigation';
import { openingChange } from '../../../contract/track';
import { OpenBatch } from './open-batch';
import { bake, type ApplyOp, type EditOp, type EditRequest, type Op } from './ops';
import { RequestQueue } from './request-queue';
import { listView } from './snapshot';
import { NO_FILTERS, type Filters, type Notice, type RefusedDecision, type ReviewResponse, type ReviewSnapshot, type ReviewTransport, type Verdict } from './types';

/**
 * The review session of one working draft: current change, selection, filters and the queue
 * of decisions. It lives outside React (a small store read with useSyncExternalStore, the way
 * Excalidraw keeps its action state) so that every key press acts on the latest state at once,
 * in order, however fast the keys come; React only paints snapshots.
 *
 * Decisions are optimistic. Each one goes into the open batch (open-batch.ts), shown at once;
 * the batch is sent BATCH_DELAY_MS after the last key. Requests go one at a time, in order
 * (request-queue.ts), each with its own layer of states laid over the last server answer
 * (snapshot.ts). A refused request removes its layer (the changes visibly return to open) and
 * says why (messages.ts); nothing is dropped without a message. Where the keys go is
 * navigation.ts; what the live stream brings is laid on by live.ts.
 */
export class ReviewController {
  private data: ReviewResponse | null = null;
  /** The last track the service gave (kept when an answer carries `track: null`). */
  private track: Track | null = null;
  private readonly queue: RequestQueue;
  private readonly batch: OpenBatch;
  /** The last apply (or undoable edit) this tab saw confirmed: what `u` undoes when nothing newer is pending. */
  private lastConfirmed: ApplyOp | EditOp | null = null;
  private currentId: string | null = null;
  private selected = new Set<string>();
  private filters: Filters = NO_FILTERS;
  private notice: Notice | null = null;
  private trackStale = false;
  private focusSeq = 0;
  private refused: RefusedDecision[] = [];
  private viewers: readonly Viewer[] = [];
  private live: LiveStatus = 'connecting';
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
    this.queue = new RequestQueue(transport, {
      settled: (op, data, error) => this.settled(op, data, error),
      changed: () => this.emit(),
      idle: () => this.refetchIfIdle(),
    });
    this.batch = new OpenBatch(this.queue);
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
      // Where the service cuts the first window (render-window `at=here`) when the page opens.
      this.currentId = openingChange(this.track);
    }
    this.currentId = leaderOf(this.track, this.currentId);
    this.emit();
  }

  /** A change's own date: from the track while it is open, remembered once it is decided. */
  dateOf(item: TrackItem): string | null {
    return item.date ?? this.openDates.get(item.id) ?? null;
  }

  dismissNotice(): void {
    this.setNotice(null);
  }

  /** A message from elsewhere on the page (a failed download, say), shown where decisions report. */
  say(notice: Notice): void {
    this.setNotice(notice);
  }

  // ---- navigation -------------------------------------------------------------------------

  /** j / k: the next or previous change among those shown; at either end the keys stay put and say so. */
  move(delta: 1 | -1): void {
    const step = stepFrom(this.snapshot.shown, this.track, this.currentId, delta);
    if (!step) return;
    if ('edge' in step) this.setNotice({ tone: 'info', text: step.edge === 'first' ? 'This is the first change shown.' : 'This is the last change shown.' });
    else this.setCurrent(step.id);
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
    this.currentId = leaderOf(this.track, id);
    this.emit();
  }

  setCurrent(member: string): void {
    const id = leaderOf(this.track, member) ?? member;
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

  // ---- decisions and batching -----------------------------------------------------------------

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
    this.batch.decide(open.map((m) => m.item.id), verdict);
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
    this.batch.decide(targets.flatMap((t) => membersOf(t).filter((m) => m.state === 'open').map((m) => m.item.id)), verdict);
    this.selected = new Set();
    // The summary says what was skipped and why; any the service refuses are said when it answers.
    this.notice = { tone: 'info', text: bulkSummary(verdict, targets.length, pool.length - targets.length) };
    this.afterDecision(this.currentId);
  }

  /**
   * u: undo the last batch. Decisions not sent yet are simply withdrawn; otherwise the service
   * undoes its last batch (revisions/undo), after whatever is still queued before it.
   */
  undo(): void {
    const lastOp = this.queue.last;
    const lastEdit = this.batch.size > 0 ? null : lastOp ? (lastOp.kind === 'edit' ? lastOp : null) : this.lastConfirmed?.kind === 'edit' ? this.lastConfirmed : null;
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
    if (this.batch.size === 0 && lastOp?.kind === 'apply' && !lastOp.sent) {
      this.queue.drop(lastOp);
      const count = new Set([...lastOp.layer.keys()].map((id) => this.snapshot.entryById.get(id) ?? id)).size;
      this.setNotice({ tone: 'info', text: `Took back ${count === 1 ? 'your last decision' : `your last ${count} decisions`} before ${count === 1 ? 'it was' : 'they were'} sent.` });
      return;
    }
    if (this.batch.size > 0) {
      const count = this.batch.withdraw();
      this.setNotice({ tone: 'info', text: `Withdrew ${count} decision${count === 1 ? '' : 's'} before ${count === 1 ? 'it was' : 'they were'} sent.` });
      return;
    }
    const queuedApplies = this.queue.pending.filter((o): o is ApplyOp => o.kind === 'apply');
    const queuedUndos = this.queue.pending.filter((o) => o.kind === 'undo').length;
    // The batch this undo will reverse, when known: the newest apply still queued, or the last
    // one confirmed. After another undo in the queue we cannot tell, so show nothing early.
    const confirmed = this.lastConfirmed?.kind === 'apply' ? this.lastConfirmed : null;
    const target = queuedUndos > 0 ? null : (queuedApplies[queuedApplies.length - 1] ?? confirmed);
    const layer = new Map<string, TrackState>();
    if (target) for (const id of target.layer.keys()) layer.set(id, 'open');
    this.queue.push({ kind: 'undo', key: this.queue.nextKey(), batchKey: newBatchKey(), target, layer });
    if (target) this.lastConfirmed = null;
    this.notice = { tone: 'info', text: 'Undoing the last batch…' };
    this.emit();
    this.queue.pump();
  }

  /** Sends the open batch now. */
  flush(): void {
    const op = this.batch.take();
    if (!op) return;
    this.queue.push(op);
    this.emit();
    this.queue.pump();
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
      this.batch.note(id, text);
      this.decideCurrent(verdict);
      return;
    }
    if (this.batch.has(id)) {
      this.batch.note(id, text);
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
    return this.batch.noteOf(id);
  }

  /** Queues an edit (a counter-proposal, a withdrawal, a note) behind whatever is pending (the open batch is sent first). */
  enqueueEdit(edit: EditRequest): void {
    this.flush();
    this.queue.pushEdit({ ...edit, kind: 'edit', key: this.queue.nextKey(), batchKey: newBatchKey(), layer: new Map() });
    this.notice = { tone: 'info', text: `Working: ${edit.what}…` };
    this.emit();
    this.queue.pump();
  }

  /** After a decision: go on to the next open change (saying so when that wraps round), and send the batch after the delay. */
  private afterDecision(fromId: string | null): void {
    this.emit();
    const next = nextOpenAfter(this.snapshot.shown, fromId);
    if (next) {
      // Going back round to an earlier open change is said, never done silently.
      if (next.wrapped) this.notice ??= { tone: 'info', text: `No open change after this one: back to ${this.snapshot.entryById.get(next.id)?.item.label ?? this.labelsOf([next.id])}, the first still open.` };
      this.currentId = next.id;
    } else if (this.snapshot.counts.open === 0) this.notice ??= { tone: 'info', text: 'All changes decided.' };
    else this.notice ??= { tone: 'info', text: `All changes shown are decided; ${plural(this.snapshot.counts.open, 'change')} open under other filters.` };
    this.emit();
    this.batch.schedule(() => this.flush());
  }

  // ---- the outbox: answers and refusals -------------------------------------------------------

  /** Batches a previous page left queued on this device (IndexedDB): shown as decided and sent first. */
  restore(batches: readonly QueuedBatch[]): void {
    if (this.queue.restore(batches) === 0) return;
    this.emit();
    this.queue.pump();
  }

  /** The connection is back (the browser says so): send what waits now rather than at the next retry. */
  retryNow(): void {
    this.queue.retryNow();
  }

  private settled(op: Op, data: ReviewResponse | null, error: unknown): void {
    if (data) this.reconcile(op, data);
    else this.refuse(op, error);
    this.emit();
    // The caller hears of it once the snapshot shows the answer (its current change, say).
    if (data && op.kind === 'edit') op.onDone?.();
  }

  /**
   * The changes this decision took with it (decided by implication, issue 32), said in the
   * notice, so the progress never moves further than the lawyer decided without the list saying why.
   */
  private sayTaken(op: ApplyOp, after: Track): void {
    const taken = newlyTaken(this.track?.items ?? [], after.items, new Set(op.layer.keys()));
    if (taken.length === 0) return;
    const said = this.notice && this.notice.tone === 'info' ? `${this.notice.text} ` : '';
    this.notice = { tone: 'info', text: `${said}${takenSummary(taken)}` };
  }

  private reconcile(op: Op, data: ReviewResponse): void {
    this.data = data;
    if (op.kind === 'apply') this.lastConfirmed = op;
    if (op.kind === 'edit') {
      op.reverse = op.undoWith?.(data) ?? null;
      this.lastConfirmed = op.reverse ? op : null;
      this.notice = { tone: 'info', text: op.done };
      const focus = op.focus?.(data);
      if (focus) this.currentId = leaderOf(this.track, focus);
    }
    if (data.track) {
      if (op.kind === 'apply') this.sayTaken(op, data.track);
      this.track = data.track;
      this.trackStale = false;
      if (op.kind === 'undo') {
        this.notice = { tone: 'info', text: 'Undid the last batch: its changes are open again.' };
        // Reopened changes are where the reviewer wants to be.
        const reopened = [...op.layer.keys()][0];
        if (reopened) this.currentId = leaderOf(this.track, reopened);
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
    // A conflict means this tab's picture is out of date (another tab or person decided since):
    // fetch the truth so the list shows what the service holds.
    const conflict = error instanceof ApiError && (error.status === 409 || error.status === 422);
    const why = reasonOf(error);
    if (op.kind === 'edit') {
      this.notice = { tone: 'error', text: `Could not ${op.what}: ${why}` };
      op.onRefused?.(error);
      if (conflict) this.transport.refetch();
      return;
    }
    if (op.kind === 'undo') {
      if (op.target) this.lastConfirmed = op.target;
      const nothing = error instanceof ApiError && error.code === 'nothing_to_undo';
      this.notice = { tone: nothing ? 'info' : 'error', text: nothing ? `Nothing to undo: ${why}` : `Undo failed: ${why}` };
      return;
    }
    if (this.refusePart(op, error)) return;
    const verdicts = new Set(op.layer.values());
    const verb = verdicts.size === 1 ? VERDICT_WORD[[...verdicts][0] as Verdict].verb : 'decide';
    this.notice = {
      tone: 'error',
      text: `Could not ${verb} ${this.labelsOf([...op.layer.keys()])}: ${why} ${op.layer.size === 1 ? 'It is' : 'They are'} shown as before again.`,
    };
    if (conflict) this.transport.refetch();
    // An undo queued right behind this batch would now undo an older one: cancel it as well.
    const orphan = this.queue.pending.find((o) => o.kind === 'undo' && o.target === op);
    if (orphan) {
      this.queue.drop(orphan);
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
      const again: ApplyOp = { kind: 'apply', key: this.queue.nextKey(), batchKey: newBatchKey(), layer: rest };
      this.queue.push(again);
      // First in line again: the rest of this batch goes before anything decided after it.
      this.queue.moveToFront(again);
    }
    this.transport.refetch();
    return true;
  }

  // ---- live: the others' decisions and presence ---------------------------------------------

  /** One decision-log entry from the live stream: laid onto the track at once, and said in words. */
  receive(event: DraftLogEvent): void {
    if (event.batchKey !== null && this.queue.ownKeys.has(event.batchKey)) return;
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

  private refetchIfIdle(): void {
    if (!this.refetchWhenIdle || this.queue.pending.length > 0 || this.batch.size > 0) return;
    this.refetchWhenIdle = false;
    this.transport.refetch();
  }

  // ---- the snapshot ------------------------------------------------------------------------

  private labelsOf(ids: string[]): string {
    const byId = new Map(this.track?.items.map((i) => [i.id, i.label]));
    return labelList(ids.map((id) => byId.get(id) ?? id));
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
    for (const item of this.track?.items ?? []) if (item.date) this.openDates.set(item.id, item.date);
    const ops = this.queue.pending;
    const view = listView(this.track, [...ops.map((o) => o.layer), this.batch.layer], this.filters, this.snapshot as ReviewSnapshot | undefined);
    return {
      ...view,
      data: this.data,
      currentId: this.currentId,
      selected: this.selected,
      filters: this.filters,
      notice: this.notice,
      pendingOps: ops.length + (this.batch.size > 0 ? 1 : 0),
      trackStale: this.trackStale,
      focusSeq: this.focusSeq,
      offline: this.queue.offline,
      // Counted as the list shows them: an edit of several changes waits as one decision.
      waiting: ops.reduce((n, o) => n + (o.kind === 'apply' ? new Set([...o.layer.keys()].map((id) => view.entryById.get(id) ?? id)).size : 1), 0),
      refused: this.refused,
      viewers: this.viewers,
      live: this.live,
    };
  }
}
