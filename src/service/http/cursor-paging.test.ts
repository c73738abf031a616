import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { DocumentText } from '../../contract/reading';
import { buildDocx, p } from '../../docx/fixture';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/**
 * Issue 31 item 9: every cursor-paged route (the upload list, a document's text) answers a cursor
 * that does not decode to a position it could have given with 400 invalid_cursor, never 500.
 */
describe('cursor paging', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let draft: DocumentRow;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('pager@firm.example', 'Pager LLP');
    for (let i = 0; i < 3; i++) {
      const body = multipartBody({ purpose: 'source_doc' }, { name: `Terms ${i}.docx`, bytes: buildDocx({ body: [p('One.'), p('Two.'), p('Three.')] }) });
      const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
      expect(created.statusCode, created.body).toBe(201);
      draft = created.json() as DocumentRow;
    }
  });
  afterAll(async () => t.destroy());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers(lawyer) });
  const listWith = (cursor: string) => get(`/api/uploads?limit=1&cursor=${encodeURIComponent(cursor)}`);
  const textWith = (cursor: string) => get(`/api/uploads/${draft.id}/text?limit=1&cursor=${encodeURIComponent(cursor)}`);

  it('refuses upload-list cursors holding a date Postgres cannot hold, or an id no row has, with 400 invalid_cursor', async () => {
    const refused = [
      b64(JSON.stringify({ t: '+275760-09-13T00:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' })),
      b64(JSON.stringify({ t: '-271821-04-20T00:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' })),
      b64(JSON.stringify({ t: '2025-02-30T00:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' })),
      b64(JSON.stringify({ t: 'Tue, 01 Jan 2030 00:00:00 GMT', id: '00000000-0000-4000-8000-000000000000' })),
      b64(JSON.stringify({ t: '2025-01-01T00:00:00.000Z', id: 'x\u0000y' })),
      b64(JSON.stringify(null)),
      b64(JSON.stringify(7)),
      'garbage',
    ];
    for (const cursor of refused) {
      const res = await listWith(cursor);
      expect(res.statusCode, `${cursor}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_cursor' });
    }
  });

  it('refuses document-text cursors past the end, of another shape or of an unknown view with 400 invalid_cursor', async () => {
    const first = DocumentText.parse((await get(`/api/uploads/${draft.id}/text?limit=1`)).json());
    expect(first.nextCursor).toEqual(expect.any(String));
    const content = Buffer.from(first.nextCursor!, 'base64url').toString().split(':')[0]!;
    expect((await textWith(first.nextCursor!)).statusCode).toBe(200);
    for (const cursor of [`${content}:accepted:99`, `${content}:accepted:9007199254740993`, `${content}:accepted:1e3`,
      `${content}:accepted:-1`, `${content}:accepted:0`, `${content}:accepted:1:2`, `${content}:everything:1`, `${content}:accepted:`]) {
      const res = await textWith(b64(cursor));
      expect(res.statusCode, `${cursor}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_cursor' });
    }
  });

  it('never answers 500 to a random cursor on either route', async () => {
    const first = DocumentText.parse((await get(`/api/uploads/${draft.id}/text?limit=1`)).json());
    const content = Buffer.from(first.nextCursor!, 'base64url').toString().split(':')[0]!;
    const date = fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString()));
    const cursor = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 60 }).map(b64),
      fc.record({ t: fc.oneof(date, fc.string({ unit: 'binary' })), id: fc.oneof(fc.uuid(), fc.string({ unit: 'binary' })) }).map((c) => b64(JSON.stringify(c))),
      fc.tuple(fc.constantFrom(content, 'ffffffffffffffff'), fc.constantFrom('markup', 'accepted', 'rejected', ''), fc.oneof(fc.integer().map(String), fc.string()))
        .map((parts) => b64(parts.join(':'))),
    );
    await fc.assert(fc.asyncProperty(cursor, async (raw) => {
      for (const res of [await listWith(raw), await textWith(raw)]) {
        expect(res.statusCode, `${JSON.stringify(raw)}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode === 400) expect(['invalid_cursor', 'invalid_request']).toContain(res.json().code);
      }
    }), { numRuns: 150 });
  });
});
