import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { openDocx } from '../../docx';
import { del, dr, ins, otherWriterDocx, r } from '../../../test/support/docx-files';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

/** Issue 11.4: packages Word opens that other writers make are accepted by the upload route (415 before). */
describe('uploads of packages other writers make', () => {
  let t: TestService;
  let alice: SessionGrant;
  beforeAll(async () => {
    t = await startTestService();
    alice = await t.signUpAndSignIn('alice@other-writers.example');
  });
  afterAll(async () => t.destroy());

  const body = `<w:p>${r('Kept ')}${ins(1, r('added'))}${del(2, dr(' gone'))}</w:p>`;
  const variants: [string, Parameters<typeof otherWriterDocx>[1]][] = [
    ['the main part typed by Default Extension="xml"', { defaultTyped: true }],
    ['an absolute officeDocument target', { absoluteTarget: true }],
    ['parts starting with a UTF-8 byte-order mark', { bom: ['[Content_Types].xml', '_rels/.rels', 'word/document.xml'] }],
  ];
  for (const [what, opts] of variants) {
    it(`accepts ${what} (201) and keeps its revisions`, async () => {
      const form = multipartBody({ purpose: 'source_doc' }, { name: 'Other.docx', bytes: otherWriterDocx(body, opts) });
      const res = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: form.payload, headers: { ...form.headers, ...t.headers(alice) } });
      expect(res.statusCode, res.body).toBe(201);
      const content = await t.app.inject({ method: 'GET', url: `/api/uploads/${res.json().id}/content`, headers: t.headers(alice) });
      expect(content.statusCode).toBe(200);
      expect(openDocx(new Uint8Array(content.rawPayload)).revisions().map((x) => x.kind)).toEqual(['insert', 'delete']);
    });
  }
});
