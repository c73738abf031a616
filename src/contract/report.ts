/**
 * The decision report (GET /documents/{id}/report.pdf and .csv): one row per entry of the review
 * (the edits the review page lists and decides, contract/entries.ts), grouped by state, open first,
 * counted as the page counts them. The CSV's header and the PDF's field names both come from
 * here, so the two always say the same thing.
 */
export const REPORT_COLUMNS = [
  ['label', 'Entry'],
  // Every change number of the entry ("45–85", "45, 48, 50"): the title may shorten them.
  ['changes', 'Changes'],
  // The entry's stable reference (its first change's id): "Change n" is positional (a proposal
  // renumbers the changes after it), the reference stays the change the lawyer decided.
  ['ref', 'Ref'],
  // The number the page prints, as Word last laid the draft out (TrackItem.pageLabel: "iii" in
  // roman front matter); empty when the file does not say. Beside it the page counted from the
  // first (TrackItem.page), for a document that prints no page numbers.
  ['page', 'Page'],
  ['filePage', 'Page in file'],
  ['clause', 'Clause'],
  ['kind', 'Kind'],
  ['author', 'Author'],
  ['date', 'Date'],
  ['preview', 'Summary'],
  ['justification', 'Justification'],
  ['decision', 'Decision'],
  ['decidedBy', 'Decided by'],
  ['decidedAt', 'Decided at'],
  ['note', 'Note'],
  ['comments', 'Comments'],
] as const;

export type ReportField = (typeof REPORT_COLUMNS)[number][0];
export type ReportRow = Record<ReportField, string>;

/** The order of the report's groups, and how each is titled. */
export const REPORT_GROUPS = [
  ['open', 'Open'],
  ['in', 'Accepted'],
  ['back', 'Rejected'],
] as const;

export const REPORT_PDF_MEDIA_TYPE = 'application/pdf';
export const REPORT_CSV_MEDIA_TYPE = 'text/csv; charset=utf-8';
