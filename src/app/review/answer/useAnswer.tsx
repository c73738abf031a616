import { useRef, useState, type ReactNode } from 'react';
import type { RedlineEdit, ReviewMinimalResponse } from '../../../contract/review';
import { ROUTES, type RouteSpec } from '../../../contract/routes';
import type { TrackItem } from '../../../contract/track';
import { ApiError, callApi, describeError, downloadBlob } from '../../api/client';
import { draftChanges } from '../../api/review';
import { sessionStore } from '../../auth/session';
import { saveBlob } from '../../components/saveBlob';
import type { EditRequest, ReviewController, ShownItem } from '../controller';
import { membersOf } from '../entries';
import { optionDomId } from '../TrackList';
import { changeTarget, selectionTarget, type DraftTarget } from './draft-text';
import { focusOption } from './initial-focus';
import { NoteDialog } from './NoteDialog';
import { ProposalDialog } from './ProposalDialog';

export type AnswerAction = 'propose' | 'note' | 'withdraw';

/** Whether a track item is the signed-in user's own open proposal (which they may withdraw). */
export function isOwnProposal(item: TrackItem): boolean {
  const me = sessionStore.get()?.user.id;
  return item.state === 'open' && !!me && item.proposedByUserId === me;
}

/**
 * The lawyer's answer on the review page (issue 14): counter-proposals (`e`), notes on decisions
 * (`n`), withdrawing one's own proposal (`w`), and the decision report. Everything that changes
 * the draft goes through the controller's queue, after the decisions before it.
 */
export function useAnswer(controller: ReviewController, documentId: string, current: ShownItem | null) {
  const [proposal, setProposal] = useState<{ target: DraftTarget | null; context: string; sending?: boolean; refusal?: string } | null>(null);
  const [noting, setNoting] = useState(false);
  // A closing dialog hands the focus back to the option focused before it, and focusing an
  // option makes it current; but the action may have moved on (a decision goes to the next
  // change), so the change current after the action is put back and focused.
  const currentAfter = useRef<string | null>(null);
  const backToList = () => {
    const id = currentAfter.current ?? controller.getSnapshot().currentId;
    currentAfter.current = null;
    if (id) controller.setCurrent(id);
    focusOption(id ? optionDomId(id) : null);
  };

  function openProposal() {
    const selected = selectionTarget();
    if (selected) return setProposal({ target: selected, context: 'your selection' });
    if (!current) return setProposal({ target: null, context: 'the draft' });
    setProposal({ target: changeTarget(current.item.id), context: current.item.label });
  }

  function propose(edit: RedlineEdit) {
    // The dialog stays open, with what was typed, until the service answers: a refusal is said
    // there, in the reviewer's words, and the text can be corrected and sent again.
    setProposal((p) => (p ? { ...p, sending: true, refusal: undefined } : p));
    const me = sessionStore.get()?.user.id;
    const before = new Set(controller.getSnapshot().items.map((s) => s.item.id));
    const mine = (data: ReviewMinimalResponse) => (data.track?.items ?? []).filter((i) => !before.has(i.id) && i.proposedByUserId === me).map((i) => i.id);
    controller.enqueueEdit({
      send: (key) => draftChanges(documentId).redline([edit], key),
      what: 'propose your change',
      done: 'Proposed your change: it is in the draft and the list. Press u to take it back, w to withdraw it later.',
      focus: (data) => mine(data)[0] ?? null,
      onDone: () => {
        // Closing the dialog gives the focus back to the option focused before (which makes it
        // current): the new proposal is put back as current after that.
        currentAfter.current = controller.getSnapshot().currentId;
        setProposal(null);
        setTimeout(backToList);
      },
      onRefused: (error) => setProposal((p) => (p ? { ...p, sending: false, refusal: refusalOf(edit, error) } : p)),
      undoWith: (data) => {
        const ids = mine(data);
        return ids.length === 0 ? null : { ...withdrawal(ids), done: 'Took your proposal back.' };
      },
    });
  }

  function withdrawal(ids: string[]): EditRequest {
    return {
      send: (key: string) => draftChanges(documentId).apply({ rejected_change_ids: ids, recordDecision: false }, key),
      what: 'withdraw your proposal',
      done: 'Withdrew your proposal.',
    };
  }

  function withdrawCurrent() {
    if (!current) return;
    // A proposal is withdrawn whole: a replacement's deletion goes with its insertion.
    const ids = membersOf(current).filter((m) => m.state === 'open' && isOwnProposal(m.item)).map((m) => m.item.id);
    if (ids.length === 0) {
      controller.say({ tone: 'info', text: `${current.item.label} is not an open proposal of yours; only those can be withdrawn.` });
      return;
    }
    controller.enqueueEdit(withdrawal(ids));
  }

  function saveNote(text: string, verdict?: 'in' | 'back') {
    setNoting(false);
    controller.noteCurrent(text, (changeId, note) => callApi(ROUTES.noteDecision, { params: { documentId, changeId }, body: { note } }), verdict);
    currentAfter.current = controller.getSnapshot().currentId;
  }

  /** Performs an answer action; false when the action is not one of these. */
  function run(action: string): boolean {
    if (action === 'propose') openProposal();
    else if (action === 'note') setNoting(!!current);
    else if (action === 'withdraw') withdrawCurrent();
    else return false;
    return true;
  }

  const dialogs: ReactNode = (
    <>
      <ProposalDialog open={proposal !== null} target={proposal?.target ?? null} context={proposal?.context ?? ''} sending={proposal?.sending} refusal={proposal?.refusal ?? null} onClose={() => {
        setProposal(null);
        backToList();
      }} onPropose={propose} />
      {current && (
        <NoteDialog open={noting} label={current.item.label} state={current.state} initial={controller.pendingNote(current.item.id) ?? current.item.note ?? ''}
          onClose={() => {
            setNoting(false);
            backToList();
          }} onSave={saveNote} />
      )}
    </>
  );
  return { run, dialogs, withdrawCurrent };
}

/** Why a proposal was refused, about the text the reviewer typed rather than the request ("Edit 1"). */
function refusalOf(edit: RedlineEdit, error: unknown): string {
  if (error instanceof ApiError && error.code === 'edit_not_found') {
    const where = (edit.occurrence ?? 1) > 1 ? `Occurrence ${edit.occurrence} of “${edit.find}” is` : `“${edit.find}” is`;
    return `${where} not in the draft as it stands. Check the wording (copy it from the draft) and propose again.`;
  }
  return `The change was not made: ${describeError(error)}`;
}

/** The decision report's downloads, for the review page's toolbar. */
export function ReportDownloads({ controller, documentId, fileName }: { controller: ReviewController; documentId: string; fileName: string }) {
  async function download(spec: RouteSpec, extension: 'pdf' | 'csv') {
    controller.flush();
    try {
      saveBlob(await downloadBlob(spec, { documentId }), `${fileName.replace(/\.docx$/i, '')} - decision report.${extension}`);
    } catch (error) {
      controller.say({ tone: 'error', text: `Could not download the report: ${describeError(error)}` });
    }
  }
  return (
    <div role="group" aria-label="Decision report" className="flex items-center gap-1">
      <span className="text-ink-soft">Report</span>
      <button type="button" className="btn" onClick={() => void download(ROUTES.decisionReportPdf, 'pdf')}>PDF</button>
      <button type="button" className="btn" onClick={() => void download(ROUTES.decisionReportCsv, 'csv')}>CSV</button>
    </div>
  );
}

/** Under the current change: its note, and for one's own open proposal, a badge and Withdraw. */
export function CurrentAnswer({ entry, pendingNote, onWithdraw, withdrawKeys }: { entry: ShownItem; pendingNote?: string; onWithdraw: () => void; withdrawKeys?: string }) {
  const note = pendingNote ?? entry.item.note;
  return (
    <>
      {isOwnProposal(entry.item) && (
        <p className="mt-2 flex items-center gap-2 text-sm">
          <span className="rounded border border-brand px-1.5 text-xs font-medium text-brand">Your proposal</span>
          <button type="button" className="btn btn-quiet px-1.5 py-0.5 text-xs" aria-keyshortcuts={withdrawKeys} onClick={onWithdraw}>Withdraw</button>
        </p>
      )}
      {note && (
        <div className="mt-2 rounded border border-line bg-canvas p-2 text-sm">
          <p className="text-xs font-medium uppercase tracking-wide text-ink-soft">Note{pendingNote !== undefined ? ' (goes with the decision)' : ''}</p>
          <p className="whitespace-pre-wrap" data-testid="decision-note">{note}</p>
        </div>
      )}
    </>
  );
}
