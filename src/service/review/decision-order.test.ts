/**
 * Issue 11 through the HTTP API: the same decisions posted as one batch, or as several batches in
 * a random order, give the same document, the same remaining revisions and the same track states.
 * A later batch leaves out the ids an earlier one took with it; those are decided in the track,
 * and naming them answers 409 already_decided with their ids. Generated documents combine rows,
 * cells, moves, paragraph marks and nested changes (test/conformance/decision-fixtures.ts).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { ReviewResponse } from '../../contract/review';
import { Prng } from '../../docx/fixture/prng';
import { generateFixture } from '../../../test/conformance/decision-fixtures';
import { planTrial } from '../../../test/conformance/decision-trials';
import { partsOf } from '../../../test/support/docx-files';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

describe('decisions over HTTP: one batch or many, in any order', () => {
  let t: TestService;
  let lawyer: SessionGrant;

  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('order@firm.example');
  });
  afterAll(async () => t.destroy());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(lawyer), ...(payload ? { payload } : {}) });

  async function draftsOf(bytes: Uint8Array, count: number): Promise<string[]> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'generated.docx', bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    expect(created.statusCode).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const draft = await call('POST', `/api/uploads/${created.json().id}/working-draft`);
      expect(draft.statusCode).toBe(201);
      ids.push(draft.json().id);
    }
    return ids;
  }

  const review = async (id: string) => ReviewResponse.parse((await call('GET', `/api/documents/${id}/review`)).json());

  /** Posts the batches in order, leaving out what earlier batches took; checks those are decided and answer 409. */
  async function post(draft: string, verdicts: ReadonlyMap<string, 'accept' | 'reject'>, batches: readonly string[][]) {
    let current = await review(draft);
    for (const batch of batches) {
      const listed = new Set(current.revisions.map((r) => r.change_id));
      const todo = batch.filter((id) => listed.has(id));
      const taken = batch.filter((id) => !listed.has(id));
      for (const id of taken) expect(current.track!.items.find((i) => i.id === id)?.state, `${id} was taken by an earlier batch`).not.toBe('open');
      if (taken.length) {
        const refused = await call('POST', `/api/documents/${draft}/revisions/apply`, { accepted_change_ids: taken, rejected_change_ids: [] });
        expect(refused.statusCode).toBe(409);
        expect(refused.json()).toMatchObject({ code: 'already_decided', ids: taken });
      }
      if (!todo.length) continue;
      const res = await call('POST', `/api/documents/${draft}/revisions/apply`, {
        accepted_change_ids: todo.filter((id) => verdicts.get(id) === 'accept'),
        rejected_change_ids: todo.filter((id) => verdicts.get(id) === 'reject'),
      });
      expect(res.statusCode, res.body).toBe(200);
      const next = ReviewResponse.parse(res.json());
      const appeared = next.revisions.filter((r) => !listed.has(r.change_id));
      expect(appeared, 'no batch makes a change appear').toEqual([]);
      current = next;
    }
    return current;
  }

  const documentOf = (r: ReviewResponse) => {
    const parts = partsOf(Buffer.from(r.contentBase64, 'base64'));
    return [...parts].filter(([name]) => /^word\/(document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml$/.test(name)).sort();
  };
  const statesOf = (r: ReviewResponse) => Object.fromEntries(r.track!.items.map((i) => [i.id, i.state]));

  it('same document, revisions and track states (generated documents, random decisions and orders)', async () => {
    let trials = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.boolean(), async (fixtureSeed, planSeed, decideAll) => {
        const bytes = generateFixture(fixtureSeed).bytes;
        const [one, many] = await draftsOf(bytes, 2);
        const ids = (await review(one!)).revisions.map((r) => r.change_id);
        const rng = new Prng(planSeed);
        const plan = planTrial(ids, (n) => Math.floor(rng.next() * n), { decideAll });
        const once = await post(one!, plan.verdicts, [[...plan.verdicts.keys()]]);
        const batched = await post(many!, plan.verdicts, plan.batches);
        trials++;
        expect(statesOf(batched)).toEqual(statesOf(once));
        expect(batched.track!.counts).toEqual(once.track!.counts);
        if (decideAll) expect(once.track!.counts.open).toBe(0);
        expect(batched.revisions.map((r) => r.change_id)).toEqual(once.revisions.map((r) => r.change_id));
        expect(documentOf(batched)).toEqual(documentOf(once));
      }),
      { seed: 2222, numRuns: 50 },
    );
    expect(trials).toBe(50);
  }, 240_000);

  it('accepting an inserted row leaves the changes inside it open; rejecting it takes them, recorded and refused after', async () => {
    // Row inserted (c1) holding an insertion (c2) and a deletion (c3).
    const { minimalDocx } = await import('../../../test/support/docx-files');
    const row = (id: number) =>
      `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:trPr><w:ins w:id="${id}" w:author="A" w:date="2025-01-01T00:00:00Z"/></w:trPr><w:tc><w:p><w:ins w:id="${id + 1}" w:author="A" w:date="2025-01-01T00:00:00Z"><w:r><w:t>new </w:t></w:r></w:ins><w:del w:id="${id + 2}" w:author="A" w:date="2025-01-01T00:00:00Z"><w:r><w:delText>old</w:delText></w:r></w:del></w:p></w:tc></w:tr></w:tbl><w:p/>`;
    const [accepting, rejecting] = await draftsOf(minimalDocx(row(1)), 2);
    const accepted = ReviewResponse.parse((await call('POST', `/api/documents/${accepting}/revisions/apply`, { accepted_change_ids: ['c1'], rejected_change_ids: [] })).json());
    expect(accepted.revisions.map((r) => r.change_id)).toEqual(['c2', 'c3']);
    const rejected = ReviewResponse.parse((await call('POST', `/api/documents/${rejecting}/revisions/apply`, { accepted_change_ids: [], rejected_change_ids: ['c1'] })).json());
    expect(rejected.revisions).toEqual([]);
    expect(statesOf(rejected)).toEqual({ c1: 'back', c2: 'back', c3: 'back' });
    const again = await call('POST', `/api/documents/${rejecting}/revisions/apply`, { accepted_change_ids: ['c2'], rejected_change_ids: [] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'already_decided', ids: ['c2'] });
  }, 60_000);

  it("reads a draft's decision facts on its baseline, also on an instance that never saw the draft before", async () => {
    // A paragraph mark at a control's end (c1) whose join waits for the control's tracked
    // boundary (c3); rejected, the mark takes the properties of the paragraph before the control
    // (c2) once the boundary goes. Read before each batch instead, the facts of the later batches
    // no longer hold c1's take, and the track disagrees with one batch.
    const { minimalDocx } = await import('../../../test/support/docx-files');
    const A = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';
    const r = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr>${r('before')}</w:p>` +
        `<w:customXmlInsRangeStart w:id="3" ${A}/><w:sdt><w:sdtPr/><w:sdtContent><w:customXmlInsRangeEnd w:id="3"/>` +
        `<w:p><w:pPr><w:rPr><w:ins w:id="1" ${A}/></w:rPr></w:pPr>${r('inside')}</w:p></w:sdtContent></w:sdt>` +
        `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:tc><w:p>${r('cell')}</w:p></w:tc></w:tr></w:tbl><w:p>${r('after')}</w:p>`,
    );
    const verdicts = new Map<string, 'accept' | 'reject'>([['c1', 'reject'], ['c2', 'accept'], ['c3', 'reject']]);
    const [one, many] = await draftsOf(docx, 2);
    const once = await post(one!, verdicts, [['c1', 'c2', 'c3']]);
    expect(statesOf(once)).toEqual({ c1: 'back', c2: 'back', c3: 'back' });
    await post(many!, verdicts, [['c1']]);
    // The later batches on a second instance: nothing of the draft in its memory.
    const { createService } = await import('../app');
    const other = await createService(t.config, { db: t.ctx.db, logger: false });
    try {
      // Rejecting the boundary settles the join: c2 goes with it, taken by the earlier c1.
      const answer = await other.app.inject({
        method: 'POST', url: `/api/documents/${many}/revisions/apply`, headers: t.headers(lawyer), payload: { accepted_change_ids: [], rejected_change_ids: ['c3'] },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      const last = ReviewResponse.parse(answer.json());
      expect(last.revisions).toEqual([]);
      expect(statesOf(last)).toEqual(statesOf(once));
      expect(documentOf(last)).toEqual(documentOf(once));
    } finally {
      await other.close();
    }
  }, 60_000);
});
