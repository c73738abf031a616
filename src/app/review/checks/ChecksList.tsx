import { useQueryClient } from '@tanstack/react-query';
import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import type { CheckKind } from '../../../contract/checks';
import { ROUTES } from '../../../contract/routes';
import { callApi, describeError } from '../../api/client';
import { queryKeys } from '../../api/hooks';
import { sessionStore } from '../../auth/session';
import type { Notice } from '../controller/types';
import { useChecks } from './useChecks';

const KIND_LABEL: Record<CheckKind, string> = {
  undefined_term: 'Undefined term',
  unused_definition: 'Unused definition',
  duplicate_definition: 'Defined twice',
  term_variant: 'Term variant',
  broken_cross_reference: 'Broken cross-reference',
  numbering_out_of_sequence: 'Numbering',
  placeholder: 'Placeholder',
};

/** What the review's keys do with the list (keyboard/shortcuts.ts: nextFinding, previousFinding, proposeFix). */
export interface ChecksHandle {
  move(step: 1 | -1): void;
  proposeCurrent(): void;
}

interface Props {
  documentId: string;
  contentSha256: string | null;
  say: (notice: Notice) => void;
  /** Sends the decisions still batched, so the proposal lands on the draft the reviewer sees. */
  beforeWrite: () => void;
  /** The keys, to show; null when the reviewer turned single-key shortcuts off. */
  shortcuts: { next: string; previous: string; propose: string } | null;
}

/**
 * The checks of the draft as accepting every change would leave it: page, clause and message
 * of each finding, those a change brings marked as such (issue 35). Collapsed until opened (or
 * walked with its keys), so the review's own panels keep their place. A finding with a certain
 * fix (a misspelt term, a lower-case use) can be proposed from here as a tracked change by
 * "Redline checks"; the draft then reloads with it among the changes.
 */
export const ChecksList = forwardRef<ChecksHandle, Props>(function ChecksList({ documentId, contentSha256, say, beforeWrite, shortcuts }, ref) {
  const checks = useChecks(documentId, contentSha256, 'accepted');
  const findings = checks.data ?? [];
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [proposing, setProposing] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const at = findings.findIndex((f) => f.id === currentId);

  async function propose(findingId: string) {
    if (proposing) return;
    setProposing(findingId);
    beforeWrite();
    try {
      const answer = await callApi(ROUTES.proposeCheckFixes, { params: { documentId }, body: { findingIds: [findingId] } });
      const n = answer.proposed.reduce((k, p) => k + (p.changeIds.length > 0 ? 1 : 0), 0);
      say({ tone: 'info', text: n > 0 ? 'The fix is proposed as a tracked change by Redline checks.' : 'That fix is already proposed.' });
      await queryClient.invalidateQueries({ queryKey: queryKeys.review(sessionStore.get()?.orgId ?? '', documentId) });
    } catch (error) {
      say({ tone: 'error', text: `The fix could not be proposed: ${describeError(error)}` });
    } finally {
      setProposing(null);
    }
  }

  useImperativeHandle(ref, () => ({
    move(step) {
      if (findings.length === 0) return;
      setOpen(true);
      const next = at < 0 ? (step === 1 ? 0 : findings.length - 1) : Math.min(findings.length - 1, Math.max(0, at + step));
      const id = findings[next]!.id;
      setCurrentId(id);
      // After the list has opened and marked it.
      requestAnimationFrame(() => listRef.current?.querySelector(`[data-finding="${id}"]`)?.scrollIntoView({ block: 'nearest' }));
    },
    proposeCurrent() {
      const f = findings[at];
      if (!f) return say({ tone: 'info', text: 'Walk the checks first, then propose the current finding\'s fix.' });
      if (!f.fix) return say({ tone: 'info', text: 'This finding has no certain fix to propose.' });
      void propose(f.id);
    },
  }));

  return (
    <details className="rl-phone-panel border-b border-line p-3 text-sm" data-testid="checks-list" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer font-semibold">
        Checks {checks.isPending ? '(checking…)' : `(${findings.length})`}
        {shortcuts && <span className="ml-2 font-normal text-ink-soft max-md:hidden">keys {shortcuts.next} {shortcuts.previous} · fix {shortcuts.propose}</span>}
      </summary>
      {checks.isError && <p className="mt-1 text-ink-soft">The checks could not be run.</p>}
      {!checks.isPending && !checks.isError && findings.length === 0 && <p className="mt-1 text-ink-soft">No finding: terms, cross-references, numbering and placeholders are in order.</p>}
      {findings.length > 0 && (
        <ol ref={listRef} aria-label="Checks" className="mt-2 max-h-72 space-y-1 overflow-y-auto">
          {findings.map((f) => (
            <li key={f.id} data-finding={f.id} data-kind={f.kind} aria-current={f.id === currentId ? 'true' : undefined}
              className={`rounded border px-2 py-1 ${f.id === currentId ? 'border-accent bg-here' : 'border-line'}`}>
              <span className="text-ink-soft">p. {f.page}{f.clause ? ` · ${f.clause}` : ''} · {KIND_LABEL[f.kind]}{f.causedBy.length > 0 ? ' · brought by a change' : ''}</span>
              <br />
              {f.message}
              {f.fix && (
                <button type="button" className="btn ml-2 px-2 py-0 text-xs" aria-keyshortcuts={f.id === currentId ? shortcuts?.propose : undefined}
                  disabled={proposing !== null} onClick={() => void propose(f.id)}>
                  {proposing === f.id ? 'Proposing…' : `Propose “${f.fix.replaceWith}”`}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
});
