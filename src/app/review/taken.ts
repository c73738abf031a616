import { changeNumbers } from '../../contract/entries';
import type { TrackEntry, TrackItem, TrackState } from '../../contract/track';
import { kindLabel } from './labels';

/**
 * Changes decided with another's decision (issue 32): what deciding an entry would also decide
 * (TrackEntry.takes), said before the lawyer decides, and which decision took a change
 * (TrackItem.implied, takenWith), said after, so the progress never moves without the list
 * saying why.
 */

/** What the taken changes are, briefly, by their kinds: "the rows it carried", "the insertion inside it". */
function whatTheyAre(kinds: readonly (string | null | undefined)[], move: boolean, count: number): string {
  const where = move ? 'it carried' : 'inside it';
  const one = count === 1;
  if (kinds.includes('tr-prop-change')) return `the ${one ? 'row' : 'rows'} ${where}`;
  const set = new Set(kinds.filter((k) => k !== 'paragraph_mark'));
  if (set.size === 1 && set.has('insert')) return `the ${one ? 'insertion' : 'insertions'} ${where}`;
  if (set.size === 1 && set.has('delete')) return `the ${one ? 'deletion' : 'deletions'} ${where}`;
  if (set.size === 0) return `the paragraph ${one ? 'mark' : 'marks'} ${where}`;
  // One other kind: its name ("the paragraph formatting inside it").
  const only = set.size === 1 ? [...set][0] : null;
  if (only) return `the ${kindLabel(only).toLowerCase()} ${one ? '' : 'changes '}${where}`;
  return `the ${one ? 'change' : 'changes'} ${where}`;
}

/**
 * "Rejecting this move also rejects Changes 45–46: the rows it carried", or null when deciding
 * the entry that way decides nothing else. Changes no longer open (decided since the track
 * was read) are left out.
 */
export function takesLine(
  takes: TrackEntry['takes'],
  verdict: 'accept' | 'reject',
  itemById: ReadonlyMap<string, Pick<TrackItem, 'label' | 'kind'>>,
  isOpen: (id: string) => boolean,
  move: boolean,
): string | null {
  const ids = (takes?.[verdict] ?? []).filter(isOpen);
  const taken = ids.map((id) => itemById.get(id)).filter((i): i is Pick<TrackItem, 'label' | 'kind'> => i !== undefined);
  if (taken.length === 0) return null;
  const numbers = changeNumbers(taken.map((i) => i.label));
  const title = taken.length === 1 ? taken[0]!.label : `Changes ${numbers}`;
  const [doing, does] = verdict === 'accept' ? ['Accepting', 'accepts'] : ['Rejecting', 'rejects'];
  return `${doing} this${move ? ' move' : ''} also ${does} ${title}: ${whatTheyAre(taken.map((i) => i.kind), move, taken.length)}.`;
}

/** "Rejected with Change 44" for a change another's decision took; null for any other. */
export function takenWithText(item: Pick<TrackItem, 'implied' | 'takenWith'>, state: TrackState, labelOf: (id: string) => string | undefined): string | null {
  if (state === 'open' || !item.implied) return null;
  const verdict = state === 'in' ? 'Accepted' : 'Rejected';
  const by = item.takenWith ? labelOf(item.takenWith) : undefined;
  return by ? `${verdict} with ${by}` : `${verdict} with another change`;
}

/**
 * The changes a decision took with it, newly: decided by implication in `after`, open in
 * `before`, taken by one of `decided` (or by no one named). Their labels, in track order.
 */
export function newlyTaken(before: readonly TrackItem[], after: readonly TrackItem[], decided: ReadonlySet<string>): string[] {
  const wasOpen = new Set(before.filter((i) => i.state === 'open').map((i) => i.id));
  return after
    .filter((i) => i.implied && i.state !== 'open' && wasOpen.has(i.id) && !decided.has(i.id) && (!i.takenWith || decided.has(i.takenWith)))
    .map((i) => i.label);
}
