import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { DraftLogEvent } from '../../contract/events';
import { ReviewResponse } from '../../contract/review';
import { buildDemoContract } from '../../docx/fixture';
import { EventStreamReader } from '../../../test/support/event-stream';
import { multipartBody } from '../../../test/support/test-service';
import { startTestCluster, type TestCluster } from '../../../test/support/test-cluster';
import { addMember, createOrg, createUser } from '../auth/directory';
import type { Database } from '../store/database';
import type { Cluster } from './cluster';
import { LOCAL_POSTGRES_URL, postgresReachable } from './postgres-admin';
import { SERVED_BY_HEADER } from './haproxy-config';

/**
 * A review event stream through HAProxy survives the instance serving it being
 * killed: the client reconnects (to another instance) with Last-Event-ID and receives every
 * log entry exactly once, in order, including those committed while it was away.
 */
const SERVER_URL = process.env.DATABASE_URL || LOCAL_POSTGRES_URL;
const reachable = await postgresReachable(SERVER_URL);
if (!reachable) console.warn(`live cluster test skipped: PostgreSQL is not reachable at ${SERVER_URL.replace(/\/\/[^@/]*@/, '//***@')}`);

describe.skipIf(!reachable)('an event stream across an instance kill', () => {
  let testCluster: TestCluster;
  let cluster: Cluster;
  let db: Database;
  let reader: EventStreamReader | null = null;

  beforeAll(async () => {
    testCluster = await startTestCluster(SERVER_URL, 2, 'redline_live_test', { RATE_SENDS_PER_IP_PER_MINUTE: '1000' });
    ({ cluster, db } = testCluster);
  }, 90_000);
  afterAll(async () => {
    await reader?.close();
    await testCluster?.stop();
  }, 30_000);

  /** A request through `base`, retried while the instance it reaches is down (the proxy answers 502). */
  async function call(base: string, method: string, url: string, headers: Record<string, string>, body?: BodyInit, contentType = 'application/json'): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${base}${url}`, { method, headers: { ...headers, ...(body ? { 'content-type': contentType } : {}) }, body });
      if (res.status !== 502 || attempt > 5) return res;
      await res.arrayBuffer();
    }
  }

  it('resumes with Last-Event-ID on another instance and misses nothing', async () => {
    await db.transaction(async (tx) => {
      const user = await createUser(tx, 'live@cluster.example', 'Live Reviewer');
      const orgId = await createOrg(tx, 'Live Cluster LLP');
      await addMember(tx, orgId, user.id, 'owner');
    });
    await call(cluster.url, 'POST', '/api/auth/sign-in/request-code', {}, JSON.stringify({ identifier: 'live@cluster.example' }));
    const mail = await (await call(cluster.url, 'GET', '/api/dev/mailbox?to=live%40cluster.example', {})).json() as { code: string };
    const grant = await (await call(cluster.url, 'POST', '/api/auth/verify', {}, JSON.stringify({ identifier: 'live@cluster.example', code: mail.code }))).json() as SessionGrant;
    const auth = { authorization: `Bearer ${grant.session_token}`, 'x-org-id': grant.orgId };
    const form = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const upload = await (await call(cluster.url, 'POST', '/api/uploads', { ...auth, ...form.headers }, new Uint8Array(form.payload), form.headers['content-type'])).json() as { id: string };
    const draft = await (await call(cluster.url, 'POST', `/api/uploads/${upload.id}/working-draft`, auth)).json() as { id: string };
    const review = ReviewResponse.parse(await (await call(cluster.url, 'GET', `/api/documents/${draft.id}/review`, auth)).json());
    const ids = review.revisions.map((r) => r.change_id);

    reader = new EventStreamReader(`${cluster.url}/api/documents/${draft.id}/events`, auth, { reconnect: true, retryMs: 100 });
    await reader.until(() => reader!.named('ready').length === 1, 15_000);
    const servedBy = String(reader.answers[0]![SERVED_BY_HEADER]);
    const doomed = cluster.instances.find((i) => i.name === servedBy)!;
    const survivor = cluster.instances.find((i) => i !== doomed)!;
    const decide = async (base: string, id: string) => {
      const res = await call(base, 'POST', `/api/documents/${draft.id}/revisions/apply`, auth, JSON.stringify({ accepted_change_ids: [id] }));
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    };

    // Two decisions, through the survivor: the doomed instance's stream hears them by polling the log.
    await decide(survivor.url, ids[0]!);
    await decide(survivor.url, ids[1]!);
    await reader.until(() => reader!.named('entry').length === 2, 10_000);

    // The instance holding the stream dies without a word; two more decisions commit meanwhile.
    process.kill(doomed.pid, 'SIGKILL');
    await decide(survivor.url, ids[2]!);
    await decide(survivor.url, ids[3]!);
    await reader.until(() => reader!.named('entry').length === 4, 20_000);
    await decide(survivor.url, ids[4]!);
    await reader.until(() => reader!.named('entry').length === 5, 10_000);

    const entries = reader.named('entry').map((e) => ({ id: e.id, entry: DraftLogEvent.parse(JSON.parse(e.data)) }));
    expect(entries.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(entries.map((e) => Object.keys(e.entry.decided))).toEqual(ids.slice(0, 5).map((id) => [id]));
    // It did reconnect, and the stream that now runs is the survivor's.
    expect(reader.attempts.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(String(reader.answers.at(-1)![SERVED_BY_HEADER])).toBe(survivor.name);
  });
});
