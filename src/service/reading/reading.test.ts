import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { DocumentText, type Block, type ParagraphBlock } from '../../contract/reading';
import { ReviewResponse } from '../../contract/review';
import { buildDemoContract, buildDocx, by, del, formatted, heading, ins, p } from '../../docx/fixture';
import { createMcpServer } from '../connector/mcp-tools';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

function paragraphsOf(blocks: readonly Block[]): ParagraphBlock[] {
  return blocks.flatMap((b) => (b.type === 'paragraph' ? [b] : b.rows.flatMap((r) => r.cells.flatMap((c) => paragraphsOf(c.blocks)))));
}

/** Issue 25: reading over HTTP and MCP, and redline edits anchored on blocks. */
describe('reading documents and anchored edits', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let other: SessionGrant;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('reader@firm.example', 'Reader LLP');
    other = await t.signUpAndSignIn('outsider@other.example', 'Other LLP');
  });
  afterAll(async () => t.destroy());

  const call = (who: SessionGrant, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(who), ...(payload ? { payload } : {}) });

  async function upload(bytes: Uint8Array, purpose: 'source_doc' | 'playbook' = 'source_doc', name = 'Terms.docx'): Promise<DocumentRow> {
    const body = multipartBody({ purpose }, { name, bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as DocumentRow;
  }
  async function draftOf(bytes: Uint8Array): Promise<DocumentRow> {
    const original = await upload(bytes);
    const draft = await call(lawyer, 'POST', `/api/uploads/${original.id}/working-draft`);
    expect(draft.statusCode).toBe(201);
    return draft.json() as DocumentRow;
  }

  const alex = by('Alex', '2025-03-01T10:00:00Z');

  it('pages through a draft in the markup view by default, an original in the accepted view, and refuses a stale cursor', async () => {
    const bytes = buildDocx({ body: [heading(1, 'Fees'), p('Fees are due in ', del(alex, 'sixty'), ins(alex, 'thirty'), ' days.'), p('Interest runs at 2%.'), p('Late fees apply.')] });
    const draft = await draftOf(bytes);
    const first = await call(lawyer, 'GET', `/api/uploads/${draft.id}/text?limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    const page1 = DocumentText.parse(first.json());
    expect(page1.view).toBe('markup');
    expect(page1.blocks).toHaveLength(2);
    expect((page1.blocks[1] as ParagraphBlock).text).toBe('Fees are due in sixtythirty days.');
    expect((page1.blocks[1] as ParagraphBlock).changes?.map((c) => c.kind)).toEqual(['delete', 'insert']);
    const page2 = DocumentText.parse((await call(lawyer, 'GET', `/api/uploads/${draft.id}/text?limit=2&cursor=${page1.nextCursor}`)).json());
    expect(paragraphsOf(page2.blocks).map((b) => b.text)).toEqual(['Interest runs at 2%.', 'Late fees apply.']);
    expect(page2.nextCursor).toBeNull();

    const accepted = DocumentText.parse((await call(lawyer, 'GET', `/api/uploads/${draft.id}/text?view=accepted`)).json());
    expect(paragraphsOf(accepted.blocks)[1]!.text).toBe('Fees are due in thirty days.');
    const rejected = DocumentText.parse((await call(lawyer, 'GET', `/api/uploads/${draft.id}/text?view=rejected`)).json());
    expect(paragraphsOf(rejected.blocks)[1]!.text).toBe('Fees are due in sixty days.');
    const original = DocumentText.parse((await call(lawyer, 'GET', `/api/uploads/${draft.parentUploadId}/text`)).json());
    expect(original.view).toBe('accepted');

    // A decision makes a new content: the old cursor is refused, nothing is skipped silently.
    const ids = page1.blocks.flatMap((b) => (b.type === 'paragraph' ? b.changes ?? [] : [])).map((c) => c.change_id);
    expect((await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: ids })).statusCode).toBe(200);
    const stale = await call(lawyer, 'GET', `/api/uploads/${draft.id}/text?limit=2&cursor=${page1.nextCursor}`);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_cursor' });
    // Block ids of paragraphs the decision did not touch stay.
    const after = DocumentText.parse((await call(lawyer, 'GET', `/api/uploads/${draft.id}/text`)).json());
    expect(paragraphsOf(after.blocks).map((b) => b.id).filter((id, i) => i !== 1))
      .toEqual([...paragraphsOf(page1.blocks), ...paragraphsOf(page2.blocks)].map((b) => b.id).filter((id, i) => i !== 1));

    const search = await call(lawyer, 'GET', `/api/uploads/${draft.id}/search?q=LATE%20FEES`);
    expect(search.json()).toMatchObject({ view: 'markup', count: 1, hits: [{ text: 'Late fees apply.', start: 0, end: 9 }] });
    // Issue 31: RE2 runs any pattern in linear time, nested repetition included; a back-reference it cannot is refused.
    expect((await call(lawyer, 'GET', `/api/uploads/${draft.id}/search?q=(a%2B)%2B&regex=true`)).statusCode).toBe(200);
    const backreference = await call(lawyer, 'GET', `/api/uploads/${draft.id}/search?q=(a)%5C1&regex=true`);
    expect(backreference.statusCode).toBe(422);
    expect(backreference.json()).toMatchObject({ code: 'unsupported_regex', construct: 'backreference' });
    const outline = await call(lawyer, 'GET', `/api/uploads/${draft.id}/outline`);
    expect(outline.json()).toMatchObject({ entries: [{ text: 'Fees', heading: 1, level: 1 }] });
    expect((await call(lawyer, 'GET', `/api/uploads/${draft.id}/text?view=everything`)).statusCode).toBe(400);
    expect((await call(lawyer, 'GET', `/api/uploads/${draft.id}/text?cursor=garbage`)).statusCode).toBe(400);
    expect((await call(other, 'GET', `/api/uploads/${draft.id}/text`)).statusCode).toBe(404);
  });

  it('refuses anchored edits that are stale, ambiguous or absent with the block and the candidates, writing nothing', async () => {
    const draft = await draftOf(buildDocx({ body: [p('Notice: thirty days, or thirty days after the invoice.'), p('Governing law: ', formatted(alex, 'England', { bold: true }, {}), '.')] }));
    const [notice, law] = paragraphsOf(DocumentText.parse((await call(lawyer, 'GET', `/api/uploads/${draft.id}/text`)).json()).blocks);
    const redline = (edits: object[]) => call(lawyer, 'POST', `/api/documents/${draft.id}/redlines`, { edits });

    const ambiguous = await redline([{ op: 'replace', blockId: notice!.id, find: 'thirty days', text: 'sixty days', justification: 'Longer.' }]);
    expect(ambiguous.statusCode).toBe(422);
    expect(ambiguous.json()).toMatchObject({ code: 'ambiguous_anchor', blockId: notice!.id, candidates: [{ occurrence: 1, start: 8, end: 19 }, { occurrence: 2 }] });
    const absent = await redline([{ op: 'delete', blockId: law!.id, find: 'Scotland' }]);
    expect(absent.statusCode).toBe(422);
    expect(absent.json()).toMatchObject({ code: 'anchor_not_found', blockId: law!.id, blockText: 'Governing law: England.' });
    const unknown = await redline([{ op: 'delete_paragraph', blockId: 'p-none' }]);
    expect(unknown.json()).toMatchObject({ code: 'block_not_found' });
    const noFind = await redline([{ op: 'delete', blockId: law!.id }]);
    expect(noFind.statusCode).toBe(400);

    // Accepting the formatting change changes the block (not its text, so not its id): an edit
    // holding the version read before is stale.
    const formatting = law!.changes![0]!.change_id;
    expect((await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [formatting] })).statusCode).toBe(200);
    const stale = await redline([{ op: 'delete_paragraph', blockId: law!.id, blockVersion: law!.version }]);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_anchor', blockId: law!.id, blockText: 'Governing law: England.' });
    // Refusals wrote nothing: the draft has no revision left.
    expect(ReviewResponse.parse((await call(lawyer, 'GET', `/api/documents/${draft.id}/review`)).json()).revisions).toEqual([]);
    const good = await redline([{ op: 'replace', blockId: law!.id, find: 'England', text: 'Ireland', justification: 'Our seat.' }]);
    expect(good.statusCode, good.body).toBe(200);
    expect(ReviewResponse.parse(good.json()).revisions.map((r) => r.kind).sort()).toEqual(['delete', 'insert']);
  });

  it('gives the assistant reading, search, outline, the report, resources and the playbook prompt over MCP', async () => {
    const draft = await draftOf(buildDemoContract());
    const playbook = await upload(buildDocx({ body: [heading(1, 'Positions'), p('Payment terms: no longer than thirty days.'), p('Liability cap: at least the fees of twelve months.')] }), 'playbook', 'Playbook.docx');
    const server = createMcpServer({ userId: lawyer.user.id, orgId: lawyer.orgId }, t.ctx);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const tool = async (name: string, args: object) => {
        const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        return result.structuredContent as Record<string, unknown>;
      };
      const outline = await tool('get_outline', { documentId: draft.id }) as { entries: { blockId: string; text: string; heading?: number }[] };
      expect(outline.entries.length).toBeGreaterThan(5);
      expect(outline.entries.every((e) => e.heading === 1 || e.heading === undefined)).toBe(true);
      const found = await tool('search_document', { documentId: draft.id, query: 'CONFIDENTIAL INFORMATION' }) as { hits: { blockId: string; text: string; start: number; end: number }[]; count: number };
      expect(found.count).toBeGreaterThan(0);
      for (const hit of found.hits) expect(hit.text.slice(hit.start, hit.end).toLowerCase()).toBe('confidential information');
      const regex = await tool('search_document', { documentId: draft.id, query: '\\bconfidential\\s+information\\b', regex: true }) as { count: number };
      expect(regex.count).toBe(found.count);
      const lookahead = await client.callTool({ name: 'search_document', arguments: { documentId: draft.id, query: 'fees(?= apply)', regex: true } });
      expect(lookahead.isError).toBe(true);
      expect((lookahead.structuredContent as { problem: { code: string; construct: string } }).problem).toMatchObject({ code: 'unsupported_regex', construct: 'lookahead' });
      const page = await tool('read_document', { documentId: playbook.id }) as { view: string; blocks: ParagraphBlock[] };
      expect(page.view).toBe('accepted');
      expect(page.blocks.map((b) => b.text)).toContain('Payment terms: no longer than thirty days.');

      const templates = await client.listResourceTemplates();
      expect(templates.resourceTemplates.map((r) => r.uriTemplate).sort()).toEqual(['redline://drafts/{uploadId}', 'redline://playbooks/{uploadId}']);
      const listed = await client.listResources();
      expect(listed.resources.map((r) => r.uri)).toEqual(expect.arrayContaining([`redline://drafts/${draft.id}`, `redline://playbooks/${playbook.id}`]));
      const resource = await client.readResource({ uri: `redline://playbooks/${playbook.id}` });
      expect((resource.contents[0] as { text: string }).text).toMatch(/^\[[^\]]+\] "Positions"\n\[[^\]]+\] "Payment terms/);
      const prompt = await client.getPrompt({ name: 'review_against_playbook', arguments: { documentId: draft.id, playbookId: playbook.id } });
      expect(JSON.stringify(prompt.messages)).toContain(playbook.id);

      const report = await tool('get_report', { documentId: draft.id }) as { counts: { total: number }; groups: { state: string }[] };
      expect(report.counts.total).toBeGreaterThan(0);
      expect(report.groups.map((g) => g.state)).toEqual(['open', 'in', 'back']);
      const untracked = await tool('get_untracked_edits', { uploadId: draft.id });
      expect(untracked).toMatchObject({ against: null, count: 0 });
    } finally {
      await client.close();
    }
  });
});
