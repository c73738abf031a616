import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { buildDemoContract } from '../../docx/fixture';
import { ConnectorFlow } from '../../../test/support/connector-flow';
import { multipartBody, startHttpTestService, type TestService } from '../../../test/support/test-service';

/**
 * Answers a handler sends itself (streams, bytes, hijacked MCP exchanges, the 503 of the
 * readiness route) are complete when the handler returns: the route wrapper must not try to
 * answer again. It used to, and every such answer logged FST_ERR_REP_ALREADY_SENT with a stack
 * at warn level although the client got the right answer; the log must carry only real errors.
 */
describe('routes that answer for themselves', () => {
  let t: TestService;
  let base: string;
  let lawyer: SessionGrant;
  let accessToken: string;
  let uploadId: string;
  let draftId: string;
  const lines: string[] = [];
  const email = 'streams@firm.example';

  beforeAll(async () => {
    t = await startHttpTestService({ logLevel: 'info' }, { logger: { write: (line: string) => void lines.push(line) } });
    base = t.config.publicUrl;
    lawyer = await t.signUpAndSignIn(email, 'Firm');
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    uploadId = (await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } })).json().id;
    draftId = (await t.app.inject({ method: 'POST', url: `/api/uploads/${uploadId}/working-draft`, headers: t.headers(lawyer) })).json().id;
    accessToken = (await new ConnectorFlow(base).connect(email)).access_token;
  }, 60_000);
  afterAll(async () => t?.destroy());

  /** Log records at warn level or above, and any mention of an answer sent twice. */
  const complaints = () => lines.map((line) => JSON.parse(line) as { level: number; msg?: string; err?: { code?: string } })
    .filter((record) => record.level >= 40 || JSON.stringify(record).includes('FST_ERR_REP_ALREADY_SENT'));

  it('answers each correctly and logs no complaint', async () => {
    lines.length = 0;
    const session = t.headers(lawyer);
    const get = (url: string) => fetch(`${base}${url}`, { headers: session });

    const pdf = await get(`/api/documents/${draftId}/report.pdf`);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    const csv = await get(`/api/documents/${draftId}/report.csv`);
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain('Change 1');
    for (const url of [`/api/uploads/${uploadId}/content`, `/api/documents/${draftId}/download?variant=clean`]) {
      const docx = await get(url);
      expect(docx.status, url).toBe(200);
      expect(Buffer.from(await docx.arrayBuffer()).subarray(0, 2).toString(), url).toBe('PK');
    }

    // The live track: a stream the client reads, then leaves.
    const controller = new AbortController();
    const events = await fetch(`${base}/api/documents/${draftId}/events`, { headers: session, signal: controller.signal });
    expect(events.status).toBe(200);
    const reader = events.body!.getReader();
    // The stream's first event, however the chunks of its first lines arrive.
    let received = '';
    while (!received.includes('event:')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      received += new TextDecoder().decode(chunk.value);
    }
    expect(received).toContain('event:');
    controller.abort();
    await reader.closed.catch(() => undefined);

    // MCP: a hijacked exchange, a refused token, and the stateless endpoint's 405.
    const mcp = (method: string, token: string) => fetch(`${base}/api/mcp`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) } : {}),
    });
    const tools = await mcp('POST', accessToken);
    expect(tools.status).toBe(200);
    expect(((await tools.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    expect((await mcp('POST', 'not-a-token-at-all-xxxxxxxx')).status).toBe(401);
    expect((await mcp('GET', accessToken)).status).toBe(405);

    // Readiness while draining: a 503 problem the route sends itself.
    t.readiness.startDraining();
    const ready = await fetch(`${base}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { code: string }).code).toBe('not_ready');

    // Let the last answers' log lines arrive.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(complaints()).toEqual([]);
    // The log was listening: every request above was logged at info.
    expect(lines.filter((line) => line.includes('"request completed"')).length).toBeGreaterThanOrEqual(5);
  }, 60_000);
});
