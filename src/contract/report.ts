/**
 * The decision report (GET /documents/{id}/report.pdf and .csv): one row per change of the
 * track, grouped by state, open first. The CSV's header and the PDF's field names both come
 * from here, so the two always say the same thing.
 */
export const REPORT_COLUMNS = [
  ['label', 'Change'],
  // The change id: "Change n" is positional (a proposal renumbers the changes after it), the
  // reference stays the change the lawyer decided (the review panel shows it as "ref c48").
  ['ref', 'Ref'],
  ['clause', 'Clause'],
  ['kind', 'Kind'],
  ['author', 'Author'],
  ['date', 'Date'],
  ['preview', 'Text'],
  ['justification', 'Justification'],
  ['decision', 'Decision'],
  ['decidedBy', 'Decided by'],
  ['decidedAt', 'Decided at'],
  ['note', 'Note'],
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
