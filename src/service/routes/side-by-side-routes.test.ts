import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { SideBySideAnswer } from '../../contract/side-by-side';
import { generateFixture } from '../../../test/conformance/decision-fixtures';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

/**
 * GET /documents/{id}/side-by-side over HTTP: the views are made on an engine thread (seconds of
 * work on a long draft must not hold the thread answering every request), kept by content, and
 * confined to the draft's organisation.
 */
describe('the side-by-side route', () => {
  let t: TestService;
  let alice: SessionGrant;
  let bob: SessionGrant;

  beforeAll(async () => {
    t = await startTestService();
    alice = await t.signUpAndSignIn('alice@side-a.example');
    bob = await t.signUpAndSignIn('bob@side-b.example');
  });
  afterAll(async () => t.destroy());

  async function draftOf(grant: SessionGrant, bytes: Uint8Array): Promise<string> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'generated.docx', bytes });
    const upload = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(grant) } });
    expect(upload.statusCode).toBe(201);
    const draft = await t.app.inject({ method: 'POST', url: `/api/uploads/${upload.json().id}/working-draft`, headers: t.headers(grant) });
    return draft.json().id as string;
  }

  it('makes the views on an engine thread once per content, and maps every redline paragraph', async () => {
    const draft = await draftOf(alice, generateFixture(7).bytes);
    const onThread = vi.spyOn(t.ctx.engineThreads, 'sideBySide');
    const first = await t.app.inject({ method: 'GET', url: `/api/documents/${draft}/side-by-side`, headers: t.headers(alice) });
    expect(first.statusCode).toBe(200);
    const answer = SideBySideAnswer.parse(first.json());
    expect(onThread).toHaveBeenCalledTimes(1);
    expect(first.headers.etag).toBe(`"${answer.contentSha256}"`);
    const mapped = answer.redline.olderParagraph.filter((j): j is number => j !== null);
    expect(mapped).toEqual([...mapped].sort((a, b) => a - b));
    expect(mapped.every((j) => j < answer.older.paragraphs)).toBe(true);
    const again = await t.app.inject({ method: 'GET', url: `/api/documents/${draft}/side-by-side`, headers: t.headers(alice) });
    expect(again.json()).toEqual(first.json());
    expect(onThread).toHaveBeenCalledTimes(1);
    onThread.mockRestore();
  });

  it("answers 404 for another organisation's draft, never the views", async () => {
    const draft = await draftOf(alice, generateFixture(8).bytes);
    const res = await t.app.inject({ method: 'GET', url: `/api/documents/${draft}/side-by-side`, headers: t.headers(bob) });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});
