import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { countEntries } from '../../contract/entries';
import { ChecksAnswer } from '../../contract/checks';
import { REPORT_COLUMNS } from '../../contract/report';
import { ReviewResponse } from '../../contract/review';
import { buildDemoContract } from '../../docx/fixture';
import { generateLabProtocol } from '../../../test/conformance/entry-fixtures';
import { lacksShared, sharedPath } from '../../../test/support/shared-corpus';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';
import { BidiParagraph } from './bidi-lines';
import { neutraliseFormula } from './report-csv';

/** RFC 4180 parser for the test: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

/** The CSV's entry records (after the totals, an empty record and the header), by column key. */
/** The entries' records: after the header, up to the empty record before the check findings. */
function csvRows(records: string[][]): Record<string, string>[] {
  const end = records.findIndex((r, i) => i > 10 && r.every((c) => c === ''));
  return records.slice(10, end < 0 ? undefined : end).map((r) => Object.fromEntries(REPORT_COLUMNS.map(([key], i) => [key, r[i]!])));
}

const ARABIC_CORPUS = sharedPath('files/TestFiles__RP__RP051-Arabic.docx');
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;

describe('the decision report', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let draftId = '';
  let decided: { accepted: string; rejected: string; open: string };
  const work = mkdtempSync(path.join(os.tmpdir(), 'redline-report-'));

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(lawyer), ...(payload ? { payload } : {}) });
  async function newDraft(name: string, bytes: Uint8Array): Promise<string> {
    const body = multipartBody({ purpose: 'source_doc' }, { name, bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    return (await call('POST', `/api/uploads/${created.json().id}/working-draft`)).json().id as string;
  }

  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('report@firm.example', 'Report LLP');
    draftId = await newDraft('MSA, final.docx', buildDemoContract());
    // A proposal whose justification would run as a formula in a spreadsheet.
    const proposed = await call('POST', `/api/documents/${draftId}/redlines`, {
      edits: [{ op: 'insert', find: 'Agreement', text: ' (as amended)', justification: '=HYPERLINK("http://evil.example","click")' }],
    });
    expect(proposed.statusCode).toBe(200);
    const review = ReviewResponse.parse((await call('GET', `/api/documents/${draftId}/review`)).json());
    // Two entries decided whole, as the review page decides them.
    const [accepted, rejected] = review.track!.entries!;
    const applied = await call('POST', `/api/documents/${draftId}/revisions/apply`, {
      accepted_change_ids: accepted!.members, rejected_change_ids: rejected!.members,
      notes: { [rejected!.members[0]!]: 'Too wide, "as discussed";\nsee the call notes.', [accepted!.members[0]!]: '+ fine' },
    });
    expect(applied.statusCode).toBe(200);
    const open = ReviewResponse.parse(applied.json()).track!.entries!.find((e) => e.state === 'open')!.id;
    decided = { accepted: accepted!.id, rejected: rejected!.id, open };
  });
  afterAll(async () => {
    await t.destroy();
    rmSync(work, { recursive: true, force: true });
  });

  it('CSV: RFC 4180 with a BOM; document, version, totals, then every entry grouped by state; formulas neutralised', async () => {
    const res = await call('GET', `/api/documents/${draftId}/report.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('MSA, final - decision report.csv')}`);
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = res.rawPayload.toString('utf8').slice(1);
    expect(text.endsWith('\r\n')).toBe(true);
    const records = parseCsv(text);
    expect(new Set(records.map((r) => r.length))).toEqual(new Set([REPORT_COLUMNS.length]));
    const meta = Object.fromEntries(records.slice(0, 8).map((r) => [r[0], r[1]]));
    const review = ReviewResponse.parse((await call('GET', `/api/documents/${draftId}/review`)).json());
    const entries = countEntries(review.track!.items);
    expect(meta).toMatchObject({
      Document: 'MSA, final.docx', Version: '2', Open: String(entries.open), Accepted: '1', Rejected: '1', Entries: String(entries.total),
      Changes: String(review.track!.items.length),
    });
    expect(Date.parse(meta.Generated!)).toBeGreaterThan(Date.now() - 60_000);
    expect(records[8]!.every((c) => c === '')).toBe(true);
    expect(records[9]).toEqual(REPORT_COLUMNS.map(([, title]) => title));
    const rows = csvRows(records);
    expect(rows).toHaveLength(review.track!.entries!.length);
    // Grouped by state: every open change, then the accepted, then the rejected; each group in track order.
    expect(rows.map((r) => r.decision)).toEqual([...rows.map((r) => r.decision)].sort((x, y) => ['Open', 'Accepted', 'Rejected'].indexOf(x!) - ['Open', 'Accepted', 'Rejected'].indexOf(y!)));
    const byRef = new Map(review.track!.items.map((i) => [i.id, i]));
    const rejected = rows.find((r) => r.ref === decided.rejected)!;
    expect(rejected).toMatchObject({ decision: 'Rejected', decidedBy: 'report <report@firm.example>', note: 'Too wide, "as discussed";\nsee the call notes.' });
    expect(Date.parse(rejected.decidedAt!)).toBeGreaterThan(0);
    expect(rows.find((r) => r.ref === decided.accepted)).toMatchObject({ decision: 'Accepted', note: "'+ fine" });
    const open = rows.find((r) => r.ref === decided.open)!;
    expect(open).toMatchObject({ decision: 'Open', decidedBy: '', note: '' });
    expect(open.justification).toBe(review.track!.items.find((i) => i.id === decided.open)!.justification ?? '');
    // Clauses as the API gives them (the demo's clauses are numbered), and a move as one "Move".
    const revisionOf = new Map(review.revisions.map((r) => [r.change_id, r]));
    for (const row of rows) {
      const item = byRef.get(row.ref!)!;
      expect(row.clause).toBe(item.clause ?? '');
      if (item.state === 'open') expect(row.clause).toBe(revisionOf.get(item.id)!.clause ?? '');
    }
    expect(rows.filter((r) => r.clause).length).toBeGreaterThan(0);
    const moves = review.revisions.filter((r) => r.move).length;
    expect(moves).toBeGreaterThan(0);
    expect(rows.filter((r) => r.kind === 'Move')).toHaveLength(moves);
    const proposal = rows.find((r) => r.preview === "Inserted '(as amended)'")!;
    expect(proposal.justification).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(rows.every((r) => Object.values(r).every((v) => !/^[=+\-@]/.test(v!)))).toBe(true);
    // Then the checks' findings still standing (issue 35), as GET …/checks answers them.
    const checks = ChecksAnswer.parse((await call('GET', `/api/documents/${draftId}/checks`)).json());
    const header = records.findIndex((r) => r[0] === 'Check finding');
    expect(checks.findings.length).toBeGreaterThan(0);
    expect(records.slice(header + 1).map((r) => r[3])).toEqual(checks.findings.map((f) => f.message));
    expect(records.slice(header + 1).map((r) => r[1])).toEqual(checks.findings.map((f) => String(f.page)));
  });

  it('names each change by its stable reference beside "Change n", so a proposal that renumbers the changes leaves the decided one found', async () => {
    const id = await newDraft('Renumbered.docx', buildDemoContract());
    const before = ReviewResponse.parse((await call('GET', `/api/documents/${id}/review`)).json());
    const last = before.revisions[before.revisions.length - 1]!.change_id;
    const labelBefore = before.track!.items.find((i) => i.id === last)!.label;
    await call('POST', `/api/documents/${id}/revisions/apply`, { rejected_change_ids: [last], notes: { [last]: 'Not this one.' } });
    // A proposal at the top of the document: every change after it moves down one number.
    const proposed = await call('POST', `/api/documents/${id}/redlines`, { edits: [{ op: 'insert', find: 'Agreement', text: ' (restated)' }] });
    expect(proposed.statusCode).toBe(200);
    const after = ReviewResponse.parse((await call('GET', `/api/documents/${id}/review`)).json());
    const labelAfter = after.track!.items.find((i) => i.id === last)!.label;
    expect(labelAfter).not.toBe(labelBefore);

    const rows = csvRows(parseCsv((await call('GET', `/api/documents/${id}/report.csv`)).rawPayload.toString('utf8').slice(1)));
    expect(rows.map((r) => r.ref).sort()).toEqual(after.track!.entries!.map((e) => e.id).sort());
    expect(rows.find((r) => r.ref === last)).toMatchObject({ label: labelAfter, decision: 'Rejected', note: 'Not this one.' });
    // The one row holding the note is the change decided, under its new number.
    expect(rows.filter((r) => r.note === 'Not this one.').map((r) => r.ref)).toEqual([last]);

    if (!hasPdftotext) return;
    const file = path.join(work, 'renumbered.pdf');
    writeFileSync(file, (await call('GET', `/api/documents/${id}/report.pdf`)).rawPayload);
    const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
    for (const row of rows) expect(text).toContain(`${row.label} (ref ${row.ref})`);
  });

  it("counts and lists entries as the review page does, on lab-protocol drafts with decisions (some implied) and a comment", async () => {
    const words: Record<string, string> = { open: 'Open', in: 'Accepted', back: 'Rejected' };
    const numbers = (changes: string) => changes.split(', ').flatMap((part) => {
      const [a, b] = part.split('–').map(Number);
      return Array.from({ length: (b ?? a!) - a! + 1 }, (_, i) => a! + i);
    });
    for (const seed of [1, 2, 3]) {
      const id = await newDraft(`Lab protocol ${seed}.docx`, generateLabProtocol(seed));
      let review = ReviewResponse.parse((await call('GET', `/api/documents/${id}/review`)).json());
      // Decide every other entry, the move rejected (it may take rows with it).
      for (const [i, entry] of review.track!.entries!.entries()) {
        if (i % 2 === 1) continue;
        const state = review.track!.entries!.find((e) => e.id === entry.id)!;
        const open = state.members.filter((m) => review.track!.items.find((x) => x.id === m)!.state === 'open');
        if (!open.length) continue;
        const move = review.track!.items.some((x) => open.includes(x.id) && x.move);
        const res = await call('POST', `/api/documents/${id}/revisions/apply`, move || i % 4 === 2
          ? { accepted_change_ids: [], rejected_change_ids: open } : { accepted_change_ids: open, rejected_change_ids: [] });
        expect(res.statusCode, res.body).toBe(200);
        review = ReviewResponse.parse(res.json());
      }
      const commented = review.track!.entries!.find((e) => e.state === 'open');
      if (commented) expect((await call('POST', `/api/documents/${id}/comments`, { changeId: commented.members[0], text: 'Check against the SOP.' })).statusCode).toBe(200);
      review = ReviewResponse.parse((await call('GET', `/api/documents/${id}/review`)).json());
      const shown = countEntries(review.track!.items);
      const records = parseCsv((await call('GET', `/api/documents/${id}/report.csv`)).rawPayload.toString('utf8').slice(1));
      const meta = Object.fromEntries(records.slice(0, 8).map((r) => [r[0], r[1]]));
      expect(meta, `seed ${seed}`).toMatchObject({ Open: String(shown.open), Accepted: String(shown.in), Rejected: String(shown.back), Entries: String(shown.total) });
      const rows = csvRows(records);
      expect(rows).toHaveLength(shown.total!);
      // Every change is in exactly one row, under its entry's state.
      const listed = rows.flatMap((r) => numbers(r.changes!));
      expect(listed.sort((a, b) => a - b)).toEqual(review.track!.items.map((_, i) => i + 1));
      for (const e of review.track!.entries!) expect(rows.find((r) => r.ref === e.id)!.decision).toBe(words[e.state]);
      if (commented) expect(rows.find((r) => r.ref === commented.id)!.comments).toContain('Check against the SOP.');
    }
  });

  it('neutralises exactly the cells a spreadsheet would run, also behind invisible characters', () => {
    // Issue 31 item 8: what a spreadsheet may skip before a formula sign, by kind.
    const invisible = fc.constantFrom(' ', '\t', '\r', '\n', '\u00a0', '\u2007', '\u202f', '\u3000', '\u2028', '\u2029', '\u200b', '\u200c',
      '\u200d', '\u2060', '\ufeff', '\u200e', '\u200f', '\u202e', '\u00ad', '\u034f', '\ufe0f', '\u180e', '\u115f', '\u3164', '\u0000', '\u001f', '\u0085');
    const sign = fc.constantFrom('=', '+', '-', '@', '\uff1d', '\uff0b', '\uff0d', '\uff20');
    const formula = fc.tuple(fc.array(invisible, { maxLength: 4 }), sign, fc.string()).map(([lead, s, rest]) => `${lead.join('')}${s}${rest}`);
    fc.assert(fc.property(formula, (s) => {
      expect(neutraliseFormula(s)).toBe(`'${s}`);
    }), { seed: 31, numRuns: 1000 });
    for (const cell of ['\u00a0=HYPERLINK("http://evil.example","x")', '\u200b=1+1', '\ufeff@SUM(A1)', '\t\u00a0-2+3', '\r\n+1']) {
      expect(neutraliseFormula(cell)).toBe(`'${cell}`);
    }
    // Text whose first visible sign is anything else, with nothing invisible in front of it, goes out as it is.
    const plain = fc.tuple(fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }), fc.string())
      .filter(([first]) => !/^[\s\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}=+\-@\uff1d\uff0b\uff0d\uff20]/u.test(first))
      .map(([first, rest]) => first + rest);
    fc.assert(fc.property(plain, (s) => {
      expect(neutraliseFormula(s)).toBe(s);
    }), { seed: 14, numRuns: 500 });
  });

  it.skipIf(!hasPdftotext)('PDF: a real PDF with an embedded npm font; its text says what the CSV says', async () => {
    const res = await call('GET', `/api/documents/${draftId}/report.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/FontName \/[A-Z]{6}\+DejaVuSans-Bold/);
    const file = path.join(work, 'report.pdf');
    writeFileSync(file, pdf);
    const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
    const review = ReviewResponse.parse((await call('GET', `/api/documents/${draftId}/review`)).json());
    expect(text).toContain('Decision report');
    expect(text).toContain('MSA, final.docx');
    const entries = countEntries(review.track!.items);
    expect(text).toContain(`2 of ${entries.total} entries decided (1 accepted, 1 rejected); ${entries.open} open`);
    expect(text).toMatch(/Open \(\d+\)[\s\S]*Accepted \(1\)[\s\S]*Rejected \(1\)/);
    expect(text).toContain('Too wide, "as discussed";');
    expect(text).toContain('by report <report@firm.example> on');
    for (const e of review.track!.entries!) expect(text).toContain(`(ref ${e.id})`);
    const clause = review.track!.items.find((i) => i.clause)!.clause!;
    expect(text).toContain(`Clause ${clause} ·`);
    expect(text).toMatch(/(^|· |\s)Move · /m);
    const checks = ChecksAnswer.parse((await call('GET', `/api/documents/${draftId}/checks`)).json());
    expect(text).toContain(`Check findings still standing (${checks.findings.length})`);
  });

  it.skipIf(!hasPdftotext || lacksShared('the Arabic PDF report', 'files/TestFiles__RP__RP051-Arabic.docx'))('PDF: Arabic from the corpus comes out as Arabic text (shaped glyphs map back to the letters)', async () => {
    const id = await newDraft('عقد.docx', readFileSync(ARABIC_CORPUS));
    const review = ReviewResponse.parse((await call('GET', `/api/documents/${id}/review`)).json());
    const arabic = review.revisions.find((r) => r.text_preview === 'هذا المؤتمر')!;
    await call('POST', `/api/documents/${id}/revisions/apply`, { rejected_change_ids: [arabic.change_id], notes: { [arabic.change_id]: 'مرفوض: الصياغة غير واضحة' } });
    const res = await call('GET', `/api/documents/${id}/report.pdf`);
    expect(res.statusCode).toBe(200);
    const file = path.join(work, 'arabic.pdf');
    writeFileSync(file, res.rawPayload);
    // pdftotext reads glyphs back through the ToUnicode map; it gives the letters of each word
    // (their order on the line is the viewer's business, which the rendered page shows).
    const text = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout.normalize('NFKC');
    for (const word of ['المؤتمر', 'مرفوض', 'الصياغة']) expect(text).toContain(word);
  });

  it('orders a line\'s runs visually by the bidirectional algorithm', () => {
    const para = new BidiParagraph('عقد الخدمات.docx (v2)');
    expect(para.rtl).toBe(true);
    const runs = para.visualRuns(0, 'عقد الخدمات.docx (v2)'.length);
    // Right-to-left paragraph: the Latin part sits at the left, the Arabic at the right.
    expect(runs.map((r) => r.rtl)).toContain(true);
    expect(runs[runs.length - 1]!.text.startsWith('عقد')).toBe(true);
    const ltr = new BidiParagraph('Clause 4 says هذا المؤتمر today');
    expect(ltr.rtl).toBe(false);
    expect(ltr.visualRuns(0, 31).map((r) => r.text.trim())).toEqual(['Clause 4 says', 'هذا المؤتمر', 'today']);
  });
});
