/**
 * Issue 32 item 2 through the HTTP API: the review's entries (track.entries, and the items'
 * group) are formed on the draft as its review began and kept through every decision; each open
 * entry says what deciding it takes with it (takes), and the changes a decision took are listed
 * decided, implied, naming the change that took them (takenWith). The engine-level property on
 * the corpus and generated drafts is test/conformance/entry-partition.test.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { ReviewResponse } from '../../contract/review';
import type { Track } from '../../contract/track';
import { Prng } from '../../docx/fixture/prng';
import { generateFixture } from '../../../test/conformance/decision-fixtures';
import { generateLabProtocol } from '../../../test/conformance/entry-fixtures';
import { minimalDocx } from '../../../test/support/docx-files';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

/** Each entry's open members but `without`, sorted: a partition that a join's reordering leaves alone. */
function partition(track: Track, without: ReadonlySet<string> = new Set()): string {
  const open = new Set(track.items.filter((i) => i.state === 'open').map((i) => i.id));
  return track.entries!
    .map((e) => e.members.filter((id) => open.has(id) && !without.has(id)).sort().join(' '))
    .filter(Boolean).sort().join('; ');
}

describe('entries formed on the baseline, through the service', () => {
  let t: TestService;
  let lawyer: SessionGrant;

  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('entries@firm.example');
  });
  afterAll(async () => t.destroy());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(lawyer), ...(payload ? { payload } : {}) });

  async function draftOf(bytes: Uint8Array): Promise<string> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'generated.docx', bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    expect(created.statusCode).toBe(201);
    const draft = await call('POST', `/api/uploads/${created.json().id}/working-draft`);
    expect(draft.statusCode).toBe(201);
    return draft.json().id;
  }

  const review = async (id: string) => ReviewResponse.parse((await call('GET', `/api/documents/${id}/review`)).json()).track!;

  async function playReview(bytes: Uint8Array, planSeed: number): Promise<void> {
    const rng = new Prng(planSeed);
    const draft = await draftOf(bytes);
    let track = await review(draft);
    const total = track.entries!.length;
    expect(track.counts.total).toBe(track.items.length);
    for (let step = 0; step < 4; step++) {
      const open = track.entries!.filter((e) => e.state === 'open');
      if (!open.length) return;
      const entry = rng.pick(open);
      const verdict = rng.next() < 0.5 ? 'accept' : 'reject';
      const named = entry.members.filter((id) => track.items.find((i) => i.id === id)!.state === 'open');
      const said = entry.takes?.[verdict] ?? [];
      const res = await call('POST', `/api/documents/${draft}/revisions/apply`, verdict === 'accept'
        ? { accepted_change_ids: named, rejected_change_ids: [] } : { accepted_change_ids: [], rejected_change_ids: named });
      expect(res.statusCode, res.body).toBe(200);
      const answered = ReviewResponse.parse(res.json()).track!;
      const implied = answered.items.filter((i) => i.implied && !track.items.find((b) => b.id === i.id && b.state !== 'open'));
      const label = `step ${step + 1}: ${verdict} ${entry.id} (${entry.summary})`;
      expect(implied.map((i) => i.id).sort(), `${label}: took what it said`).toEqual([...said].sort());
      for (const i of implied) if (i.takenWith) expect(named, `${label}: ${i.id} taken with one of the entry's changes`).toContain(i.takenWith);
      const expected = partition(track, new Set([...named, ...said]));
      // The answer, and a fresh read (the stored or rebuilt projection), list the same entries.
      for (const after of [answered, await review(draft)]) {
        expect(partition(after), `${label}: the other entries keep their members`).toBe(expected);
        expect(after.entries!.length, `${label}: the number of entries`).toBe(total);
        for (const item of after.items) expect(after.entries!.find((e) => e.id === (item.group ?? item.id))?.members).toContain(item.id);
      }
      track = answered;
    }
  }

  it('a decided entry keeps its page and its justification; a human change without one has none', async () => {
    const by = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';
    const draft = await draftOf(minimalDocx(
      `<w:p><w:r><w:t>Agreement one</w:t></w:r></w:p>` +
        `<w:p><w:r><w:lastRenderedPageBreak/><w:t xml:space="preserve">Second page text </w:t></w:r><w:ins w:id="1" ${by}><w:r><w:t>added</w:t></w:r></w:ins></w:p>` +
        '<w:sectPr><w:pgNumType w:fmt="upperRoman"/></w:sectPr>',
    ));
    const proposed = await call('POST', `/api/documents/${draft}/redlines`, { edits: [{ op: 'insert', find: 'Agreement', text: ' (restated)', justification: 'Needed for the SOP.' }] });
    expect(proposed.statusCode).toBe(200);
    const before = await review(draft);
    const shown = (track: Track) => track.items.map((i) => ({ page: i.page, pageLabel: i.pageLabel, justification: i.justification ?? null }));
    // Cited by the number the page prints (the section numbers its pages in roman), counted beside it.
    expect(shown(before)).toEqual([{ page: 1, pageLabel: 'I', justification: 'Needed for the SOP.' }, { page: 2, pageLabel: 'II', justification: null }]);
    const res = await call('POST', `/api/documents/${draft}/revisions/apply`, { accepted_change_ids: [before.items[0]!.id], rejected_change_ids: [before.items[1]!.id] });
    expect(res.statusCode).toBe(200);
    for (const after of [ReviewResponse.parse(res.json()).track!, await review(draft)]) {
      expect(after.items.map((i) => i.state)).toEqual(['in', 'back']);
      expect(shown(after)).toEqual(shown(before));
    }
    // The report cites the printed label, with the page of the file beside it.
    const csv = (await call('GET', `/api/documents/${draft}/report.csv`)).body;
    expect(csv).toMatch(/,II,2,/);
    expect(csv).toMatch(/,Page,Page in file,/);
  });

  it('keeps the other entries and says what a decision takes, on generated drafts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.boolean(), async (fixtureSeed, planSeed, lab) => {
        await playReview(lab ? generateLabProtocol(fixtureSeed) : generateFixture(fixtureSeed).bytes, planSeed);
      }),
      { seed: 32, numRuns: 12 },
    );
  }, 120_000);
});
