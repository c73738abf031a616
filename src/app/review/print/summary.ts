import type { Comment } from '../../../contract/comments';
import type { TrackState } from '../../../contract/track';
import { threadsOf } from '../../comments/comments-api';
import { membersOf, type ShownItem } from '../entries';
import { kindLabel, STATE_LABEL } from '../labels';

/**
 * What the printed redline's first pages say, as plain data: what the document is (the facts),
 * and one row per entry of the list with the page it is on in the printed pages. Kept apart from
 * the DOM so the wording is the list's (labels.ts) and can be read by a test.
 */
export interface PrintSummary {
  title: string;
  /** "Document", "Versions compared", "Printed", "By", …: label and value, in order. */
  facts: readonly (readonly [string, string])[];
  counts: string;
  entries: readonly SummaryRow[];
}

export interface SummaryRow {
  label: string;
  /** The page as printed on it ("iv", "12"); null when the change has no place on the pages (decided, or a styles change). */
  page: string | null;
  clause: string | null;
  kind: string;
  author: string;
  state: string;
  text: string;
}

/** The longest text of a row: the list's preview is already short; a long group summary is cut. */
const TEXT_CHARS = 220;

export interface SummaryInput {
  fileName: string;
  /** What was compared or reviewed, already worded ("v1 (older) with v2 (newer)"). */
  versions: readonly (readonly [string, string])[];
  printedAt: Date;
  printedBy: string | null;
  entries: readonly ShownItem[];
  /** The printed page label of a change, from the pages being printed. */
  pageOf: (changeId: string) => string | null;
  formatDate: (iso: string) => string;
}

export function printSummary(input: SummaryInput): PrintSummary {
  const tally: Record<TrackState, number> = { open: 0, in: 0, back: 0 };
  for (const e of input.entries) tally[e.state]++;
  const n = input.entries.length;
  return {
    title: `Redline of ${input.fileName}`,
    facts: [
      ['Document', input.fileName],
      ...input.versions,
      ['Shown', 'All markup: inserted text underlined in colour, deleted text struck through'],
      ['Printed', input.formatDate(input.printedAt.toISOString())],
      ...(input.printedBy ? [['By', input.printedBy] as const] : []),
    ],
    counts: n === 0
      ? 'No tracked changes.'
      : `${n} ${n === 1 ? 'entry' : 'entries'}: ${tally.open} open, ${tally.in} accepted, ${tally.back} rejected.`,
    entries: input.entries.map((entry) => ({
      label: entry.item.label,
      page: membersOf(entry).map((m) => input.pageOf(m.item.id)).find((p) => p !== null) ?? null,
      clause: entry.item.clause ?? null,
      kind: kindLabel(entry.item.kind, entry.item.move),
      author: entry.item.author ?? '',
      state: STATE_LABEL[entry.state],
      text: clip(entry.item.textPreview ?? '', TEXT_CHARS),
    })),
  };
}

/** A comment thread as a numbered note: its first comment, its replies, what it is on. */
export interface PrintNote {
  number: number;
  commentId: string;
  lines: readonly { who: string; text: string }[];
  on: string;
  resolved: boolean;
}

/**
 * The threads to print as numbered notes, numbered in the order their places come in the pages
 * (`placeOf` answers a position, or null for a thread with no place in the text: those come last).
 * A justification is the reason of its change, not a remark on the text: it is not a note.
 */
export function printNotes(comments: readonly Comment[], placeOf: (commentId: string) => number | null, formatDate: (iso: string) => string): PrintNote[] {
  const threads = threadsOf(comments).filter((t) => !t.root.justification);
  const placed = threads.map((t, i) => ({ t, at: placeOf(t.root.id) ?? Number.MAX_SAFE_INTEGER, i }));
  placed.sort((a, b) => a.at - b.at || a.i - b.i);
  return placed.map(({ t }, i) => ({
    number: i + 1,
    commentId: t.root.id,
    lines: [t.root, ...t.replies].map((c) => ({ who: [c.author, c.date ? formatDate(c.date) : null].filter(Boolean).join(', '), text: c.text })),
    on: clip(t.root.anchorText, TEXT_CHARS),
    resolved: t.root.resolved,
  }));
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
