import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import type { ReportRow } from '../../contract/report';
import { BidiParagraph, hasRightToLeft, mirrored, visualNeutrals } from './bidi-lines';
import type { DecisionReport, ReportFinding } from './decision-report';

/**
 * DejaVu Sans, from npm (`dejavu-fonts-ttf`), never a system font: it covers Latin, Greek,
 * Cyrillic, Hebrew and Arabic (with the OpenType joining forms the shaper needs), so a report
 * reads the same on every machine. pdfkit embeds only the glyphs used.
 */
const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function reportFonts(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return fonts;
}

const PAGE = { size: 'A4' as const, margin: 48 };
const INK = '#1d1b18';
const SOFT = '#5d5850';
const RULE = '#d8d3ca';
const STATE_INK: Record<string, string> = { open: '#8a5a00', in: '#1f6b3a', back: '#a3261f' };
const LABEL_WIDTH = 78;
const FIELDS: readonly [keyof ReportRow, string][] = [['preview', 'Summary'], ['justification', 'Justification']];

type Font = 'regular' | 'bold';

/**
 * The decision report as PDF (pdfkit). Text is wrapped here rather than by pdfkit so that each
 * line can go through the bidirectional algorithm: Arabic or Hebrew paragraphs are set right to
 * left, right-aligned, with embedded Latin words and numbers in their own order.
 */
export async function reportPdf(report: DecisionReport): Promise<Buffer> {
  const { regular, bold } = reportFonts();
  const doc = new PDFDocument({
    size: PAGE.size, margin: PAGE.margin, bufferPages: true, compress: true,
    info: { Title: `Decision report: ${report.documentName}`, Creator: 'Redline', Producer: 'Redline (pdfkit)' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  new ReportLayout(doc).write(report);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

class ReportLayout {
  private y: number;
  private readonly left: number;
  private readonly right: number;
  private readonly bottom: number;
  private readonly widths = new Map<string, number>();
  private fill = '';

  constructor(private readonly doc: PDFKit.PDFDocument) {
    this.left = doc.page.margins.left;
    this.right = doc.page.width - doc.page.margins.right;
    this.bottom = doc.page.height - doc.page.margins.bottom;
    this.y = doc.page.margins.top;
  }

  write(report: DecisionReport): void {
    this.paragraph('Decision report', { font: 'bold', size: 16 });
    this.y += 2;
    this.paragraph(report.documentName, { font: 'bold', size: 12 });
    this.paragraph(`Version ${report.documentVersion} · generated ${readableTime(report.generatedAt)}`, { size: 9, color: SOFT });
    const { open, in: accepted, back, total, changes } = report.counts;
    this.paragraph(`${total - open} of ${total} entr${total === 1 ? 'y' : 'ies'} decided (${accepted} accepted, ${back} rejected); ${open} open`, { size: 10 });
    this.paragraph(`${changes} tracked change${changes === 1 ? '' : 's'} in all`, { size: 9, color: SOFT });
    this.y += 6;
    for (const group of report.groups) {
      this.ensure(60);
      this.y += 8;
      this.paragraph(`${group.title} (${group.rows.length})`, { font: 'bold', size: 13, color: STATE_INK[group.state] });
      this.rule(INK, 0.8);
      if (group.rows.length === 0) this.paragraph('None.', { size: 9, color: SOFT });
      for (const row of group.rows) this.change(row, group.state);
    }
    if (report.findings) this.findings(report.findings);
    this.footers(report.documentName);
  }

  /**
   * One entry: "Changes 45–85 (ref c48)" and its clause, kind, author and date on one line; then
   * its change numbers when the title shortens them, its summary and justification; then the
   * decision (who, when), its note and the comments on it.
   */
  private change(row: ReportRow, state: string): void {
    this.ensure(40);
    this.y += 4;
    const meta = [row.page ? `Page ${row.page}${row.filePage && row.filePage !== row.page ? ` (page ${row.filePage} of the file)` : ''}` : '', row.clause ? `Clause ${row.clause}` : '', row.kind, row.author, readableTime(row.date)].filter(Boolean).join(' · ');
    this.ensure(13);
    this.color(INK);
    const label = `${row.label} (ref ${row.ref})`;
    this.doc.font('bold').fontSize(10).text(label, this.left, this.y, { lineBreak: false });
    // The meta starts past the label, however long the reference makes it.
    const metaAt = Math.max(LABEL_WIDTH, this.doc.widthOfString(label) + 8);
    if (!hasRightToLeft(meta)) {
      this.color(SOFT);
      this.doc.font('regular').fontSize(9).text(meta, this.left + metaAt, this.y + 1, { lineBreak: false });
      this.y += 13;
    } else {
      this.y += 13;
      this.paragraph(meta, { size: 9, indent: LABEL_WIDTH, color: SOFT });
    }
    if (row.label.endsWith(' changes)')) this.field('Changes', row.changes);
    for (const [key, label] of FIELDS) if (row[key]) this.field(label, row[key]);
    if (state !== 'open') {
      this.field(row.decision, `${row.decidedBy ? `by ${row.decidedBy}` : ''}${row.decidedAt ? ` on ${readableTime(row.decidedAt)}` : ''}`.trim() || '—', STATE_INK[state]);
    }
    if (row.note) this.field('Note', row.note, INK, 'bold');
    if (row.comments) this.field('Comments', row.comments);
    this.y += 3;
    this.rule(RULE, 0.5);
  }

  /** The checks' findings still standing: page, clause and kind on one line, the message under it. */
  private findings(findings: readonly ReportFinding[]): void {
    this.ensure(60);
    this.y += 8;
    this.paragraph(`Check findings still standing (${findings.length})`, { font: 'bold', size: 13 });
    this.rule(INK, 0.8);
    if (findings.length === 0) this.paragraph('None: terms, cross-references, numbering and placeholders are in order.', { size: 9, color: SOFT });
    for (const f of findings) {
      this.ensure(30);
      this.y += 3;
      const where = [`Page ${f.page}`, f.clause ? `Clause ${f.clause}` : '', f.kind, f.broughtByOpenChange ? 'brought by accepting an open change' : ''].filter(Boolean).join(' · ');
      this.paragraph(where, { size: 8, color: SOFT });
      this.paragraph(f.message, { size: 9 });
      this.rule(RULE, 0.5);
    }
  }

  /** A label in the left column and its value wrapped in the rest of the width. */
  private field(label: string, value: string, labelColor = SOFT, font: Font = 'regular'): void {
    this.ensure(12);
    this.color(labelColor);
    this.doc.font(font).fontSize(8).text(label, this.left, this.y + 1, { lineBreak: false });
    this.paragraph(value, { size: 9, indent: LABEL_WIDTH });
  }

  /** Sets the fill colour only when it changes (pdfkit writes an operator each time). */
  private color(color: string): void {
    if (color === this.fill) return;
    this.doc.fillColor(color);
    this.fill = color;
  }

  private paragraph(text: string, o: { font?: Font; size: number; color?: string; indent?: number }): void {
    const font = o.font ?? 'regular';
    const lineHeight = o.size * 1.32;
    const x0 = this.left + (o.indent ?? 0);
    const width = this.right - x0;
    this.doc.font(font).fontSize(o.size);
    this.color(o.color ?? INK);
    for (const para of text.replace(/\r\n?/g, '\n').split('\n')) {
      const bidi = hasRightToLeft(para) ? new BidiParagraph(para) : null;
      for (const [start, end] of this.wrap(para, font, o.size, width)) {
        this.ensure(lineHeight);
        if (bidi) this.bidiLine(bidi, start, end, font, o.size, x0);
        else this.doc.text(para.slice(start, end), x0, this.y, { lineBreak: false });
        this.y += lineHeight;
      }
    }
  }

  /** One line of a paragraph with right-to-left text: its runs in visual order, right-aligned when the paragraph is RTL. */
  private bidiLine(bidi: BidiParagraph, start: number, end: number, font: Font, size: number, x0: number): void {
    const runs = bidi.visualRuns(start, end).map((run) => ({
      text: !run.rtl ? run.text : hasRightToLeft(run.text) ? mirrored(run.text) : visualNeutrals(run.text),
      // A feature list makes pdfkit lay the run out whole (not word by word), so the shaper
      // orders a right-to-left run's words as well as its letters.
      options: run.rtl ? { lineBreak: false, features: ['rlig' as const] } : { lineBreak: false },
    }));
    const widths = runs.map((r) => this.doc.widthOfString(r.text, r.options));
    const total = widths.reduce((a, b) => a + b, 0);
    let x = bidi.rtl ? this.right - total : x0;
    runs.forEach((run, i) => {
      this.doc.font(font).fontSize(size).text(run.text, x, this.y, run.options);
      x += widths[i]!;
    });
  }

  /** Lines of `text` as [start, end) offsets: breaks at white space, inside a word only when it alone is too wide. */
  private wrap(text: string, font: Font, size: number, width: number): [number, number][] {
    const lines: [number, number][] = [];
    const tokens = text.matchAll(/\S+|\s+/g);
    let lineStart = -1;
    let lineEnd = 0;
    let lineWidth = 0;
    for (const match of tokens) {
      const token = match[0];
      const at = match.index;
      const space = /^\s/.test(token);
      const w = this.width(token, font, size);
      if (space) {
        if (lineStart >= 0) lineWidth += w;
        continue;
      }
      if (lineStart >= 0 && lineWidth + w > width) {
        lines.push([lineStart, lineEnd]);
        lineStart = -1;
      }
      if (lineStart < 0) {
        lineWidth = 0;
        lineStart = at;
        if (w > width) {
          // A word wider than the line (a long URL, say): cut it where it fills a line.
          let from = at;
          while (this.width(text.slice(from, at + token.length), font, size) > width) {
            let to = from + 1;
            while (to < at + token.length && this.width(text.slice(from, to + 1), font, size) <= width) to++;
            lines.push([from, to]);
            from = to;
          }
          lineStart = from;
          lineEnd = at + token.length;
          lineWidth = this.width(text.slice(from, lineEnd), font, size);
          continue;
        }
      }
      lineWidth += w;
      lineEnd = at + token.length;
    }
    if (lineStart >= 0) lines.push([lineStart, lineEnd]);
    return lines.length > 0 ? lines : [[0, 0]];
  }

  private width(token: string, font: Font, size: number): number {
    const key = `${font}\u0000${token}`;
    let unit = this.widths.get(key);
    if (unit === undefined) {
      unit = this.doc.font(font).fontSize(1).widthOfString(token);
      this.widths.set(key, unit);
    }
    this.doc.fontSize(size);
    return unit * size;
  }

  private rule(color: string, weight: number): void {
    this.doc.moveTo(this.left, this.y).lineTo(this.right, this.y).lineWidth(weight).strokeColor(color).stroke();
    this.y += 4;
  }

  private ensure(height: number): void {
    if (this.y + height <= this.bottom) return;
    this.doc.addPage();
    this.y = this.doc.page.margins.top;
  }

  private footers(documentName: string): void {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const y = this.doc.page.height - this.doc.page.margins.bottom + 18;
      const text = `Page ${i + 1} of ${range.count}`;
      this.doc.font('regular').fontSize(8).fillColor(SOFT);
      this.fill = SOFT;
      this.doc.text(text, this.right - this.doc.widthOfString(text), y, { lineBreak: false });
      const name = documentName.length > 80 ? `${documentName.slice(0, 79)}…` : documentName;
      if (!hasRightToLeft(name)) this.doc.text(`Decision report · ${name}`, this.left, y, { lineBreak: false });
      else this.doc.text('Decision report', this.left, y, { lineBreak: false });
    }
  }
}

/** "2026-11-24 05:56 UTC" from an ISO timestamp; other text as it is. */
function readableTime(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value);
  return m ? `${m[1]} ${m[2]} UTC` : value;
}
