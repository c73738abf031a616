import { ApiError, describeError } from '../../api/errors';
import { formatDateTime } from '../../components/format';
import type { RefusedDecision, Verdict } from './types';

/** How the review says what happened to a decision, in the lawyer's words. */

export const VERDICT_WORD: Record<Verdict, { done: string; verb: string }> = {
  in: { done: 'Accepted', verb: 'accept' },
  back: { done: 'Rejected', verb: 'reject' },
};

export function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-GB')} ${noun}${n === 1 ? '' : 's'}`;
}

/** "Could not reject Change 8: Priya had already accepted it (24 Nov, 10:02). Your decision was not applied." */
export function refusalText(r: RefusedDecision): string {
  const verb = VERDICT_WORD[r.mine].verb;
  if (r.theirs === 'gone') return `Could not ${verb} ${r.label}: it is no longer in the draft (withdrawn or decided away). Your decision was not applied.`;
  const theirs = r.theirs === 'in' ? 'accepted' : 'rejected';
  return `Could not ${verb} ${r.label}: ${r.by ?? 'someone else'} had already ${theirs} it${r.at ? ` (${formatDateTime(r.at)})` : ''}. Your decision was not applied.`;
}

/** Why a request was refused, in words, naming the service's reason where it gave one. */
export function reasonOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'the service could not be reached.';
    const detail = describeError(error);
    return /[.!?]$/.test(detail) ? detail : `${detail}.`;
  }
  return `${describeError(error)}.`;
}

/** "Accepted 12 changes. Skipped 3: already decided, left as they were." */
export function bulkSummary(verdict: Verdict, decided: number, skipped: number): string {
  return `${VERDICT_WORD[verdict].done} ${plural(decided, 'change')}.${skipped > 0 ? ` Skipped ${skipped}: already decided, left as ${skipped === 1 ? 'it was' : 'they were'}.` : ''}`;
}

/** "2 more changes were decided with it: Change 45, Change 46." (changes a decision took, by implication) */
export function takenSummary(labels: readonly string[]): string {
  return `${plural(labels.length, 'more change')} ${labels.length === 1 ? 'was' : 'were'} decided with it: ${labelList(labels)}.`;
}

/** The labels of some changes for a message, shortened past six ("Change 1, …, and 4 more"). */
export function labelList(labels: readonly string[]): string {
  return labels.length > 6 ? `${labels.slice(0, 5).join(', ')} and ${labels.length - 5} more` : labels.join(', ');
}
