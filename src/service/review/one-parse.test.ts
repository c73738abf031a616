/**
 * One parse per draft (issue 36.2): the review read leaves the parsed draft in the open-drafts
 * cache, so the first batch on a draft just read does not parse it again; Server-Timing says
 * whether a request found the draft open (`open;desc="hit"`) or parsed it (`open;desc="parse"`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { ReviewResponse } from '../../contract/review';
import { buildDemoContract } from '../../docx/fixture';
import { multipartBody, startTestService, type TestService, signedInCaller } from '../../../test/support/test-service';

describe('one parse per draft', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let call: ReturnType<typeof signedInCaller>;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('one-parse@firm.example');
    call = signedInCaller(t, lawyer);
  });
  afterAll(async () => t.destroy());

  async function newUpload(): Promise<string> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    expect(created.statusCode).toBe(201);
    return (created.json() as { id: string }).id;
  }
  async function newDraft(uploadId: string): Promise<DocumentRow> {
    const draft = await call('POST', `/api/uploads/${uploadId}/working-draft`);
    expect(draft.statusCode).toBe(201);
    return draft.json() as DocumentRow;
  }
  /** The Server-Timing entries named `name`, with their descriptions. */
  const entries = (header: unknown, name: string) => String(header ?? '').split(',').map((s) => s.trim()).filter((s) => s.startsWith(`${name};`));

  for (const prefer of [{}, { prefer: 'return=minimal' }] as Record<string, string>[]) {
    it(`the first apply after the review read finds the draft open (${prefer['prefer'] ?? 'full answer'})`, async () => {
      // Two drafts of one upload: the second's content is already analysed (same hash), its review read must still leave a parsed draft.
      const uploadId = await newUpload();
      for (const draft of [await newDraft(uploadId), await newDraft(uploadId)]) {
        const read = await call('GET', `/api/documents/${draft.id}/review`);
        expect(read.statusCode).toBe(200);
        // The read parses (the second draft's analysis was cached: it parses to leave the draft open).
        expect(entries(read.headers['server-timing'], 'open')).toEqual([expect.stringMatching(/^open;desc="parse";dur=[\d.]+$/)]);
        const ids = ReviewResponse.parse(read.json()).revisions.map((r) => r.change_id);
        const res = await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: ids.slice(0, 2) }, prefer);
        expect(res.statusCode).toBe(200);
        expect(entries(res.headers['server-timing'], 'open')).toEqual([expect.stringMatching(/^open;desc="hit";dur=[\d.]+$/)]);
      }
    });
  }

  it("a page's three opening reads, sent at once, parse a draft nobody read yet once", async () => {
    // The review page asks for the review, the render variant and the pages around its first change side by side.
    const draft = await newDraft(await newUpload());
    const reads = await Promise.all([
      call('GET', `/api/documents/${draft.id}/review`, undefined, { prefer: 'return=minimal' }),
      call('GET', `/api/documents/${draft.id}/render`),
      call('GET', `/api/documents/${draft.id}/render-window?at=here`),
    ]);
    for (const read of reads) expect(read.statusCode, read.body.slice(0, 200)).toBe(200);
    const timings = reads.map((r) => r.headers['server-timing']);
    // Each read that came while the first was analysing waited for its analysis (`analyse;desc="shared"`) rather than parsing again.
    expect(timings.flatMap((h) => entries(h, 'open')).filter((e) => e.startsWith('open;desc="parse"'))).toHaveLength(1);
  });

  it('a draft whose parsed copy another draft took is parsed, and says so', async () => {
    // Two drafts with the same content: one parsed copy, kept under the content hash, which the first batch takes.
    const uploadId = await newUpload();
    const [one, two] = [await newDraft(uploadId), await newDraft(uploadId)];
    const ids = ReviewResponse.parse((await call('GET', `/api/documents/${one.id}/review`)).json()).revisions.map((r) => r.change_id);
    const took = await call('POST', `/api/documents/${two.id}/revisions/apply`, { accepted_change_ids: ids.slice(0, 1) });
    expect(entries(took.headers['server-timing'], 'open')).toEqual([expect.stringMatching(/^open;desc="hit";dur=[\d.]+$/)]);
    const parsed = await call('POST', `/api/documents/${one.id}/revisions/apply`, { accepted_change_ids: ids.slice(0, 1) });
    expect(parsed.statusCode).toBe(200);
    expect(entries(parsed.headers['server-timing'], 'open')).toEqual([expect.stringMatching(/^open;desc="parse";dur=[\d.]+$/)]);
  });
});
