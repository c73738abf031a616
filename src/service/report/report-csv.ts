import { REPORT_COLUMNS } from '../../contract/report';
import type { DecisionReport } from './decision-report';

/**
 * What a spreadsheet may pass over before it looks for a formula sign: white space of any kind
 * (tab, CR, LF, no-break and other Zs spaces, line and paragraph separators), controls, format
 * characters (zero-width space and joiners, the byte-order mark, bidi marks) and whatever else
 * Unicode says is default-ignorable (soft hyphen, variation selectors, Hangul fillers).
 */
const SKIPPED_BEFORE_FORMULA = /^[\s\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}]*/u;
/** The formula signs (OWASP "CSV injection"), and their full-width forms an IME may type. */
const FORMULA_SIGN = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A leading tab, CR or LF: some spreadsheets drop it and read on (OWASP lists tab and CR). */
const LEADING_BREAK = /^[\t\r\n]/;

/**
 * A cell that a spreadsheet would read as a formula is prefixed with an apostrophe, so it shows as
 * the text it is: one whose first sign, after anything invisible, is = + - or @ (`\u00a0=HYPERLINK(...)`,
 * `\u200b=1+1`, `\uFEFF@SUM(...)`), and one that starts with a tab or line break.
 */
export function neutraliseFormula(value: string): string {
  const visible = value.slice(SKIPPED_BEFORE_FORMULA.exec(value)![0].length);
  return FORMULA_SIGN.test(visible) || LEADING_BREAK.test(value) ? `'${value}` : value;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
function field(value: string): string {
  const safe = neutraliseFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The report as CSV: RFC 4180 (CRLF records, every record the same number of fields), UTF-8
 * with a byte-order mark so Excel reads it as UTF-8. A few key/value records (document,
 * version, date, totals of entries as the review page counts them, and of changes) come first,
 * then an empty record, then one record per entry under a header, grouped by state (open,
 * accepted, rejected); then, when the checks were read, another empty record and one record per
 * finding still standing under its own header.
 */
export function reportCsv(report: DecisionReport): string {
  const width = REPORT_COLUMNS.length;
  const pad = (cells: string[]) => [...cells, ...Array<string>(width - cells.length).fill('')];
  const records: string[][] = [
    pad(['Document', report.documentName]),
    pad(['Version', String(report.documentVersion)]),
    pad(['Generated', report.generatedAt]),
    pad(['Open', String(report.counts.open)]),
    pad(['Accepted', String(report.counts.in)]),
    pad(['Rejected', String(report.counts.back)]),
    pad(['Entries', String(report.counts.total)]),
    pad(['Changes', String(report.counts.changes)]),
    pad([]),
    REPORT_COLUMNS.map(([, title]) => title),
    ...report.groups.flatMap((g) => g.rows.map((row) => REPORT_COLUMNS.map(([key]) => row[key]))),
    // The checks' findings still standing, after an empty record, under their own header.
    ...(report.findings && report.findings.length > 0 ? [
      pad([]),
      pad(['Check finding', 'Page', 'Clause', 'Message', 'Brought by an open change']),
      ...report.findings.map((f) => pad([f.kind, String(f.page), f.clause ?? '', f.message, f.broughtByOpenChange ? 'yes' : 'no'])),
    ] : []),
  ];
  return `\uFEFF${records.map((r) => r.map(field).join(',')).join('\r\n')}\r\n`;
}
