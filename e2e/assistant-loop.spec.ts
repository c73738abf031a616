import { mkdirSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect, test, type Page } from '@playwright/test';
import { buildDocx, buildDemoContract, heading, p } from '../src/docx/fixture/index';
import { openDocx } from '../src/docx/index';
import { codeFromMailbox, DEMO_EMAIL, newestMailId, signInThroughUi } from './helpers';

/**
 * Issue 25, the whole loop with the official MCP TypeScript SDK's client over Streamable HTTP
 * against the real service: the SDK discovers the authorization server (RFC 9728, RFC 8414),
 * registers itself, and runs PKCE; the person signs in and consents in Chromium. The assistant
 * reads the outline, searches, reads a playbook and proposes five changes anchored by block id;
 * the lawyer decides them in the app (two accepted, two rejected with notes, one left open); the
 * assistant reads the notes, withdraws the open proposal and proposes a revised clause. Every step
 * is checked on the document itself, in its markup, accepted and rejected views.
 *
 * The transcript (each tool call and a short answer) is written to .tmp/assistant-transcript.txt.
 */

const REDIRECT = 'http://127.0.0.1:9/callback';

/** An OAuth client of the SDK's kind, keeping what it is given in memory, sending the person to a page we drive. */
class BrowserDrivenClient implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  get redirectUrl(): string { return REDIRECT; }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'E2E Review Assistant', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'documents' };
  }
  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

interface Paragraph { id: string; version: string; text: string; numbering?: string; changes?: { change_id: string }[] }
type Blocks = (Paragraph & { type: string; rows?: { cells: { blocks: Blocks }[] }[] })[];

function paragraphs(blocks: Blocks): Paragraph[] {
  return blocks.flatMap((b) => (b.type === 'paragraph' ? [b] : (b.rows ?? []).flatMap((r) => r.cells.flatMap((c) => paragraphs(c.blocks)))));
}

async function apiHeaders(page: Page): Promise<Record<string, string>> {
  const raw = await page.evaluate(() => sessionStorage.getItem('redline.session'));
  const session = JSON.parse(raw ?? '{}') as { token: string; orgId: string };
  return { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId };
}

test('an assistant reads, proposes, reads the lawyer\'s decisions and answers them, over MCP', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const origin = `http://localhost:${new URL(baseURL!).port}`;
  const transcript: string[] = [];

  // The lawyer's documents: a clean services agreement and the firm's playbook.
  await signInThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  const headers = await apiHeaders(page);
  const contract = openDocx(buildDemoContract());
  contract.apply({ accept: contract.changeIds(), reject: [] });
  const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  const original = await page.request.post('/api/uploads', { headers, multipart: { purpose: 'source_doc', file: { name: 'Services Agreement (assistant loop).docx', mimeType: docx, buffer: Buffer.from(contract.toBytes()) } } });
  expect(original.status()).toBe(201);
  const draftId = (await (await page.request.post(`/api/uploads/${(await original.json()).id}/working-draft`, { headers })).json()).id as string;
  const playbookBytes = buildDocx({ body: [
    heading(1, 'Services playbook'),
    p('P1 Standard of service: the provider must use appropriately qualified personnel.'),
    p('P2 Interest: no interest cap tied to statute; one percent a month is enough.'),
    p('P3 Renewal: automatic renewal only with ninety days\' notice to opt out.'),
    p('P4 Liability: the cap must cover all claims, including data breaches.'),
    p('P5 Assignment: no assignment to affiliates without consent.'),
  ] });
  const playbook = await page.request.post('/api/uploads', { headers, multipart: { purpose: 'playbook', file: { name: 'Services playbook.docx', mimeType: docx, buffer: Buffer.from(playbookBytes) } } });
  expect(playbook.status()).toBe(201);
  const playbookId = (await playbook.json()).id as string;

  // 1. The SDK's client connects: it is refused, discovers and registers, and sends the person to authorize.
  const oauth = new BrowserDrivenClient();
  const endpoint = new URL(`${origin}/api/mcp`);
  const firstTry = new StreamableHTTPClientTransport(endpoint, { authProvider: oauth });
  await expect(new Client({ name: 'e2e-assistant', version: '1.0.0' }).connect(firstTry)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(oauth.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
  let landedAt: URL | null = null;
  await page.route('http://127.0.0.1:9/**', async (route) => {
    landedAt = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'connected' });
  });
  await page.goto(oauth.authorizationUrl!.href);
  await expect(page).toHaveURL(/\/connector\/authorize\?interaction=/);
  const email = page.getByLabel('E-mail');
  if (await email.isVisible()) {
    await email.fill(DEMO_EMAIL);
    const before = await newestMailId(page.request, DEMO_EMAIL);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('Code', { exact: true }).fill(await codeFromMailbox(page.request, DEMO_EMAIL, before));
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await expect(page.getByRole('heading', { name: 'Allow E2E Review Assistant to act for you?' })).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => landedAt?.searchParams.get('code') ?? null).not.toBeNull();
  await firstTry.finishAuth(landedAt!.searchParams.get('code')!);
  const client = new Client({ name: 'e2e-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }));

  const tool = async <T>(name: string, args: Record<string, unknown>, summary: (answer: T) => string): Promise<T> => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
    const answer = result.structuredContent as T;
    transcript.push(`> ${name} ${JSON.stringify(args).slice(0, 300)}\n< ${summary(answer)}`);
    return answer;
  };
  const view = async (v: 'markup' | 'accepted' | 'rejected') =>
    paragraphs((await tool<{ blocks: Blocks }>('read_document', { documentId: draftId, view: v, limit: 1000 }, (a) => `${a.blocks.length} blocks (${v})`)).blocks).map((b) => b.text).join('\n');
  const originalText = await view('accepted');

  // 2. The assistant works: the outline, searches, the playbook, five proposals anchored by block id.
  const outline = await tool<{ entries: { blockId: string; text: string; level: number }[] }>('get_outline', { documentId: draftId },
    (a) => `${a.entries.length} entries: ${a.entries.slice(0, 4).map((e) => e.text).join(' | ')} ...`);
  expect(outline.entries.map((e) => e.text)).toEqual(expect.arrayContaining(['3.\tFees and Payment', '6.\tLimitation of Liability']));
  const rules = paragraphs((await tool<{ blocks: Blocks }>('read_document', { documentId: playbookId }, (a) => `${a.blocks.length} blocks of the playbook`)).blocks)
    .map((b) => b.text).filter((t) => /^P\d/.test(t));
  expect(rules).toHaveLength(5);
  const find = async (query: string) => {
    const found = await tool<{ hits: { blockId: string; text: string; start: number }[]; count: number }>('search_document', { documentId: draftId, query },
      (a) => `${a.count} hit(s): ${a.hits.map((h) => `${h.blockId} "${h.text.slice(0, 40)}..."`).join('; ')}`);
    expect(found.count).toBe(1);
    return found.hits[0]!.blockId;
  };
  const current = async (blockId: string) => {
    const all = paragraphs((await tool<{ blocks: Blocks }>('read_document', { documentId: draftId, limit: 1000 }, (a) => `${a.blocks.length} blocks`)).blocks);
    return all.find((b) => b.id === blockId)!;
  };
  const proposals = [
    { find: 'in a professional and workmanlike manner', op: 'insert', text: ', using appropriately qualified personnel', rule: 0 },
    { find: 'the lesser of one percent (1%) per month and the maximum rate permitted by law', op: 'delete', deleteText: ' and the maximum rate permitted by law', rule: 1 },
    { find: 'renews automatically', op: 'insert', text: ' (unless either party gives ninety (90) days’ notice of non-renewal)', rule: 2 },
    { find: 'total aggregate liability arising out of or in connection with this Agreement', op: 'insert', text: ' (including for any breach of data protection obligations)', rule: 3 },
    { find: 'except to an Affiliate or', op: 'delete', deleteText: 'except to an Affiliate or ', rule: 4 },
  ] as const;
  const edits = [];
  for (const prop of proposals) {
    const blockId = await find(prop.find);
    const block = await current(blockId);
    edits.push(prop.op === 'insert'
      ? { op: 'insert', blockId, blockVersion: block.version, find: prop.find, text: prop.text, justification: `Playbook ${rules[prop.rule]}` }
      : { op: 'delete', blockId, blockVersion: block.version, find: prop.deleteText, justification: `Playbook ${rules[prop.rule]}` });
  }
  const proposed = await tool<{ revisions: { change_id: string; text_preview: string; justification?: string }[] }>('propose_redlines', { documentId: draftId, edits, author: 'Review Assistant' },
    (a) => `${a.revisions.length} revisions: ${a.revisions.map((r) => `${r.change_id} "${r.text_preview.slice(0, 30)}"`).join('; ')}`);
  expect(proposed.revisions).toHaveLength(5);
  expect(proposed.revisions.every((r) => r.justification?.startsWith('Playbook P'))).toBe(true);
  const markup = await view('markup');
  expect(markup).toContain('workmanlike manner, using appropriately qualified personnel');
  expect(await view('rejected')).toBe(originalText);
  expect(await view('accepted')).toContain('consent, to a successor');

  // 3. The lawyer decides in the app: accept Changes 1 and 2, reject 3 and 4 with notes, leave 5 open.
  await page.goto(`/documents/${draftId}`);
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 30_000 });
  const option = (n: number) => page.getByRole('option', { name: new RegExp(`^Change ${n}\\b`) });
  await expect(page.getByRole('listbox', { name: 'Changes' }).getByRole('option')).toHaveCount(5);
  await expect(option(1)).toBeFocused();
  await page.keyboard.press('a');
  await expect(option(2)).toBeFocused();
  await page.keyboard.press('a');
  await expect(option(3)).toBeFocused();
  for (const [n, note] of [[3, 'No: the client wants renewal to stay automatic.'], [4, 'No: data breaches stay under the general cap.']] as const) {
    await page.keyboard.press('n');
    const dialog = page.getByRole('dialog', { name: `Note on Change ${n}` });
    await expect(dialog.getByLabel('Note')).toBeFocused();
    await page.keyboard.type(note);
    await page.keyboard.press('Control+Enter');
    await expect(dialog).toBeHidden();
  }
  await expect(page.getByText('All decisions saved')).toBeVisible({ timeout: 15_000 });

  // 4. The assistant answers: reads the notes, withdraws the open proposal, proposes a revised clause.
  const review = await tool<{ track: { items: { id: string; label: string; state: string; note?: string | null }[] } }>('get_review', { documentId: draftId },
    (a) => a.track.items.map((i) => `${i.label} ${i.state}${i.note ? ` "${i.note}"` : ''}`).join('; '));
  expect(review.track.items.map((i) => i.state)).toEqual(['in', 'in', 'back', 'back', 'open']);
  expect(review.track.items[2]!.note).toBe('No: the client wants renewal to stay automatic.');
  const acceptedAfterDecisions = await view('accepted');
  expect(acceptedAfterDecisions).toContain('workmanlike manner, using appropriately qualified personnel');
  expect(acceptedAfterDecisions).toContain('at the lesser of one percent (1%) per month, from the due date');
  expect(acceptedAfterDecisions).not.toContain('ninety (90) days’ notice of non-renewal');
  expect(acceptedAfterDecisions).not.toContain('data protection obligations');
  expect(await view('rejected')).not.toContain('consent, to a successor');

  const open = review.track.items[4]!;
  await tool('revert_revisions', { documentId: draftId, changeIds: [open.id] }, (a: { track: { items: unknown[] } }) => `${a.track.items.length} track items left`);
  expect(await view('accepted')).toContain('except to an Affiliate or to a successor');
  expect(await view('markup')).toBe(await view('accepted'));

  const renewalBlock = await find('renews automatically');
  const renewal = await current(renewalBlock);
  await tool('propose_redlines', {
    documentId: draftId, author: 'Review Assistant',
    edits: [{ op: 'insert', blockId: renewalBlock, blockVersion: renewal.version, find: 'renews automatically', text: ', with a reminder to Customer sixty (60) days before each renewal,', justification: 'Playbook P3, revised after your note: renewal stays automatic; Customer gets a reminder instead.' }],
  }, (a: { revisions: { change_id: string; text_preview: string }[] }) => `${a.revisions.length} open revision: ${a.revisions.map((r) => `"${r.text_preview.slice(0, 50)}"`).join('')}`);
  expect(await view('accepted')).toContain('renews automatically, with a reminder to Customer sixty (60) days before each renewal,');
  expect(await view('rejected')).not.toContain('reminder');
  await page.reload();
  await expect(page.getByRole('listbox', { name: 'Changes' })).toContainText('with a reminder to Customer');

  await client.close();
  mkdirSync('.tmp', { recursive: true });
  writeFileSync('.tmp/assistant-transcript.txt', `${transcript.join('\n')}\n`);
});
