import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { xmlText } from '../../contract/client-text';
import { CommentsResponse } from '../../contract/comments';
import type { DocumentRow } from '../../contract/document';
import { ReviewResponse } from '../../contract/review';
import { firstForbiddenCharacter } from '../../contract/xml-characters';
import { buildDocx, by, ins, p } from '../../docx/fixture';
import { uncheckedStrings } from '../../../test/support/client-strings';
import { hostileFieldText } from '../../../test/support/forbidden-text';
import { connectMcpClient } from '../../../test/support/mcp-client';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

const alex = by('Alex', '2025-03-01T10:00:00Z');
const ORIGINAL = () => buildDocx({ body: [p('Alpha beta gamma.'), p('The fee is ', ins(alex, 'thirty'), ' days.'), p('Notice ', ins(alex, 'in writing'), '.')] });
const NEWER = () => buildDocx({ body: [p('Alpha delta gamma.'), p('The fee is thirty days.')] });
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;

/**
 * Issue 31 item 4 over HTTP and MCP: a character a Word document cannot hold, in any text field a
 * client sends, is 422 forbidden_character naming the field and the character, and nothing
 * changes; text without one is written and every part of the draft stays well-formed.
 */
describe('text a Word document cannot hold', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let draft: DocumentRow;
  let older: DocumentRow;
  let newer: DocumentRow;
  let openChange: string;
  let decidedChange: string;
  let commentId: string;
  const work = mkdtempSync(path.join(tmpdir(), 'redline-forbidden-http-'));

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(lawyer), ...(payload ? { payload } : {}) });
  const form = (url: string, fields: Record<string, string>, name: string, bytes: Uint8Array) => {
    const body = multipartBody(fields, { name, bytes });
    return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
  };

  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('xml@firm.example', 'XML LLP');
    older = (await form('/api/uploads', { purpose: 'source_doc' }, 'Terms.docx', ORIGINAL())).json() as DocumentRow;
    newer = (await form(`/api/uploads/${older.id}/versions`, {}, 'Terms v2.docx', NEWER())).json() as DocumentRow;
    draft = (await call('POST', `/api/uploads/${older.id}/working-draft`)).json() as DocumentRow;
    const review = ReviewResponse.parse((await call('GET', `/api/documents/${draft.id}/review`)).json());
    [decidedChange, openChange] = review.revisions.map((r) => r.change_id) as [string, string];
    expect((await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [decidedChange] })).statusCode).toBe(200);
    const comment = await call('POST', `/api/documents/${draft.id}/comments`, { anchor: { find: 'Alpha' }, text: 'Why?' });
    expect(comment.statusCode, comment.body).toBe(200);
    commentId = CommentsResponse.parse(comment.json()).commentId!;
  });
  afterAll(async () => {
    await t.destroy();
    rmSync(work, { recursive: true, force: true });
  });

  /** What a refused request must leave as it was: the organisation's uploads, the draft's content, track and comments. */
  const state = async () => JSON.stringify([
    (await call('GET', '/api/uploads?limit=100')).json(),
    ReviewResponse.parse((await call('GET', `/api/documents/${draft.id}/review`)).json()).track,
    (await call('GET', `/api/documents/${draft.id}/comments`)).json(),
  ]);

  it('refuses each field with 422 forbidden_character naming the field and the character, and changes nothing', async () => {
    const bad = 'ok\u0001';
    const json: [string, 'POST' | 'PUT' | 'PATCH', () => string, (s: string) => object, string][] = [
      ['redline text', 'POST', () => `/api/documents/${draft.id}/redlines`, (s) => ({ edits: [{ op: 'replace', find: 'beta', text: s }] }), 'edits.0.text'],
      ['redline find', 'POST', () => `/api/documents/${draft.id}/redlines`, (s) => ({ edits: [{ op: 'replace', find: s, text: 'x' }] }), 'edits.0.find'],
      ['justification', 'POST', () => `/api/documents/${draft.id}/redlines`, (s) => ({ edits: [{ op: 'replace', find: 'beta', text: 'x', justification: s }] }), 'edits.0.justification'],
      ['redline author', 'POST', () => `/api/documents/${draft.id}/redlines`, (s) => ({ edits: [{ op: 'delete', find: 'beta' }], author: s }), 'author'],
      ['block id', 'POST', () => `/api/documents/${draft.id}/redlines`, (s) => ({ edits: [{ op: 'delete_paragraph', blockId: s }] }), 'edits.0.blockId'],
      ['comment text', 'POST', () => `/api/documents/${draft.id}/comments`, (s) => ({ anchor: { find: 'Alpha' }, text: s }), 'text'],
      ['comment anchor', 'POST', () => `/api/documents/${draft.id}/comments`, (s) => ({ anchor: { find: s }, text: 'x' }), 'anchor.find'],
      ['reply text', 'POST', () => `/api/documents/${draft.id}/comments/${commentId}/replies`, (s) => ({ text: s }), 'text'],
      ['decision note (apply)', 'POST', () => `/api/documents/${draft.id}/revisions/apply`, (s) => ({ rejected_change_ids: [openChange], notes: { [openChange]: s } }), `notes.${openChange}`],
      ['change id', 'POST', () => `/api/documents/${draft.id}/revisions/apply`, (s) => ({ rejected_change_ids: [s] }), 'rejected_change_ids.0'],
      ['decision note', 'PUT', () => `/api/documents/${draft.id}/decisions/${decidedChange}/note`, (s) => ({ note: s }), 'note'],
      ['compare author', 'POST', () => `/api/uploads/${newer.id}/compare`, (s) => ({ against: older.id, author: s }), 'author'],
      ['file name', 'PATCH', () => `/api/uploads/${older.id}`, (s) => ({ fileName: `${s}.docx` }), 'fileName'],
      ['API key name', 'POST', () => '/api/org/api-keys', (s) => ({ name: s }), 'name'],
    ];
    for (const [field, method, url, body, at] of json) {
      for (const character of ['\u0001', '\uFFFE', '\uD800']) {
        const before = await state();
        const res = await call(method, url(), body(bad.replace('\u0001', character)));
        const codePoint = `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
        expect(res.statusCode, `${field}: ${res.body}`).toBe(422);
        expect(res.json(), field).toMatchObject({ code: 'forbidden_character', errors: expect.arrayContaining([{ path: at, message: expect.stringContaining(codePoint) }]) });
        expect(res.json().detail, field).toContain(codePoint);
        expect(await state(), field).toBe(before);
      }
    }
    const before = await state();
    const refused = [
      await t.app.inject({ method: 'POST', url: '/api/auth/sign-up/request-code', payload: { identifier: 'new@firm.example', name: 'N\u0000', organisation: 'Firm' } }),
      await t.app.inject({ method: 'POST', url: '/api/auth/sign-up/request-code', payload: { identifier: 'new@firm.example', name: 'N', organisation: 'Firm\uFFFF' } }),
      await form('/api/uploads', { purpose: 'source_doc' }, 'Terms\u0001.docx', ORIGINAL()),
      await form('/api/uploads', { purpose: 'source_doc', clientReferenceId: 'matter\uFFFE' }, 'Terms.docx', ORIGINAL()),
      await form(`/api/uploads/${older.id}/versions`, {}, 'v\u000B.docx', NEWER()),
      await call('GET', `/api/uploads/${draft.id}/search?q=${encodeURIComponent('a\u0000')}`),
      await call('GET', `/api/uploads/${encodeURIComponent('\u0000')}`),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe('forbidden_character');
    }
    expect(await state()).toBe(before);
  });

  it('writes text without such characters, and every part of the draft stays well-formed, over random strings in every text field', async () => {
    const writes: Record<string, (s: string) => Promise<{ statusCode: number; body: string }>> = {
      'redline text, justification and author': (s) => call('POST', `/api/documents/${draft.id}/redlines`, { edits: [{ op: 'insert', find: 'gamma', text: s, justification: s }], author: s.slice(0, 200) }),
      'comment text': (s) => call('POST', `/api/documents/${draft.id}/comments`, { anchor: { find: 'Alpha' }, text: s }),
      'reply text': (s) => call('POST', `/api/documents/${draft.id}/comments/${commentId}/replies`, { text: s }),
      'decision note': (s) => call('PUT', `/api/documents/${draft.id}/decisions/${decidedChange}/note`, { note: s }),
      'compare author': (s) => call('POST', `/api/uploads/${newer.id}/compare`, { against: older.id, author: s.slice(0, 200) }),
    };
    const files: string[] = [];
    for (const [field, write] of Object.entries(writes)) {
      await fc.assert(fc.asyncProperty(hostileFieldText(5), async (s) => {
        const res = await write(s);
        if (firstForbiddenCharacter(s)) {
          expect(res.statusCode, `${field} ${JSON.stringify(s)}: ${res.body}`).toBe(422);
          return;
        }
        expect(res.statusCode, `${field} ${JSON.stringify(s)}: ${res.body}`).toBeLessThan(300);
        const written = field === 'compare author' ? (JSON.parse(res.body) as DocumentRow).id : draft.id;
        const bytes = (await call('GET', `/api/uploads/${written}/content`)).rawPayload;
        for (const [name, data] of Object.entries(unzipSync(new Uint8Array(bytes)))) {
          if (!/\.(xml|rels)$/.test(name)) continue;
          const xml = strFromU8(data);
          expect(firstForbiddenCharacter(xml), `${field} ${name}`).toBeNull();
          const file = path.join(work, `${files.length}.xml`);
          writeFileSync(file, xml);
          files.push(file);
        }
        // The draft still opens for the next request.
        expect((await call('GET', `/api/documents/${draft.id}/review`)).statusCode).toBe(200);
      }), { seed: 31, numRuns: 12 });
    }
    if (hasXmllint) {
      for (let i = 0; i < files.length; i += 200) {
        const run = spawnSync('xmllint', ['--noout', ...files.slice(i, i + 200)], { encoding: 'utf8' });
        expect(run.stderr).toBe('');
      }
    }
  }, 180_000);

  it('every string argument of every MCP tool and prompt carries the check, and a tool refuses such text writing nothing', async () => {
    const { client, server } = await connectMcpClient(t, lawyer);
    const registered = server as unknown as {
      _registeredTools: Record<string, { inputSchema?: Parameters<typeof uncheckedStrings>[0] }>;
      _registeredPrompts: Record<string, { argsSchema?: Parameters<typeof uncheckedStrings>[0] }>;
    };
    const unchecked = [
      ...Object.entries(registered._registeredTools).flatMap(([name, tool]) => (tool.inputSchema ? uncheckedStrings(tool.inputSchema, xmlText, name) : [])),
      ...Object.entries(registered._registeredPrompts).flatMap(([name, prompt]) => (prompt.argsSchema ? uncheckedStrings(prompt.argsSchema, xmlText, name) : [])),
    ];
    expect(unchecked).toEqual([]);

    try {
      const before = await state();
      for (const [name, args] of [
        ['propose_redlines', { documentId: draft.id, edits: [{ op: 'replace', find: 'beta', text: 'x\u0001', justification: 'why' }] }],
        ['propose_redlines', { documentId: draft.id, edits: [{ op: 'replace', find: 'beta', text: 'x', justification: 'why' }], author: 'A\uFFFF' }],
        ['add_comment', { documentId: draft.id, anchor: { find: 'Alpha' }, text: 'x\uDC00' }],
        ['reply_to_comment', { documentId: draft.id, commentId, text: 'x\u001F' }],
        ['apply_decisions', { documentId: draft.id, reject: [openChange], notes: { [openChange]: 'x\u0000' } }],
        ['compare_versions', { uploadId: newer.id, against: older.id, author: 'x\u000C' }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args as unknown as Record<string, unknown> });
        expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBe(true);
        expect(JSON.stringify(result.content), name).toMatch(/U\+[0-9A-F]{4}/);
      }
      expect(await state()).toBe(before);
    } finally {
      await client.close();
    }
  });
});
