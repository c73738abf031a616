import type { CheckFinding, CheckKind } from '../../contract/checks';
import type { Comment } from '../../contract/comments';
import { changeNumbers, entryState, entryTitle } from '../../contract/entries';
import type { ReportRow } from '../../contract/report';
import { REPORT_GROUPS } from '../../contract/report';
import type { Revision } from '../../contract/revision';
import type { TrackItem, TrackState } from '../../contract/track';
import type { Queryable } from '../store/database';
import type { DecisionRecord } from '../review/review-service';

/** Kinds as a lawyer reads them (the app's words, kept here too: the service may not import the app). */
const KIND_WORDS: Record<string, string> = {
  insert: 'Insertion', delete: 'Deletion', paragraph_mark: 'Paragraph mark', proposed: 'Proposed',
  'r-prop-change': 'Formatting', 'p-prop-change': 'Paragraph formatting', 'tbl-prop-change': 'Table properties',
  'tr-prop-change': 'Table row', 'tc-prop-change': 'Table cell', 'sect-prop-change': 'Section properties',
};
const DECISION_WORDS: Record<TrackState, string> = { open: 'Open', in: 'Accepted', back: 'Rejected' };

export interface ReportGroup {
  state: TrackState;
  title: string;
  rows: ReportRow[];
}

/** Everything either rendering of the report shows, in the order it shows it. */
export interface DecisionReport {
  documentName: string;
  documentVersion: number;
  generatedAt: string;
  /** Entries, as the review page counts them (contract/entries.ts), and the changes they hold. */
  counts: { open: number; in: number; back: number; total: number; changes: number };
  groups: ReportGroup[];
  /**
   * The checks' findings still standing (issue 35): those of the draft as accepting its open
   * changes would leave it, in document order. Absent when the checks were not read.
   */
  findings?: ReportFinding[];
}

/** One finding of the checks, as the report lists it. */
export interface ReportFinding {
  page: number;
  clause: string | null;
  kind: string;
  message: string;
  /** Whether accepting an open change brings it (else it stands either way). */
  broughtByOpenChange: boolean;
}

const CHECK_KIND_WORDS: Record<CheckKind, string> = {
  undefined_term: 'Undefined term', unused_definition: 'Unused definition', duplicate_definition: 'Defined twice', term_variant: 'Term variant',
  broken_cross_reference: 'Broken cross-reference', numbering_out_of_sequence: 'Numbering', placeholder: 'Placeholder',
};

/** The checks' findings as the report lists them. */
export function reportFindings(findings: readonly CheckFinding[]): ReportFinding[] {
  return findings.map((f) => ({ page: f.page, clause: f.clause, kind: CHECK_KIND_WORDS[f.kind], message: f.message, broughtByOpenChange: f.causedBy.length > 0 }));
}

/**
 * Builds the report of a draft from its review and its decision log: one row per entry of the
 * track (track.entries, the edits the review page lists), in the page's order and with its
 * counts: its change numbers, summary, page, clause, kind, author, date and justification, its state,
 * who decided it and when (or which decision took it with it), the notes recorded on its
 * decisions and the comments on its changes.
 */
export async function buildDecisionReport(db: Queryable, record: DecisionRecord, now = new Date()): Promise<DecisionReport> {
  const { review, decided } = record;
  const items = review.track?.items ?? [];
  const byId = new Map(items.map((i) => [i.id, i]));
  const revisions = new Map<string, Revision>(review.revisions.map((r) => [r.change_id, r]));
  const names = await userNames(db, [...new Set(items.map((i) => i.decidedByUserId).filter((id): id is string => !!id))]);
  const commentsOf = commentReader(record.comments, record.commentOn);
  const entries = review.track?.entries ?? entriesOfItems(items);
  const rowOf = (members: readonly TrackItem[], state: TrackState): ReportRow => {
    const lead = members[0]!;
    const open = state === 'open';
    const decidedOnes = members.filter((m) => m.state !== 'open');
    const distinct = (values: readonly (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => !!v?.trim()))];
    const dateOf = (m: TrackItem) => (m.state === 'open' ? (m.date ?? revisions.get(m.id)?.date) : decided.get(m.id)?.date);
    const justificationOf = (m: TrackItem) => (m.state === 'open' ? (m.justification ?? revisions.get(m.id)?.justification) : decided.get(m.id)?.justification);
    // Who decided: the people who did; a change taken with another's decision names that decision.
    const deciders = distinct(decidedOnes.map((m) => (m.implied
      ? (m.takenWith && !members.some((o) => o.id === m.takenWith) ? `with ${byId.get(m.takenWith)?.label ?? m.takenWith}` : null)
      : names.get(m.decidedByUserId ?? ''))));
    const labels = members.map((m) => m.label);
    const pagedMember = members.find((m) => m.page !== undefined);
    return {
      label: entryTitle(labels),
      changes: changeNumbers(labels),
      ref: lead.group ?? lead.id,
      page: pagedMember?.pageLabel ?? pagedMember?.page?.toString() ?? '',
      filePage: pagedMember?.page?.toString() ?? '',
      clause: lead.clause ?? revisions.get(lead.id)?.clause ?? '',
      kind: entryKind(members, revisions),
      author: distinct(members.map((m) => m.author ?? revisions.get(m.id)?.author)).join('; '),
      date: distinct(members.map(dateOf))[0] ?? '',
      preview: lead.groupSummary ?? lead.textPreview ?? revisions.get(lead.id)?.text_preview ?? '',
      justification: distinct(members.map(justificationOf)).join('\n'),
      decision: DECISION_WORDS[state],
      decidedBy: open ? '' : deciders.join('; '),
      decidedAt: open ? '' : decidedOnes.map((m) => m.decidedAt ?? '').sort().at(-1) ?? '',
      note: distinct(decidedOnes.map((m) => m.note)).join('\n'),
      comments: commentsOf(members.map((m) => m.id)),
    };
  };
  const rows = entries.map((e) => {
    const members = e.members.map((id) => byId.get(id)).filter((m): m is TrackItem => !!m);
    return [e.state, rowOf(members, e.state)] as const;
  });
  const counts = { open: 0, in: 0, back: 0 };
  for (const [state] of rows) counts[state]++;
  return {
    documentName: review.document.fileName,
    documentVersion: review.document.documentVersion,
    generatedAt: now.toISOString(),
    counts: { ...counts, total: rows.length, changes: items.length },
    groups: REPORT_GROUPS.map(([state, title]) => ({ state, title, rows: rows.filter(([s]) => s === state).map(([, row]) => row) })),
  };
}

/** The entries of items by their group, for a track stored before it listed them. */
function entriesOfItems(items: readonly TrackItem[]): { members: string[]; state: TrackState }[] {
  const groups = new Map<string, TrackItem[]>();
  for (const item of items) groups.set(item.group ?? item.id, [...(groups.get(item.group ?? item.id) ?? []), item]);
  return [...groups.values()].map((members) => ({ members: members.map((m) => m.id), state: entryState(members.map((m) => m.state)) }));
}

/** What an entry is, by its members: a move; a deletion with an insertion is a replacement; rows by their marks. */
function entryKind(members: readonly TrackItem[], revisions: ReadonlyMap<string, Revision>): string {
  if (members.some((m) => m.move || revisions.get(m.id)?.move)) return 'Move';
  const previews = members.map((m) => m.textPreview ?? '');
  if (previews.some((p) => p.startsWith('Row deleted'))) return 'Row deleted';
  if (previews.some((p) => p.startsWith('Row inserted'))) return 'Row inserted';
  const kinds = new Set(members.map((m) => m.kind ?? '').filter((k) => k !== 'paragraph_mark'));
  if (kinds.has('insert') && kinds.has('delete')) return 'Replacement';
  const main = [...kinds][0] ?? members[0]!.kind ?? '';
  return KIND_WORDS[main] ?? main;
}

/**
 * The comments on an entry's changes, each thread as "Author: text" lines (replies after their
 * comment): those whose range holds one of the changes, and those written on one of them through
 * the review (the log remembers which, so a comment on a change decided since still counts).
 */
function commentReader(comments: readonly Comment[], commentOn: ReadonlyMap<string, string>): (ids: readonly string[]) => string {
  return (ids) => {
    const own = new Set(ids);
    const firsts = comments.filter((c) => c.parentId === null && !c.justification
      && (c.changeIds.some((id) => own.has(id)) || own.has(commentOn.get(c.id) ?? '')));
    const firstIds = new Set(firsts.map((c) => c.id));
    return comments
      .filter((c) => firstIds.has(c.id) || (c.parentId !== null && firstIds.has(c.parentId)))
      .map((c) => `${c.parentId ? '↳ ' : ''}${c.author}: ${c.text}${c.resolved && !c.parentId ? ' (resolved)' : ''}`)
      .join('\n');
  };
}

/** "Name <e-mail>" of each user id (a user deleted since reads as their id). */
async function userNames(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; email: string; display_name: string }>(
    'SELECT id, email, display_name FROM users WHERE id = ANY($1)', [ids]);
  const names = new Map(rows.map((r) => [r.id, r.display_name && r.display_name !== r.email ? `${r.display_name} <${r.email}>` : r.email]));
  for (const id of ids) if (!names.has(id)) names.set(id, id);
  return names;
}

/** A file name for the report of `documentName` ("MSA.docx" -> "MSA - decision report.pdf"). */
export function reportFileName(documentName: string, extension: 'pdf' | 'csv'): string {
  return `${documentName.replace(/\.docx$/i, '')} - decision report.${extension}`;
}
