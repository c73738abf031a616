import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent, type MouseEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ROUTES } from '../../contract/routes';
import { openingChange, type TrackState } from '../../contract/track';
import { ApiError, describeError, downloadBlob } from '../api/client';
import { queryKeys, useReview } from '../api/hooks';
import { draftChanges, useRenderContent, type ReviewData } from '../api/review';
import { fetchRenderWindow } from '../api/render-window';
import { sessionStore } from '../auth/session';
import { formatDateTime } from '../components/format';
import { saveBlob } from '../components/saveBlob';
import { KeyHelpDialog } from '../keyboard/KeyHelpDialog';
import { actionOfKey, isTypingTarget, setShortcutsEnabled, shortcutFor, useShortcutsEnabled, type ReviewAction } from '../keyboard/shortcuts';
import { ReviewController, type ReviewSnapshot, type ShownItem, type Verdict } from './controller';
import { DecisionLine } from './DecisionLine';
import { DecideAllDialog, type DecideAllRequest } from './DecideAllDialog';
import { DocumentView, type MarkupView } from './DocumentView';
import { loadDocxPreview } from './layout/render';
import type { DecidedChange } from './decided-view';
import { membersOf } from './entries';
import { citedPage, kindLabel, placeLabel, placeTitle, STATE_CLASS, STATE_LABEL, type PageCitation } from './labels';
import { takenWithText, takesLine } from './taken';
import { optionDomId, TrackList } from './TrackList';
import { focusOption } from './answer/initial-focus';
import { ChecksList, type ChecksHandle } from './checks/ChecksList';
import { Consequences } from './checks/Consequences';
import { bookmarkIndex, changeAtPoint, hasTextSelection, hoverText } from './document-pointer';
import { CurrentAnswer, ReportDownloads, useAnswer } from './answer/useAnswer';
import { CommentsPanel, type CommentsHandle } from '../comments/CommentsPanel';
import { CleanCopyDownload } from '../comments/DraftDownloads';
import { RefusedDecisions, SavingStatus, Viewers } from './NetworkStatus';
import { NoticeToast } from './NoticeToast';
import { draftOutbox } from './outbox';
import { useReviewNetwork } from './useReviewNetwork';
import { ReviewComparisonBanner } from '../compare/ReviewComparisonBanner';
import { isMove, jumpToOtherHalf, MovePlaces } from '../compare/MovePlaces';
import { usePrintRedline } from './print/usePrintRedline';
import { SideBySide } from './side-by-side/SideBySide';
import { useCollapsingHeader } from './header/collapsing-header';
import { SideBySideToggle, useSideBySideState } from './side-by-side/toggle';

/** Actions that open a composer or a dialog: the focus goes there, not to the current change's entry. */
const OPENS_EDITOR: ReadonlySet<ReviewAction> = new Set(['comment', 'propose', 'note', 'help']);

/** /documents/:id — one working draft under review. Keyed by id so each draft gets its own session. */
export function ReviewPage() {
  const { id = '' } = useParams();
  return <Review key={id} documentId={id} />;
}

function Review({ documentId }: { documentId: string }) {
  const review = useReview(documentId);
  // The renderer's code is fetched beside the review read, not after it.
  useEffect(() => void loadDocxPreview().catch(() => undefined), []);
  const queryClient = useQueryClient();
  const [outbox] = useState(() => {
    const session = sessionStore.get();
    return draftOutbox({ orgId: session?.orgId ?? '', userId: session?.user.id ?? '', documentId });
  });
  const [controller] = useState(
    () =>
      new ReviewController({
        apply: draftChanges(documentId).apply,
        undo: draftChanges(documentId).undo,
        outbox,
        me: sessionStore.get()?.user.id ?? null,
        onServerData: (data) => queryClient.setQueryData(queryKeys.review(sessionStore.get()?.orgId ?? '', documentId), data),
        refetch: () => void queryClient.invalidateQueries({ queryKey: queryKeys.review(sessionStore.get()?.orgId ?? '', documentId) }),
      }),
  );
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);

  useEffect(() => {
    if (review.data) controller.load(review.data);
  }, [controller, review.data]);
  // Leaving the page sends the open batch at once rather than dropping it.
  useEffect(() => () => controller.flushOnLeave(), [controller]);
  useReviewNetwork(controller, documentId, outbox);
  useWarnBeforeLeaving(snapshot.waiting > 0 || snapshot.pendingOps > 0);

  if (review.isPending || (!snapshot.data && review.data)) {
    return <p role="status" className="p-6 text-ink-soft">Loading the draft…</p>;
  }
  if (review.isError || !snapshot.data) {
    return <ReviewLoadError error={review.error} retry={() => void review.refetch()} />;
  }
  return <ReviewWorkspace controller={controller} snapshot={snapshot} data={snapshot.data} />;
}

/**
 * While decisions wait to be sent, leaving the page asks first (the browser's own question).
 * They are kept on this device and sent on the next visit, but a lawyer closing the tab does
 * not know that, and on a shared machine the next visit may never come.
 */
function useWarnBeforeLeaving(waiting: boolean) {
  useEffect(() => {
    if (!waiting) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [waiting]);
}

function ReviewLoadError({ error, retry }: { error: unknown; retry: () => void }) {
  const code = error instanceof ApiError ? error.code : null;
  const text =
    code === 'not_found'
      ? 'This document does not exist, was deleted, or belongs to another organisation.'
      : code === 'not_working_draft' || code === 'conflict'
        ? 'Only working drafts can be reviewed. Start a working draft from the documents list.'
        : `The draft could not be loaded: ${describeError(error)}`;
  return (
    <div className="mx-auto max-w-xl p-6">
      <h1 className="text-xl font-semibold">Review</h1>
      <p role="alert" className="mt-3 rounded border border-danger bg-danger-soft p-3 text-danger">{text}</p>
      <div className="mt-3 flex gap-3">
        <button type="button" className="btn" onClick={retry}>Try again</button>
        <Link className="link self-center" to="/documents">Back to the documents</Link>
      </div>
    </div>
  );
}

function ReviewWorkspace({ controller, snapshot, data }: { controller: ReviewController; snapshot: ReviewSnapshot; data: ReviewData }) {
  const [view, setView] = useState<MarkupView>('all');
  const [helpOpen, setHelpOpen] = useState(false);
  // The change the page opened at (as the controller chose it from this first answer).
  const [openedAt] = useState(() => openingChange(data.track));
  // The page of each change, once the draft is laid out in pages (DocumentView).
  const [pageOf, setPageOf] = useState<((changeId: string) => PageCitation | null) | null>(null);
  // On a phone the change list is a panel over the document, opened on demand.
  const [listOpen, setListOpen] = useState(false);
  const sideBySide = useSideBySideState();
  const shortcutsOn = useShortcutsEnabled();
  const initialFocusDone = useRef(false);
  const headingId = useId();
  const commentsRef = useRef<CommentsHandle>(null);
  const checksRef = useRef<ChecksHandle>(null);

  const { items, shown, currentId, selected, counts, filters } = snapshot;
  const current = snapshot.entryById.get(currentId ?? '') ?? null;
  const revision = useMemo(() => data.revisions.find((r) => r.change_id === currentId) ?? null, [data.revisions, currentId]);
  const kinds = useMemo(() => [...new Set(items.map((s) => s.item.kind ?? ''))].filter(Boolean), [items]);
  const authors = useMemo(() => [...new Set(items.map((s) => s.item.author ?? ''))].filter(Boolean).sort(), [items]);
  const decided = counts.in + counts.back;
  const base64 = useRenderContent(data);
  const answer = useAnswer(controller, data.document.id, current);
  const decidedMap = useMemo(() => {
    const map = new Map<string, DecidedChange>();
    for (const s of items) if (s.state !== 'open') map.set(s.item.id, { state: s.state, kind: s.item.kind });
    return map;
  }, [items]);
  const currentMembers = useMemo(() => (current ? membersOf(current).map((m) => ({ id: m.item.id, kind: m.item.kind })) : []), [current]);
  const itemById = useMemo(() => new Map(items.map((s) => [s.item.id, s])), [items]);
  const labelOf = useMemo(() => (id: string) => itemById.get(id)?.item.label, [itemById]);
  const currentPage = current ? citedPage(pageOf?.(current.item.id), current.item.page, current.item.pageLabel) : null;
  const printer = usePrintRedline({ data, items, view, showAllMarkup: () => setView('all'), onError: (text) => controller.say({ tone: 'error', text }) });

  // On load, put the focus on the current change so the keys work at once.
  useEffect(() => {
    if (initialFocusDone.current || !currentId) return;
    initialFocusDone.current = true;
    focusOption(optionDomId(currentId));
  }, [currentId]);

  function run(action: ReviewAction) {
    switch (action) {
      case 'next':
        return controller.move(1);
      case 'previous':
        return controller.move(-1);
      case 'accept':
        return controller.decideCurrent('in');
      case 'reject':
        return controller.decideCurrent('back');
      case 'toggleSelect':
        return controller.toggleSelected();
      case 'acceptMany':
        return decideMany('in');
      case 'rejectMany':
        return decideMany('back');
      case 'undo':
        return controller.undo();
      case 'comment':
        return commentsRef.current?.startComment();
      case 'otherHalf':
        return currentId ? jumpToOtherHalf(currentId) : undefined;
      case 'nextFinding':
        return checksRef.current?.move(1);
      case 'previousFinding':
        return checksRef.current?.move(-1);
      case 'proposeFix':
        return checksRef.current?.proposeCurrent();
      case 'print':
        return printer.print();
      case 'help':
        return setHelpOpen(true);
      case 'sideBySide':
      case 'otherSide':
        return sideBySide.run(action);
      default:
        answer.run(action);
    }
  }

  // With nothing selected, Shift+A / Shift+R would decide every change shown: ask first.
  const [decideAll, setDecideAll] = useState<DecideAllRequest | null>(null);
  function decideMany(verdict: Verdict) {
    const open = shown.filter((s) => s.state === 'open').length;
    if (selected.size > 0 || open === 0) return controller.decideMany(verdict);
    setDecideAll({ verdict, count: open, filters });
  }
  function confirmDecideAll() {
    if (decideAll) controller.decideMany(decideAll.verdict);
    setDecideAll(null);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!shortcutsOn || event.defaultPrevented || (event.repeat && event.key === '?')) return;
    if (isTypingTarget(event.target) || (event.target as Element).closest('dialog')) return;
    const action = actionOfKey(event);
    if (!action) return;
    event.preventDefault();
    // Keys that go to a change take the focus along; those that open an editor or a dialog give it there.
    if (!OPENS_EDITOR.has(action)) controller.requestFocus();
    run(action);
  }

  // A click or tap on a change's marks in the draft makes it current (delegated: the view's
  // render stays its own business); a text selection is left for `c` and `e`.
  const documentArea = useRef<HTMLDivElement>(null);
  const header = useCollapsingHeader(documentArea);
  const idByBookmark = useMemo(() => bookmarkIndex(items), [items]);
  function onDocumentClick(event: MouseEvent<HTMLDivElement>) {
    const area = documentArea.current;
    if (!area || hasTextSelection(area)) return;
    const id = changeAtPoint(event.target, area, idByBookmark);
    if (id) controller.pick(id);
  }
  function onDocumentHover(event: MouseEvent<HTMLDivElement>) {
    const area = documentArea.current;
    const mark = event.target instanceof Element ? event.target.closest<HTMLElement>('ins, del') : null;
    if (!area || !mark || mark.title) return;
    const id = changeAtPoint(mark, area, idByBookmark);
    const entry = id ? items.find((s) => s.item.id === id) : undefined;
    if (!entry) return;
    mark.title = hoverText(entry.item, entry.item.date ?? data.revisions.find((r) => r.change_id === id)?.date);
  }

  // Long drafts show the pages around the current change first (see DocumentView); the page's
  // opening may have asked for the window around the change it opens at already.
  const loadWindow = (changeId: string | null) => fetchRenderWindow(data.document.id, changeId, changeId !== null && changeId === openedAt).then((w) => w.bytes);
  const aria = (action: ReviewAction) => (shortcutsOn ? shortcutFor(action).aria : undefined);
  const hasSelection = selected.size > 0;

  async function download() {
    controller.flush();
    try {
      saveBlob(await downloadBlob(ROUTES.downloadUpload, { uploadId: data.document.id }), data.document.fileName);
    } catch (error) {
      controller.say({ tone: 'error', text: `Could not download the draft: ${describeError(error)}` });
    }
  }

  return (
    // Focusable by script only: where the keys go when neither the list nor the document can take them (answer/initial-focus.ts).
    <div className="flex min-h-0 flex-1 flex-col outline-none" onKeyDown={onKeyDown} tabIndex={-1} data-review-area>
      <div className="rl-review-header flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-line bg-paper px-3 py-1.5 md:gap-y-2 md:px-4 md:py-2"
        data-collapsed={header.collapsed} onFocus={header.show} data-testid="review-header">
        {/* On a phone, two short rows (the name and the view; the progress and the saving), so the document keeps the height. */}
        <div className="min-w-0 max-md:flex-1 max-md:basis-40">
          <h1 id={headingId} className="truncate text-base font-semibold max-md:text-sm">{data.document.fileName}</h1>
          <p className="text-xs text-ink-soft max-md:hidden">
            Working draft · version {data.document.documentVersion} · <Link className="link" to="/documents">All documents</Link>
          </p>
          <Viewers snapshot={snapshot} />
        </div>
        <div className="flex items-center gap-2 text-sm max-md:order-3 max-md:text-xs">
          <progress className="h-2 w-20 max-md:hidden md:w-28" max={Math.max(1, counts.total)} value={decided} aria-label="Decided" />
          <span className="tabular-nums" data-testid="progress">{decided} of {counts.total} decided</span>
          <span className="hidden text-ink-soft tabular-nums lg:inline">({counts.in} accepted, {counts.back} rejected, {counts.open} open)</span>
        </div>
        <div role="group" aria-label="View" className="flex overflow-hidden rounded border border-[#8a857c] text-sm max-md:order-2">
          {(['all', 'none'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              className={`px-2.5 py-1 max-md:min-h-[44px] max-md:px-2 ${view === v ? 'bg-ink text-paper' : 'bg-paper'}`}
              onClick={() => setView(v)}
            >
              {v === 'all' ? 'All markup' : 'No markup'}
            </button>
          ))}
        </div>
        <SideBySideToggle state={sideBySide} shortcut={aria('sideBySide')} />
        <div className="ml-auto flex flex-wrap items-center gap-2 text-sm max-md:order-4 max-md:text-xs">
          <SavingStatus snapshot={snapshot} />
          {/* On a phone the list is a panel over the document; its toggle sits with the progress, out of the entry's rows. */}
          <PhoneListToggle open={listOpen} onToggle={() => setListOpen((o) => !o)} shown={shown.length} />
          <button type="button" className="btn max-md:hidden" onClick={() => void download()}>Download .docx</button>
          <div className="flex flex-wrap items-center gap-2 max-md:hidden">
            <ReportDownloads controller={controller} documentId={data.document.id} fileName={data.document.fileName} />
            <CleanCopyDownload documentId={data.document.id} fileName={data.document.fileName} beforeDownload={() => controller.flush()}
              open={{ entries: counts.open, changes: items.filter((s) => s.state === 'open').length }}
              onError={(text) => controller.say({ tone: 'error', text })} />
          </div>
          <button type="button" className="btn max-md:hidden" onClick={() => run('print')} aria-keyshortcuts={aria('print')} aria-busy={printer.busy}>
            {printer.busy ? 'Preparing the redline…' : 'Print redline'}
          </button>
          <button type="button" className="btn max-md:hidden" onClick={() => setHelpOpen(true)} aria-keyshortcuts={aria('help')}>
            Keys <kbd>?</kbd>
          </button>
        </div>
      </div>

      <ReviewComparisonBanner draft={data.document} changes={counts.total} />

      <div className="flex min-h-0 flex-1 flex-col md:flex-row">
        <div ref={documentArea} className="relative min-h-0 min-w-0 flex-1" onClick={onDocumentClick} onMouseOver={onDocumentHover}>
          {sideBySide.on ? (
            <SideBySide documentId={data.document.id} contentSha256={data.document.contentSha256} view={view} currentId={currentId} currentMembers={currentMembers}
              decided={decidedMap} decisionsTaken={decided} draftVersion={data.document.documentVersion} shown={sideBySide.shown} onShow={sideBySide.show}
              onPages={(f) => setPageOf(() => f)} />
          ) : base64 === null ? (
            <p role="status" className="p-6 text-ink-soft">Loading the draft…</p>
          ) : (
            <DocumentView base64={base64} view={view} currentId={currentId} decided={decidedMap} loadWindow={loadWindow} onPages={(f) => setPageOf(() => f)}
              currentMembers={currentMembers} />
          )}
          <NoticeToast controller={controller} snapshot={snapshot} />
        </div>

        <aside aria-label="Review" data-phone-list={listOpen ? 'open' : 'closed'} className="rl-review-aside flex shrink-0 flex-col border-line bg-paper max-md:border-t max-md:shadow-[0_-2px_6px_rgb(0_0_0/0.08)] md:w-[27rem] md:border-l">
          <section aria-label="Current change" className="border-line p-3 max-md:order-last max-md:p-2 md:max-h-[45vh] md:overflow-y-auto md:border-b">
            {current ? (
              <>
                {/* Wraps between its parts, never inside one ("Change 12", "p. 3 · 7.3(a)"): a phone has room for few. */}
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <h2 className="whitespace-nowrap font-semibold">{current.item.label}</h2>
                  {/* "Change n" is positional and moves when a proposal renumbers the list; the id does not. */}
                  <span className="max-w-24 truncate font-mono text-xs text-ink-soft max-md:hidden" data-testid="stable-ref" title="A reference that stays the same when the changes are renumbered">
                    ref {current.item.id}
                  </span>
                  <span className="whitespace-nowrap text-sm text-ink-soft">{kindLabel(current.item.kind, current.item.move)}</span>
                  <span className="whitespace-nowrap text-sm text-ink-soft" data-testid="current-place" title={placeTitle(currentPage)}>{placeLabel(currentPage, current.item.clause)}</span>
                  <StateBadge state={current.state} pending={current.pending} />
                </div>
                <p className="mt-1 text-sm max-md:hidden">
                  <span className="text-ink-soft">By </span>
                  {current.item.author ?? revision?.author ?? 'unknown author'}
                  {(controller.dateOf(current.item) ?? revision?.date) && (
                    <>
                      <span className="text-ink-soft"> on </span>
                      <time dateTime={controller.dateOf(current.item) ?? revision?.date ?? undefined}>{formatDateTime(controller.dateOf(current.item) ?? revision?.date)}</time>
                    </>
                  )}
                </p>
                <DecisionLine entry={current} takenWith={takenWithText(current.item, current.state, labelOf)} />
                {current.state === 'open' && <EntryTakes entry={current} track={data.track} itemById={itemById} />}
                {(current.item.textPreview ?? revision?.text_preview) && (
                  <p className="mt-1 text-sm max-md:truncate max-md:text-xs"><span className="text-ink-soft">Text: </span>{current.item.textPreview ?? revision?.text_preview}</p>
                )}
                {isMove(current.item.textPreview ?? revision?.text_preview) && (
                  <MovePlaces changeId={current.item.id} kind={current.item.kind ?? revision?.kind} shortcut={aria('otherHalf')} />
                )}
                <Justification text={current.item.justification ?? revision?.justification ?? null} />
                <Consequences documentId={data.document.id} contentSha256={data.document.contentSha256} changeIds={membersOf(current).map((m) => m.item.id)} />
                <CurrentAnswer entry={current} pendingNote={controller.pendingNote(current.item.id)} onWithdraw={() => run('withdraw')} withdrawKeys={aria('withdraw')} />
              </>
            ) : (
              <p className="text-sm text-ink-soft">This draft has no tracked changes.</p>
            )}
            <div className="rl-decide-buttons mt-3 flex flex-wrap gap-1.5 max-md:mt-2 max-md:grid max-md:grid-cols-6 max-md:gap-1 max-md:[&>.btn]:px-0 max-md:[&>.btn]:text-xs md:[&>.btn]:px-2">
              {/* On a phone, two rows: Accept and Reject side by side, then a gap, then the six others (Previous and Next first) in one row. */}
              <button type="button" className="btn btn-accept max-md:order-1 max-md:col-span-3 max-md:mb-2 max-md:self-start" aria-keyshortcuts={aria('accept')} onClick={() => run('accept')} disabled={!current}>
                Accept
              </button>
              <button type="button" className="btn btn-reject max-md:order-2 max-md:col-span-3 max-md:mb-2 max-md:self-start" aria-keyshortcuts={aria('reject')} onClick={() => run('reject')} disabled={!current}>
                Reject
              </button>
              <button type="button" className="btn max-md:order-6" aria-keyshortcuts={aria('undo')} onClick={() => run('undo')}>
                Undo
              </button>
              <button type="button" className="btn max-md:order-3" aria-keyshortcuts={aria('previous')} onClick={() => run('previous')}>
                Previous
              </button>
              <button type="button" className="btn max-md:order-4" aria-keyshortcuts={aria('next')} onClick={() => run('next')}>
                Next
              </button>
              <button type="button" className="btn max-md:order-5" aria-keyshortcuts={aria('toggleSelect')} aria-pressed={current ? selected.has(current.item.id) : false} onClick={() => run('toggleSelect')} disabled={!current}>
                Select
              </button>
              <button type="button" className="btn max-md:order-7" aria-keyshortcuts={aria('propose')} onClick={() => run('propose')}>Propose</button>
              <button type="button" className="btn max-md:order-8" aria-keyshortcuts={aria('note')} onClick={() => run('note')} disabled={!current}>Note</button>
            </div>
            <CommentsPanel ref={commentsRef} review={data} currentId={currentId} currentLabel={current?.item.label ?? null}
              say={(notice) => controller.say(notice)} beforeWrite={() => controller.flush()}
              returnFocus={() => focusOption(optionDomId(controller.getSnapshot().currentId ?? ''))} />
          </section>
          <ChecksList ref={checksRef} documentId={data.document.id} contentSha256={data.document.contentSha256}
            say={(notice) => controller.say(notice)} beforeWrite={() => controller.flush()}
            shortcuts={shortcutsOn ? { next: shortcutFor('nextFinding').aria, previous: shortcutFor('previousFinding').aria, propose: shortcutFor('proposeFix').aria } : null} />

          <section aria-label="Filters and batches" className="rl-phone-panel border-b border-line p-3 text-sm">
            <div className="grid grid-cols-3 gap-2">
              <FilterSelect label="Kind" value={filters.kind} onChange={(kind) => controller.setFilters({ kind })}
                options={[['all', 'All kinds'], ...kinds.map((k) => [k, kindLabel(k)] as [string, string])]} />
              <FilterSelect label="Author" value={filters.author} onChange={(author) => controller.setFilters({ author })}
                options={[['all', 'All authors'], ...authors.map((a) => [a, a] as [string, string])]} />
              <FilterSelect label="State" value={filters.state} onChange={(state) => controller.setFilters({ state: state as TrackState | 'all' })}
                options={[['all', 'All states'], ['open', 'Open'], ['in', 'Accepted'], ['back', 'Rejected']]} />
            </div>
            <div className="mt-2 flex flex-wrap items-center gap-1.5">
              {/* On a phone the header has no room for it (side-by-side/toggle.tsx): the panel offers it, for a reader with no keyboard. */}
              {!sideBySide.on && (
                <button type="button" className="btn md:hidden" aria-keyshortcuts={aria('sideBySide')} onClick={() => { setListOpen(false); sideBySide.toggle(); }}>
                  Side by side
                </button>
              )}
              {hasSelection ? (
                <>
                  <button type="button" className="btn btn-accept" aria-keyshortcuts={aria('acceptMany')} onClick={() => run('acceptMany')}>
                    Accept selected ({selected.size})
                  </button>
                  <button type="button" className="btn btn-reject" aria-keyshortcuts={aria('rejectMany')} onClick={() => run('rejectMany')}>
                    Reject selected ({selected.size})
                  </button>
                  <button type="button" className="btn btn-quiet" onClick={() => controller.clearSelection()}>Clear selection</button>
                </>
              ) : (
                <>
                  <button type="button" className="btn btn-accept" aria-keyshortcuts={aria('acceptMany')} onClick={() => run('acceptMany')}>
                    Accept all shown
                  </button>
                  <button type="button" className="btn btn-reject" aria-keyshortcuts={aria('rejectMany')} onClick={() => run('rejectMany')}>
                    Reject all shown
                  </button>
                </>
              )}
              <span className="text-ink-soft">{shown.length} shown</span>
            </div>
            <label className="mt-2 flex items-center gap-2">
              <input type="checkbox" checked={shortcutsOn} onChange={(e) => setShortcutsEnabled(e.target.checked)} />
              Single-key shortcuts
            </label>
          </section>

          <RefusedDecisions snapshot={snapshot} />
          <TrackList controller={controller} shown={shown} currentId={currentId} selected={selected} focusSeq={snapshot.focusSeq} pageOf={pageOf ?? undefined} labelOf={labelOf} />
        </aside>
      </div>
      <KeyHelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} enabled={shortcutsOn} />
      {answer.dialogs}
      <DecideAllDialog request={decideAll} onConfirm={confirmDecideAll} onClose={() => setDecideAll(null)} />
    </div>
  );
}

/**
 * What deciding the current entry would also decide (the track entry's `takes`), said before the
 * lawyer decides: "Rejecting this move also rejects Changes 45–46: the rows it carried".
 */
function EntryTakes({ entry, track, itemById }: { entry: ShownItem; track: ReviewData['track']; itemById: ReadonlyMap<string, ShownItem> }) {
  const takes = track?.entries?.find((e) => e.id === (entry.item.group ?? entry.item.id))?.takes;
  if (!takes) return null;
  const own = new Set(membersOf(entry).map((m) => m.item.id));
  const items = new Map([...itemById].map(([id, s]) => [id, s.item]));
  const isOpen = (id: string) => !own.has(id) && itemById.get(id)?.state === 'open';
  const lines = (['accept', 'reject'] as const).map((verdict) => takesLine(takes, verdict, items, isOpen, entry.item.move === true)).filter((l) => l !== null);
  if (lines.length === 0) return null;
  return (
    <div className="mt-1 text-sm max-md:text-xs" data-testid="entry-takes">
      {lines.map((line) => <p key={line}>{line}</p>)}
    </div>
  );
}

/** The reason given for a change, in full, when there is one; nothing when none was (a human's change usually has none). */
function Justification({ text }: { text: string | null }) {
  if (!text?.trim()) return null;
  return (
    <div className="mt-2 max-h-40 overflow-auto rounded border border-line bg-canvas p-2 text-sm max-md:max-h-16">
      <p className="text-xs font-medium uppercase tracking-wide text-ink-soft">Justification</p>
      <p className="whitespace-pre-wrap" data-testid="justification">{text}</p>
    </div>
  );
}

/** On a phone: opens and closes the change list panel (on wider screens the list is always there). */
function PhoneListToggle({ open, onToggle, shown }: { open: boolean; onToggle: () => void; shown: number }) {
  return (
    <button type="button" className="btn px-2 py-0.5 text-xs md:hidden" aria-expanded={open} onClick={onToggle}>
      {open ? 'Hide changes' : `All changes (${shown})`}
    </button>
  );
}

function StateBadge({ state, pending }: { state: TrackState; pending: boolean }) {
  return (
    <span className={`rounded border px-1.5 text-xs font-medium ${STATE_CLASS[state]}`}>
      {STATE_LABEL[state]}
      {pending ? ' · saving' : ''}
    </span>
  );
}

function FilterSelect({ label, value, onChange, options }: { label: string; value: string; onChange: (value: string) => void; options: [string, string][] }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-0.5">
      <label htmlFor={id} className="text-xs text-ink-soft">{label}</label>
      <select id={id} className="field py-1 text-sm" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>{text}</option>
        ))}
      </select>
    </div>
  );
}
