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
  counts: { open: number; in: number; back: number; total: number };
  groups: ReportGroup[];
}

/**
 * Builds the report of a draft from its review and its decision log: every change of the track,
 * open ones with their revision's author, date and justification, decided ones with what the log
 * remembers of them (including the note) and who decided, by name.
 */
export async function buildDecisionReport(db: Queryable, record: DecisionRecord, now = new Date()): Promise<DecisionReport> {
  const { review, decided } = record;
  const items = review.track?.items ?? [];
  const revisions = new Map<string, Revision>(review.revisions.map((r) => [r.change_id, r]));
  const names = await userNames(db, [...new Set(items.map((i) => i.decidedByUserId).filter((id): id is string => !!id))]);
  const rowOf = (item: TrackItem): ReportRow => {
    const revision = revisions.get(item.id);
    const memory = decided.get(item.id);
    const open = item.state === 'open';
    return {
      label: item.label,
      ref: item.id,
      clause: item.clause ?? revision?.clause ?? '',
      // A move is one change of both halves: one "Move", not a deletion and an insertion.
      kind: item.move || revision?.move ? 'Move' : (KIND_WORDS[item.kind ?? ''] ?? item.kind ?? ''),
      author: item.author ?? revision?.author ?? '',
      date: (open ? (item.date ?? revision?.date) : memory?.date) ?? '',
      preview: item.textPreview ?? revision?.text_preview ?? '',
      justification: (open ? (item.justification ?? revision?.justification) : memory?.justification) ?? '',
      decision: DECISION_WORDS[item.state],
      decidedBy: open ? '' : (names.get(item.decidedByUserId ?? '') ?? ''),
      decidedAt: open ? '' : (item.decidedAt ?? ''),
      note: open ? '' : (item.note ?? ''),
    };
  };
  const rows = items.map((item) => [item.state, rowOf(item)] as const);
  const counts = review.track?.counts ?? { open: 0, in: 0, back: 0 };
  return {
    documentName: review.document.fileName,
    documentVersion: review.document.documentVersion,
    generatedAt: now.toISOString(),
    counts: { open: counts.open, in: counts.in, back: counts.back, total: counts.total ?? items.length },
    groups: REPORT_GROUPS.map(([state, title]) => ({ state, title, rows: rows.filter(([s]) => s === state).map(([, row]) => row) })),
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
