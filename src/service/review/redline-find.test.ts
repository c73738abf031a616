import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { ReviewResponse } from '../../contract/review';
import { applyDecisions } from '../../docx';
import { buildDocx, footnote, p } from '../../docx/fixture';
import { readPart } from '../../../test/support/docx-files';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

/** Issue 11.5 through the redline edits route: finds across paragraphs and in every story. */
describe('redline edits route: find across paragraphs and stories', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('finder@firm.example');
  });
  afterAll(async () => t.destroy());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: t.headers(lawyer), ...(payload ? { payload } : {}) });

  async function newDraft(bytes: Uint8Array): Promise<DocumentRow> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Terms.docx', bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    expect(created.statusCode).toBe(201);
    const draft = await call('POST', `/api/uploads/${created.json().id}/working-draft`);
    expect(draft.statusCode).toBe(201);
    return draft.json() as DocumentRow;
  }

  it('writes tracked edits over a paragraph boundary, in the header and in a footnote; accepting them gives the edited text', async () => {
    const draft = await newDraft(
      buildDocx({
        body: [p('Payment is due in sixty days.'), p('Late payment bears interest', footnote(p('Interest: two per cent a month.')), '.')],
        header: [p('Draft terms of payment')],
      }),
    );
    const res = await call('POST', `/api/documents/${draft.id}/redlines`, {
      edits: [
        { op: 'replace', find: 'sixty days.\nLate payment bears', text: 'thirty days; late payment bears', justification: 'One sentence.' },
        { op: 'delete', find: 'Draft ', justification: 'Final.' },
        { op: 'replace', find: 'two per cent', text: 'one per cent', justification: 'Market rate.' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = ReviewResponse.parse(res.json());
    expect(after.revisions.map((x) => x.kind)).toEqual(expect.arrayContaining(['paragraph_mark', 'delete', 'insert']));
    expect(after.revisions.every((x) => x.author === 'finder')).toBe(true);
    const bytes = new Uint8Array(Buffer.from(after.contentBase64, 'base64'));
    const accepted = applyDecisions(bytes, { accept: after.revisions.map((x) => x.change_id), reject: [] });
    const text = (part: string) => readPart(accepted, part).replace(/<[^>]+>/g, '');
    expect(text('word/document.xml')).toContain('Payment is due in thirty days; late payment bears interest');
    expect(text('word/header1.xml')).toContain('terms of payment');
    expect(text('word/header1.xml')).not.toContain('Draft');
    expect(text('word/footnotes.xml')).toContain('Interest: one per cent a month.');

    const missing = await call('POST', `/api/documents/${draft.id}/redlines`, { edits: [{ op: 'delete', find: 'interest\nInterest' }] });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ code: 'edit_not_found' });
  });
});
