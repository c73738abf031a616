import type { TrackItem, TrackState } from '../../contract/track';
import { entryState } from '../../contract/entries';

/** One track item as the reviewer sees it now: the server's state with pending decisions laid over it. */
export interface ShownItem {
  item: TrackItem;
  state: TrackState;
  /** Decided here but not yet confirmed by the service. */
  pending: boolean;
  /**
   * An entry of the list that stands for an edit of several changes (TrackItem.group: a
   * replacement's deletion and insertion, a paragraph's text and its mark): its members in track
   * order. `item` is then the first member's, labelled for the whole edit ("Changes 16–19").
   */
  members?: readonly ShownItem[];
}

/** The changes an entry decides: its members, or itself. */
export function membersOf(entry: ShownItem): readonly ShownItem[] {
  return entry.members ?? [entry];
}

/**
 * The list's entries, one per edit group (a change with no group is its own), in track order of
 * their first member. An entry is reused when its members are (so memoised rows skip re-rendering).
 */
export function entriesOf(items: readonly ShownItem[], previous: ReadonlyMap<string, ShownItem>): ShownItem[] {
  const groups = new Map<string, ShownItem[]>();
  for (const s of items) {
    const key = s.item.group ?? s.item.id;
    const members = groups.get(key);
    if (members) members.push(s);
    else groups.set(key, [s]);
  }
  return [...groups.values()].map((members) => {
    const leader = members[0]!;
    if (members.length === 1) return leader;
    const old = previous.get(leader.item.id);
    if (old?.members && old.members.length === members.length && old.members.every((m, i) => m === members[i])) return old;
    // A partly decided edit (decided before grouping, or over the API one change at a time) is still open.
    const state = entryState(members.map((m) => m.state));
    const item: TrackItem = {
      ...leader.item,
      label: groupLabel(members.map((m) => m.item.label)),
      kind: groupKind(members.map((m) => m.item.kind ?? null)),
      textPreview: leader.item.groupSummary ?? leader.item.textPreview,
    };
    return { item, state, pending: members.some((m) => m.pending), members };
  });
}

/**
 * An entry's title, short at any width: "Changes 16–19" for consecutive members, "Changes 16 and
 * 18" for two, "Changes 45–85 (21)" for more that are not consecutive (memberNumbers lists them).
 */
export function groupLabel(labels: readonly string[]): string {
  const numbers = numbersOf(labels);
  if (!numbers) return labels.length > 1 ? `${labels[0]} and ${labels.length - 1} more` : (labels[0] ?? '');
  const first = numbers[0]!;
  const last = numbers[numbers.length - 1]!;
  if (isConsecutive(numbers)) return `Changes ${first}–${last}`;
  return numbers.length === 2 ? `Changes ${first} and ${last}` : `Changes ${first}–${last} (${numbers.length})`;
}

/** The members of an entry whose title cannot say them ("45, 48, 50–52"); null when the title does. */
export function memberNumbers(labels: readonly string[]): string | null {
  const numbers = numbersOf(labels);
  if (!numbers) return labels.length > 1 ? labels.join(', ') : null;
  if (numbers.length <= 2 || isConsecutive(numbers)) return null;
  const runs: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    runs.push(j === i ? `${numbers[i]}` : `${numbers[i]}–${numbers[j]}`);
    i = j + 1;
  }
  return runs.join(', ');
}

/** The numbers of "Change 12" labels, in order; null when one has none. */
function numbersOf(labels: readonly string[]): number[] | null {
  const numbers = labels.map((l) => Number(/(\d+)$/.exec(l)?.[1]));
  return numbers.length > 0 && numbers.every((n) => Number.isFinite(n)) ? numbers : null;
}

function isConsecutive(numbers: readonly number[]): boolean {
  return numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1);
}

/** What an edit is, by its members: a deletion with an insertion is a replacement; marks and row properties ride along. */
function groupKind(kinds: readonly (string | null)[]): string | null {
  const main = kinds.filter((k) => k !== 'paragraph_mark' && k !== 'tr-prop-change');
  const set = new Set(main);
  if (set.has('insert') && set.has('delete')) return 'replace';
  if (kinds.includes('tr-prop-change') && main.every((k) => k === 'insert')) return 'row-insert';
  if (kinds.includes('tr-prop-change') && main.every((k) => k === 'delete')) return 'row-delete';
  return main[0] ?? kinds[0] ?? null;
}
