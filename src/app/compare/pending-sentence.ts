import type { ComparisonPending } from '../../contract/compare';

const isAre = (n: number) => (n === 1 ? 'is' : 'are');

/**
 * What a comparison did with the pending tracked changes each version held, in the list's unit
 * (entries): "Pending tracked changes: v1 held 1, v2 held 1. v2's stays tracked under its own
 * author. 1 of v1's is still pending in v2."
 */
export function pendingSentence(pending: ComparisonPending, older: string, newer: string, author: string): string {
  const held = `${older} held ${pending.older}, ${newer} held ${pending.newer}`;
  if (pending.treatment !== 'kept') {
    const decided = pending.treatment === 'accepted' ? 'accepted (as Word compares)' : 'rejected';
    if (pending.older + pending.newer === 0) return `Compared as if every tracked change were ${decided}; neither version held any.`;
    return `Compared as if every tracked change were ${decided}. Pending tracked changes: ${held}; none of them is shown as pending.`;
  }
  if (pending.older + pending.newer === 0) return 'Neither version held pending tracked changes.';
  const parts = [`Pending tracked changes: ${held}.`];
  if (pending.kept > 0) parts.push(pending.kept === 1 ? `${newer}'s stays tracked under its own author.` : `${newer}'s ${pending.kept} stay tracked under their own authors.`);
  if (pending.olderStillPending > 0) parts.push(`${pending.olderStillPending} of ${older}'s ${isAre(pending.olderStillPending)} still pending in ${newer}.`);
  if (pending.olderResolved > 0) {
    parts.push(`${pending.olderResolved} of ${older}'s ${isAre(pending.olderResolved)} no longer pending in ${newer}: ${pending.olderResolved === 1 ? 'it is' : 'each is'} shown as a change by “${author}”.`);
  }
  return parts.join(' ');
}
