import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { CHECKS_AUTHOR, ChecksAnswer, ProposeFixesAnswer } from '../../contract/checks';
import type { DocumentRow } from '../../contract/document';
import { DraftProgressList } from '../../contract/draft-progress';
import type { ReviewResponse } from '../../contract/review';
import { buildDocx, by, del, ins, listItem, p } from '../../docx/fixture';
import { createMcpServer } from '../connector/mcp-tools';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

/** Issue 35: GET /documents/{id}/checks over HTTP, computed on an engine thread. */
describe('the checks route', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let other: SessionGrant;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('checker@firm.example', 'Checker LLP');
    other = await t.signUpAndSignIn('outsider@other.example', 'Other LLP');
  });
  afterAll(async () => t.destroy());

  const call = (who: SessionGrant, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(who), ...(payload ? { payload } : {}) });

  async function draftOf(bytes: Uint8Array): Promise<DocumentRow> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Licence.docx', bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    expect(created.statusCode, created.body).toBe(201);
    const draft = await call(lawyer, 'POST', `/api/uploads/${(created.json() as DocumentRow).id}/working-draft`);
    expect(draft.statusCode).toBe(201);
    return draft.json() as DocumentRow;
  }

  const alex = by('Alex', '2025-03-01T10:00:00Z');
  const PREAMBLE_FOR_AHEAD = p('This Licence is made between Acme Widgets Corporation (the “Licensee”) and Beta Labs Limited (the “Licensor”).');

  it('computes the checks of a stored content in the background, before anyone asks', async () => {
    const draft = await draftOf(buildDocx({ body: [PREAMBLE_FOR_AHEAD, listItem('decimal', 0, 'The Licensee shall pay the fee of [●].')] }));
    const sha = (await t.ctx.db.query<{ content_sha256: string }>('SELECT content_sha256 FROM uploads WHERE id = $1', [draft.id]))[0]!.content_sha256;
    const deadline = Date.now() + 30_000;
    while (!t.ctx.checks.computed(sha) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.ctx.checks.computed(sha)?.accepted).toContainEqual(expect.objectContaining({ kind: 'placeholder', excerpt: '[●]' }));
    // The documents page's one progress request carries the count, from what is computed only.
    const progress = DraftProgressList.parse((await call(lawyer, 'GET', '/api/documents/progress')).json());
    expect(progress.items.find((i) => i.documentId === draft.id)?.findings).toBe(t.ctx.checks.computed(sha)!.accepted.length);
  }, 40_000);

  it('answers both views, names the change that brings a finding with the id the review lists, and re-reads with the same ids', async () => {
    const bytes = buildDocx({
      body: [
        p('This Licence is made between Acme Widgets Corporation (the “Licensee”) and Beta Labs Limited (the “Licensor”).'),
        listItem('decimal', 0, del(alex, '“Affiliate” means any entity controlling the Licensee.')),
        listItem('decimal', 0, 'The Licensor may license the Licensee’s Affiliates, and each Affiliate shall comply with Schedule 2.'),
        listItem('decimal', 0, 'The Licensee shall pay the fee of [●]', ins(alex, ' and the Licencee shall report'), '.'),
      ],
    });
    const draft = await draftOf(bytes);
    const review = (await call(lawyer, 'GET', `/api/documents/${draft.id}/review`)).json() as ReviewResponse;
    const [deletion, insertion] = review.revisions.map((r) => r.change_id);

    const answer = await call(lawyer, 'GET', `/api/documents/${draft.id}/checks`);
    expect(answer.statusCode, answer.body).toBe(200);
    const accepted = ChecksAnswer.parse(answer.json());
    expect(accepted.view).toBe('accepted');
    const byKind = (kind: string) => accepted.findings.filter((f) => f.kind === kind);
    expect(byKind('undefined_term')).toEqual([expect.objectContaining({ term: 'Affiliate', causedBy: [deletion], clause: '2.', page: 1 })]);
    expect(byKind('term_variant')).toEqual([expect.objectContaining({ excerpt: 'Licencee', term: 'Licensee', causedBy: [insertion] })]);
    expect(byKind('placeholder')).toEqual([expect.objectContaining({ excerpt: '[●]', causedBy: [] })]);
    expect(byKind('broken_cross_reference')).toEqual([expect.objectContaining({ reference: 'Schedule 2', causedBy: [] })]);

    const rejected = ChecksAnswer.parse((await call(lawyer, 'GET', `/api/documents/${draft.id}/checks?view=rejected`)).json());
    expect(rejected.findings.map((f) => f.kind).sort()).toEqual(['broken_cross_reference', 'placeholder']);
    expect(rejected.findings.every((f) => f.causedBy.length === 0)).toBe(true);

    const again = ChecksAnswer.parse((await call(lawyer, 'GET', `/api/documents/${draft.id}/checks`)).json());
    expect(again.findings.map((f) => f.id)).toEqual(accepted.findings.map((f) => f.id));
  });

  it('refuses an unknown view, and another organisation gets 404', async () => {
    const draft = await draftOf(buildDocx({ body: [p('Plain text.')] }));
    const bad = await call(lawyer, 'GET', `/api/documents/${draft.id}/checks?view=markup`);
    expect(bad.statusCode).toBe(400);
    expect((await call(other, 'GET', `/api/documents/${draft.id}/checks`)).statusCode).toBe(404);
    expect(ChecksAnswer.parse((await call(lawyer, 'GET', `/api/documents/${draft.id}/checks`)).json()).findings).toEqual([]);
  });

  it('proposes each certain fix as a tracked change by Redline checks with the finding as justification, once; refuses an unknown finding', async () => {
    const bytes = buildDocx({
      body: [
        p('This Licence is made between Acme Widgets Corporation (the “Licensee”) and Beta Labs Limited (the “Licensor”). “Confidential Information” means secrets.'),
        p('The Licensee shall keep the Confidential Information safe, and the Licencee shall not copy the Confidential Information.'),
        p('The Licensor may audit the Licensee, and the Licensee shall return the confidential information and the Confidential Information on demand.'),
      ],
    });
    const draft = await draftOf(bytes);
    const findings = ChecksAnswer.parse((await call(lawyer, 'GET', `/api/documents/${draft.id}/checks`)).json()).findings;
    const fixable = findings.filter((f) => f.fix);
    expect(fixable.map((f) => [f.excerpt, f.fix!.replaceWith])).toEqual([['Licencee', 'Licensee'], ['confidential information', 'Confidential Information']]);

    const unknown = await call(lawyer, 'POST', `/api/documents/${draft.id}/checks/proposals`, { findingIds: ['fnothere'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().code).toBe('unknown_finding_ids');
    const before = (await call(lawyer, 'GET', `/api/documents/${draft.id}/review`)).json() as ReviewResponse;
    expect(before.revisions).toEqual([]);

    const first = await call(lawyer, 'POST', `/api/documents/${draft.id}/checks/proposals`, {});
    expect(first.statusCode, first.body).toBe(200);
    const proposed = ProposeFixesAnswer.parse(first.json()).proposed;
    expect(proposed.map((x) => x.findingId)).toEqual(fixable.map((f) => f.id));
    const review = (await call(lawyer, 'GET', `/api/documents/${draft.id}/review`)).json() as ReviewResponse;
    expect(review.revisions.map((r) => r.change_id).sort()).toEqual(proposed.flatMap((x) => x.changeIds).sort());
    expect(new Set(review.revisions.map((r) => r.author))).toEqual(new Set([CHECKS_AUTHOR]));
    expect(review.revisions.map((r) => r.justification)).toContain(fixable[0]!.message);

    // The fixes pending, the accepted view has no variant left: nothing is proposed twice.
    const again = ProposeFixesAnswer.parse((await call(lawyer, 'POST', `/api/documents/${draft.id}/checks/proposals`, {})).json());
    expect(again.proposed).toEqual([]);
    const rejected = ChecksAnswer.parse((await call(lawyer, 'GET', `/api/documents/${draft.id}/checks?view=rejected`)).json()).findings;
    expect(rejected.filter((f) => f.kind === 'term_variant').map((f) => f.causedBy.length > 0)).toEqual([true, true]);
  });

  it('gives the assistant the same findings through check_document', async () => {
    const draft = await draftOf(buildDocx({ body: [p('The fee is [●] payable on [insert date] under Clause 9.')] }));
    const http = ChecksAnswer.parse((await call(lawyer, 'GET', `/api/documents/${draft.id}/checks`)).json());
    const server = createMcpServer({ userId: lawyer.user.id, orgId: lawyer.orgId }, t.ctx);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'check_document', arguments: { documentId: draft.id } });
    expect(result.structuredContent).toEqual(http);
    expect(http.findings.map((f) => f.kind)).toEqual(['placeholder', 'placeholder', 'broken_cross_reference']);
    await client.close();
  });
});
