import { z } from 'zod';
import { Timestamp } from './document';

/** open = undecided, in = accepted, back = rejected. */
export const TrackState = z.enum(['open', 'in', 'back']);
export type TrackState = z.infer<typeof TrackState>;

export const TrackItem = z.object({
  id: z.string().describe("The change's change_id."),
  state: TrackState,
  label: z.string().describe('Positional label, "Change <n>".'),
  kind: z.string().nullable().optional(),
  textPreview: z.string().optional(),
  justification: z.string().nullable().optional().describe('The reason recorded for the change (a proposal\'s, or a comment anchored on it); decided entries keep it. Absent or null: none was given.'),
  author: z.string().nullable().optional(),
  date: z.string().nullable().optional().describe('Open entries only.'),
  decidedAt: Timestamp.optional().describe('Decided entries only.'),
  decidedByUserId: z.string().nullable().optional().describe('Decided entries only.'),
  note: z.string().nullable().optional().describe('Decided entries only: the note recorded with the decision (apply `notes`, or added later).'),
  proposedByUserId: z.string().nullable().optional()
    .describe('Open entries written through redline edits: the user they were written for (who may withdraw them).'),
  documentWide: z.literal(true).optional().describe('A change in the styles or numbering parts (open entries): no place in the text.'),
  move: z.literal(true).optional().describe('A move (the revision\'s `move`): one entry for both halves, shown as "Move".'),
  group: z.string().optional()
    .describe('The entry this change belongs to: the edit it was part of in the draft as its review began (the baseline; its first member\'s change id), kept through every decision, so deciding one entry never regroups the others. A change written since (redline edits) is grouped with the other new changes of its edit. May differ from the revision\'s `group`, which is the draft\'s grouping now.'),
  clause: z.string().nullable().optional()
    .describe('The revision\'s `clause`: the list label of its paragraph as Word shows it ("7.3(a)"); null when not numbered. Decided entries keep the clause they had.'),
  groupSummary: z.string().optional().describe('How the whole entry reads (its baseline group\'s `group_summary`), the same on every member.'),
  page: z.number().int().positive().optional()
    .describe('The page the change was on when Word last laid the draft out as its review began (its w:lastRenderedPageBreak marks), counted from the first page; decided entries keep it. Absent when the file does not say (never laid out by Word) or the change came later.'),
  pageLabel: z.string().optional()
    .describe('The number that page prints, in its section\'s format and after restarts (w:pgNumType): "iii" in roman front matter, "1" again where a section restarts. Cite this; `page` is the page counted from the first. Present whenever `page` is.'),
  implied: z.literal(true).optional()
    .describe('Decided entries only: decided by no one, it went with another decision (its content was inside a rejected insertion or move, an accepted deletion, a removed row). `takenWith` names that decision\'s change when one change took it.'),
  takenWith: z.string().optional().describe('Implied decisions: the change whose decision took this one with it.'),
});
export type TrackItem = z.infer<typeof TrackItem>;

export const TrackCounts = z.object({
  open: z.number().int(),
  in: z.number().int(),
  back: z.number().int(),
  total: z.number().int().optional(),
});
export type TrackCounts = z.infer<typeof TrackCounts>;

/** Changes outside an entry that deciding it one way takes with it (the interface's implied decisions), in track order. */
export const EntryTakes = z.object({
  accept: z.array(z.string()).describe('Open changes that accepting the entry decides too.'),
  reject: z.array(z.string()).describe('Open changes that rejecting the entry decides too.'),
});
export type EntryTakes = z.infer<typeof EntryTakes>;

/**
 * One entry of the review: what the lawyer sees and decides as one edit. Formed once, from the
 * draft as its review began (the baseline), and kept until decided: the items' `group` says the same.
 */
export const TrackEntry = z.object({
  id: z.string().describe('The entry\'s id: its first member\'s change id (the items\' `group`).'),
  members: z.array(z.string()).describe('Its changes\' ids, in track order.'),
  state: TrackState.describe('Open while any member is open; else its first member\'s state.'),
  summary: z.string().describe('How the entry reads ("Replaced \'x\' with \'y\'", "Deleted 5 rows: …").'),
  takes: EntryTakes.optional().describe('Open entries whose decision takes other open changes with it: which, for each verdict.'),
});
export type TrackEntry = z.infer<typeof TrackEntry>;

export const Track = z.object({
  items: z.array(TrackItem),
  entries: z.array(TrackEntry).optional().describe('The entries, in track order of their first member (absent in tracks stored before they were listed).'),
  hereId: z.string().nullable().describe('Id of the first open item; null when nothing is open.'),
  counts: TrackCounts,
});
export type Track = z.infer<typeof Track>;

/** The first member of the edit a change belongs to: the entry the list shows for it. */
export function leaderOf(track: Track | null, id: string | null): string | null {
  if (id === null) return null;
  const group = track?.items.find((i) => i.id === id)?.group;
  return group && track?.items.some((i) => i.id === group) ? group : id;
}

/** The change a review opens at: the track's `hereId` (else its first change), as the entry that shows it. */
export function openingChange(track: Track | null): string | null {
  return leaderOf(track, track?.hereId ?? track?.items[0]?.id ?? null);
}

/** The label of the item at 0-based position `index`. */
export function trackLabel(index: number): string {
  return `Change ${index + 1}`;
}

/**
 * The ids of `ids` with the other open members of their edit groups (TrackItem.group), in track
 * order: a group is decided, or withdrawn, whole. `joins` says which other members may come along
 * (for a withdrawal, the caller's own proposals only); the ids named always stay.
 */
export function withGroupMembers(items: readonly TrackItem[], ids: readonly string[], joins: (item: TrackItem) => boolean = () => true): string[] {
  const named = new Set(ids);
  const groups = new Set(items.filter((item) => named.has(item.id)).map((item) => item.group ?? item.id));
  const out = items
    .filter((item) => named.has(item.id) || (item.state === 'open' && groups.has(item.group ?? item.id) && joins(item)))
    .map((item) => item.id);
  // Ids the track does not hold (unknown or already gone) stay, so the service can name them in its refusal.
  const listed = new Set(out);
  return [...out, ...ids.filter((id) => !listed.has(id))];
}
