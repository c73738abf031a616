import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { DocumentText, type Block, type ParagraphBlock } from '../../contract/reading';
import { openDocx } from '../../docx';
import { buildDemoContract, buildDocx, p } from '../../docx/fixture';
import { mcpClientFor } from '../../../test/support/mcp-client';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

function paragraphsOf(blocks: readonly Block[]): ParagraphBlock[] {
  return blocks.flatMap((b) => (b.type === 'paragraph' ? [b] : b.rows.flatMap((r) => r.cells.flatMap((c) => paragraphsOf(c.blocks)))));
}

/** Caps low enough for small drafts to pass them (the defaults are 50,000 paragraphs and 32 MB). */
const MAX_PARAGRAPHS = 40;
const MAX_TEXT_BYTES = 200_000;

/**
 * Issue 31 items 6 and 7: what a write makes of a draft is held to the caps an upload is held to
 * (DOCX_MAX_PARAGRAPHS, DOCX_MAX_TEXT_BYTES), and anchored edits act on the body, headers,
 * footers and notes only, never on a comment's words.
 */
describe('redline writes: the upload caps and the stories edits act on', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  beforeAll(async () => {
    t = await startTestService({ docxWork: { maxParagraphs: MAX_PARAGRAPHS, maxStoryBytes: MAX_TEXT_BYTES } });
    lawyer = await t.signUpAndSignIn('bounds@firm.example', 'Bounds LLP');
  });
  afterAll(async () => t.destroy());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(lawyer), ...(payload ? { payload } : {}) });

  async function upload(bytes: Uint8Array, name = 'Terms.docx'): Promise<DocumentRow> {
    const body = multipartBody({ purpose: 'source_doc' }, { name, bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as DocumentRow;
  }
  async function draftOf(bytes: Uint8Array): Promise<DocumentRow> {
    const draft = await call('POST', `/api/uploads/${(await upload(bytes)).id}/working-draft`);
    expect(draft.statusCode, draft.body).toBe(201);
    return draft.json() as DocumentRow;
  }
  const row = async (id: string) => (await call('GET', `/api/uploads/${id}`)).json() as DocumentRow;
  const blocks = async (id: string) => paragraphsOf(DocumentText.parse((await call('GET', `/api/uploads/${id}/text?limit=1000`)).json()).blocks);
  const clauses = (n: number, words = 'The parties agree to this clause.') => buildDocx({ body: Array.from({ length: n }, (_, i) => p(`${i + 1}. ${words}`)) });

  it('refuses with 413 (the upload\'s problem, naming the setting) a batch whose result has more paragraphs than DOCX_MAX_PARAGRAPHS, storing nothing', async () => {
    const draft = await draftOf(clauses(MAX_PARAGRAPHS - 5));
    const [first] = await blocks(draft.id);
    const insert = (n: number) => Array.from({ length: n }, (_, i) => ({ op: 'insert_paragraph', blockId: first!.id, text: `New clause ${i + 1}.` }));
    const over = await call('POST', `/api/documents/${draft.id}/redlines`, { edits: insert(10) });
    expect(over.statusCode, over.body).toBe(413);
    expect(over.json()).toMatchObject({ code: 'payload_too_large', limit: 'DOCX_MAX_PARAGRAPHS' });
    expect((await row(draft.id)).contentSha256).toBe(draft.contentSha256);
    expect((await call('GET', `/api/documents/${draft.id}/review`)).json().track.items).toHaveLength(0);
    // Under the cap the same kind of batch goes through, and the result uploads again.
    const under = await call('POST', `/api/documents/${draft.id}/redlines`, { edits: insert(3) });
    expect(under.statusCode, under.body).toBe(200);
    const written = (await call('GET', `/api/uploads/${draft.id}/content`)).rawPayload;
    await upload(new Uint8Array(written), 'Again.docx');
  });

  it('refuses with 413 a batch, or a comment, whose result holds more XML than DOCX_MAX_TEXT_BYTES, storing nothing', async () => {
    const draft = await draftOf(clauses(20));
    const [first] = await blocks(draft.id);
    const long = (n: number) => 'x'.repeat(n);
    const over = await call('POST', `/api/documents/${draft.id}/redlines`, {
      edits: [{ op: 'insert', blockId: first!.id, find: 'clause', text: long(100_000) }, { op: 'insert', blockId: first!.id, find: 'parties', text: long(100_000) }],
    });
    expect(over.statusCode, over.body).toBe(413);
    expect(over.json()).toMatchObject({ code: 'payload_too_large', limit: 'DOCX_MAX_TEXT_BYTES' });
    expect((await row(draft.id)).contentSha256).toBe(draft.contentSha256);

    // Near the cap (one edit), a comment's 10,000 characters are what passes it.
    const near = await call('POST', `/api/documents/${draft.id}/redlines`, {
      edits: [{ op: 'insert', blockId: first!.id, find: 'clause', text: long(65_000) }, { op: 'insert', blockId: first!.id, find: 'parties', text: long(65_000) }],
    });
    expect(near.statusCode, near.body).toBe(200);
    const nearSha = (await row(draft.id)).contentSha256;
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await call('POST', `/api/documents/${draft.id}/comments`, { anchor: { find: 'parties', occurrence: i + 1 }, text: long(10_000) }));
    const refused = answers.filter((a) => a.statusCode === 413);
    expect(refused.length, answers.map((a) => a.statusCode).join()).toBeGreaterThan(0);
    expect(refused[0]!.json()).toMatchObject({ code: 'payload_too_large', limit: 'DOCX_MAX_TEXT_BYTES' });
    const stored = openDocx(new Uint8Array((await call('GET', `/api/uploads/${draft.id}/content`)).rawPayload));
    expect(stored.comments()).toHaveLength(answers.filter((a) => a.statusCode === 201 || a.statusCode === 200).length);
    expect(nearSha).not.toBe(draft.contentSha256);
  });

  it('refuses with 413 a comparison whose redline would hold more XML than DOCX_MAX_TEXT_BYTES, making no draft', async () => {
    // Each version holds about 115 KB of XML; their redline both texts, about 230 KB.
    const version = (word: string) => buildDocx({ body: Array.from({ length: 30 }, (_, i) => p(`${i + 1}. ${`${word} `.repeat(600)}`)) });
    const older = await upload(version('alpha'), 'Old.docx');
    const newer = await upload(version('omega'), 'New.docx');
    const compared = await call('POST', `/api/uploads/${newer.id}/compare`, { against: older.id });
    expect(compared.statusCode, compared.body).toBe(413);
    expect(compared.json()).toMatchObject({ code: 'payload_too_large', limit: 'DOCX_MAX_TEXT_BYTES' });
    const listed = (await call('GET', '/api/uploads?limit=100')).json() as { items: DocumentRow[] };
    expect(listed.items.filter((u) => u.documentSeriesId === newer.documentSeriesId && u.versionKind === 'working_draft')).toHaveLength(0);
  });

});

describe('anchored edits act on the body, headers, footers and notes only', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('comments@firm.example', 'Comments LLP');
  });
  afterAll(async () => t.destroy());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(lawyer), ...(payload ? { payload } : {}) });
  const row = async (id: string) => (await call('GET', `/api/uploads/${id}`)).json() as DocumentRow;
  const blocks = async (id: string) => paragraphsOf(DocumentText.parse((await call('GET', `/api/uploads/${id}/text?limit=1000`)).json()).blocks);
  async function draftOf(bytes: Uint8Array): Promise<DocumentRow> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    const draft = await call('POST', `/api/uploads/${created.json().id}/working-draft`);
    expect(draft.statusCode, draft.body).toBe(201);
    return draft.json() as DocumentRow;
  }

  it('refuses an anchored edit on a comment\'s paragraph (422 block_in_comment) over HTTP and MCP, changing nothing', async () => {
    const draft = await draftOf(buildDemoContract());
    const all = await blocks(draft.id);
    const comment = all.find((b) => b.story === 'comment' && b.text.length > 3);
    expect(comment, 'the demo contract has comments').toBeDefined();
    const edits = [
      { op: 'replace_paragraph', blockId: comment!.id, text: 'Approved, no objection.' },
      { op: 'delete_paragraph', blockId: comment!.id },
      { op: 'insert_paragraph', blockId: comment!.id, text: 'Also approved.' },
      { op: 'replace', blockId: comment!.id, find: comment!.text.slice(0, 3), occurrence: 1, text: 'No' },
    ];
    for (const edit of edits) {
      const refused = await call('POST', `/api/documents/${draft.id}/redlines`, { edits: [edit] });
      expect(refused.statusCode, `${edit.op}: ${refused.body}`).toBe(422);
      expect(refused.json()).toMatchObject({ code: 'block_in_comment', blockId: comment!.id, errors: [{ path: 'edits.0.blockId' }] });
    }
    expect((await row(draft.id)).contentSha256).toBe(draft.contentSha256);

    const client = await mcpClientFor(lawyer, t.ctx);
    try {
      const proposed = await client.callTool({ name: 'propose_redlines', arguments: { documentId: draft.id, edits: [{ ...edits[0], justification: 'Resolve it.' }] } });
      expect(proposed.isError).toBe(true);
      expect((proposed.structuredContent as { problem?: { code: string } }).problem?.code).toBe('block_in_comment');
    } finally {
      await client.close();
    }
    expect((await row(draft.id)).contentSha256).toBe(draft.contentSha256);
    const after = await blocks(draft.id);
    expect(after.find((b) => b.id === comment!.id)?.text).toBe(comment!.text);
  });
});
