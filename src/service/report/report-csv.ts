import { REPORT_COLUMNS } from '../../contract/report';
import type { DecisionReport } from './decision-report';

/**
 * A cell that a spreadsheet would read as a formula (OWASP "CSV injection": = + - @, and tab
 * or carriage return, which some spreadsheets skip before looking) is prefixed with an
 * apostrophe, so it shows as the text it is.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
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
 * accepted, rejected).
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
  ];
  return `\uFEFF${records.map((r) => r.map(field).join(',')).join('\r\n')}\r\n`;
}
