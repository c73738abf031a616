import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { Comment } from '../../contract/comments';
import type { DocumentRow } from '../../contract/document';
import type { Revision } from '../../contract/revision';
import { openDocx } from '../../docx';
import { buildDemoContract } from '../../docx/fixture';
import { connectMcpClient } from '../../../test/support/mcp-client';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

interface ToolAnswer {
  revisions: Revision[];
  comments: Comment[];
  commentId?: string;
  problem?: { status: number; code: string };
}

/** The assistant's comment tools, called through a real MCP client and server (in-memory transport). */
describe('MCP comment tools', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let draft: DocumentRow;
  let client: Client;

  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('counsel@mcp.example', 'MCP LLP');
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    draft = (await t.app.inject({ method: 'POST', url: `/api/uploads/${created.json().id}/working-draft`, headers: t.headers(lawyer) })).json();
    ({ client } = await connectMcpClient(t, lawyer));
  });
  afterAll(async () => {
    await client.close();
    await t.destroy();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, value: result.structuredContent as unknown as ToolAnswer };
  };
  const stored = async () => openDocx(new Uint8Array((await t.app.inject({ method: 'GET', url: `/api/uploads/${draft.id}/content`, headers: t.headers(lawyer) })).rawPayload));

  it('lists, adds and replies to comments; refuses what is not there', async () => {
    const listed = await call('list_comments', { documentId: draft.id });
    expect(listed.isError).toBe(false);
    expect(listed.value.comments.filter((c) => c.justification).length).toBeGreaterThan(3);

    const target = listed.value.comments[0]!.changeIds[0]!;
    const added = await call('add_comment', { documentId: draft.id, changeId: target, text: 'Counsel disagrees: see clause 9.' });
    expect(added.isError).toBe(false);
    const mine = added.value.comments.find((c) => c.id === added.value.commentId)!;
    expect([mine.changeIds.includes(target), mine.justification]).toEqual([true, false]);
    const onText = await call('add_comment', { documentId: draft.id, anchor: { find: 'Customer', occurrence: 2 }, text: 'Capitalised?' });
    expect(onText.value.comments.find((c) => c.id === onText.value.commentId)!.anchorText).toBe('Customer');

    const replied = await call('reply_to_comment', { documentId: draft.id, commentId: added.value.commentId, text: 'Clause 9 is out of scope.' });
    expect(replied.value.comments.find((c) => c.id === replied.value.commentId)).toMatchObject({ parentId: added.value.commentId });
    expect((await stored()).comments().map((c) => c.text)).toContain('Clause 9 is out of scope.');

    const missing = await call('reply_to_comment', { documentId: draft.id, commentId: '4242', text: 'x' });
    expect([missing.isError, missing.value.problem?.code]).toEqual([true, 'comment_not_found']);
    const nowhere = await call('add_comment', { documentId: draft.id, anchor: { find: 'words that are not there' }, text: 'x' });
    expect([nowhere.isError, nowhere.value.problem?.code]).toEqual([true, 'anchor_not_found']);
    const both = await call('add_comment', { documentId: draft.id, changeId: target, anchor: { find: 'Customer' }, text: 'x' });
    expect([both.isError, both.value.problem?.code]).toEqual([true, 'invalid_request']);
    const tooLong = await call('add_comment', { documentId: draft.id, changeId: target, text: 'x'.repeat(10_001) });
    expect(tooLong.isError).toBe(true);
  });

  it('proposes a redline carrying a comment thread on the proposed change', async () => {
    const proposed = await call('propose_redlines', {
      documentId: draft.id, author: 'Redline Assistant',
      edits: [{ op: 'replace', find: 'Agreement', text: 'Contract', justification: 'Defined term.', comments: ['Matches the playbook.', 'Also used in Schedule 2.'] }],
    });
    expect(proposed.isError).toBe(false);
    const insertion = proposed.value.revisions.find((r) => r.text_preview === 'Contract' && r.author === 'Redline Assistant')!;
    expect(insertion.justification).toBe('Defined term.');
    const comments = (await stored()).comments();
    const thread = comments.filter((c) => c.text === 'Matches the playbook.' || c.text === 'Also used in Schedule 2.');
    expect(thread.map((c) => [c.author, c.changeIds])).toEqual([['Redline Assistant', [insertion.change_id]], ['Redline Assistant', [insertion.change_id]]]);
    expect(thread[1]!.parentId).toBe(thread[0]!.id);
  });
});
