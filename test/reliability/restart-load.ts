import type { ReviewResponse } from '../../src/contract/review';
import { openDocx } from '../../src/docx';
import { nativeZipCodec } from '../../src/service/engine/native-zip-codec';
import { buildKindSample } from '../../src/docx/fixture';
import { Prng } from '../../src/docx/fixture/prng';
import type { ContentStore } from '../../src/service/store/content-store';
import type { Queryable } from '../../src/service/store/database';
import { loadLog } from '../../src/service/review/decision-log';
import { effectiveState, replayLog as replayDecisionLog } from '../../src/service/review/track-projection';
import type { PrivatePostgres } from './private-postgres';
import { sha256Hex, type HttpAnswer, type ServiceClient } from './service-client';

export interface RestartLoadOptions {
  /** Signed-in clients of the running service; each applies to its own draft. */
  clients: ServiceClient[];
  /** The drafts, one per client. */
  draftIds: string[];
  /** Extra workers that only read and upload. */
  readers: number;
  postgres: PrivatePostgres;
  /** How many times the cluster goes down during the run. */
  restarts: number;
  /** How long the cluster stays down each time (requests then meet refused connections). */
  downMs: number;
  /** Load before the first outage, between outages, and after the last one. */
  calmMs: number;
  db: Queryable;
  content: ContentStore;
  seed: number;
  log?: (line: string) => void;
}

export interface RestartLoadReport {
  requests: number;
  /** How often each status was answered (first attempts and retries alike). */
  statuses: Record<string, number>;
  /** Operations whose first answer was 503 and that then succeeded on retry. */
  recoveredBy503Retry: number;
  batchesApplied: number;
  problems: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A load run during which PostgreSQL goes down and comes back. Apply workers decide
 * their own draft's changes in small batches; reader workers review drafts, list and
 * upload. Every answer must be a success, a 4xx the operation explains, or a clean
 * 503; an operation answered 503 is retried until it succeeds (the service must
 * reconnect by itself). Afterwards each draft's track must hold exactly the verdicts
 * the workers were told, and replaying every logged batch through the engine from the
 * original bytes must give each batch's stored result: no batch is half applied.
 */
export async function runRestartLoad(o: RestartLoadOptions): Promise<RestartLoadReport> {
  const log = o.log ?? (() => {});
  const rng = new Prng(o.seed);
  const statuses: Record<string, number> = {};
  const problems: string[] = [];
  let requests = 0;
  let recovered = 0;
  let batches = 0;
  let stopping = false;

  /** Sends, and on 503 sends again (up to 60 s) until the service answers something else. */
  const send = async (what: string, op: () => Promise<HttpAnswer>): Promise<{ answer: HttpAnswer; saw503: boolean }> => {
    let saw503 = false;
    const deadline = Date.now() + 60_000;
    for (;;) {
      let answer: HttpAnswer;
      try {
        answer = await op();
      } catch (error) {
        answer = { status: 0, body: String(error) };
      }
      requests++;
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.status === 503) {
        saw503 = true;
        const code = (answer.body as { code?: string }).code;
        if (code !== 'service_unavailable') problems.push(`${what}: 503 with code ${code}`);
        if (Date.now() > deadline) {
          problems.push(`${what}: still 503 after 60 s of retries; the service did not reconnect`);
          return { answer, saw503 };
        }
        await sleep(50 + rng.int(0, 100));
        continue;
      }
      if (answer.status >= 500 || answer.status === 0) problems.push(`${what}: answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      if (saw503 && answer.status < 300) recovered++;
      return { answer, saw503 };
    }
  };

  const verdicts = o.draftIds.map(() => new Map<string, 'in' | 'back'>());
  const applier = async (index: number) => {
    const client = o.clients[index]!;
    const draftId = o.draftIds[index]!;
    let open = (await client.review(draftId)).revisions.map((r) => r.change_id);
    while (!stopping && open.length > 0) {
      const take = open.slice(0, rng.int(1, 3));
      const accept = take.filter(() => rng.next() < 0.5);
      const reject = take.filter((id) => !accept.includes(id));
      const { answer, saw503 } = await send(`apply on ${draftId}`, () =>
        client.call('POST', `/documents/${draftId}/revisions/apply`, { accepted_change_ids: accept, rejected_change_ids: reject }));
      const code = (answer.body as { code?: string }).code;
      if (answer.status === 200) {
        batches++;
        open = (answer.body as ReviewResponse).revisions.map((r) => r.change_id);
      } else if (answer.status === 409 && code === 'already_decided' && saw503) {
        // The commit went through but its answer was lost with the connection; the
        // retry finds the batch decided. The track check below proves it was this batch.
        batches++;
        open = (await client.review(draftId)).revisions.map((r) => r.change_id);
      } else {
        problems.push(`apply on ${draftId}: unexpected ${answer.status} ${code ?? ''}`);
        return;
      }
      for (const id of accept) verdicts[index]!.set(id, 'in');
      for (const id of reject) verdicts[index]!.set(id, 'back');
    }
  };
  const reader = async () => {
    const client = o.clients[0]!;
    const sample = buildKindSample('insert');
    while (!stopping) {
      const pick = rng.int(0, 2);
      const what = ['review', 'list', 'upload'][pick]!;
      const { answer } = await send(what, () =>
        pick === 0 ? client.call('GET', `/documents/${o.draftIds[rng.int(0, o.draftIds.length - 1)]}/review`)
          : pick === 1 ? client.call('GET', '/uploads?limit=20')
            : client.upload('sample.docx', sample));
      if (answer.status >= 300) problems.push(`${what}: unexpected ${answer.status}`);
    }
  };

  const work = [...o.draftIds.map((_, i) => applier(i)), ...Array.from({ length: o.readers }, () => reader())];
  const outages = (async () => {
    for (let n = 1; n <= o.restarts; n++) {
      await sleep(o.calmMs);
      // A fast shutdown terminates every session mid-query, then the port refuses connections.
      await o.postgres.stop('fast');
      log(`outage ${n}: PostgreSQL stopped`);
      await sleep(o.downMs);
      await o.postgres.start();
      log(`outage ${n}: PostgreSQL back`);
    }
    await sleep(o.calmMs);
    stopping = true;
  })();
  await Promise.all([outages, ...work]);

  // The log holds exactly what the workers were told, the track shows what the log says, and
  // nothing is half applied. A change shows its own verdict unless a change holding it was decided
  // the way that removes it (a rejected insertion inside an accepted deletion shows as accepted,
  // whichever came first): effectiveState, the order-independent rule.
  for (const [index, draftId] of o.draftIds.entries()) {
    const final = await o.clients[index]!.review(draftId);
    const states = new Map(final.track?.items.map((i) => [i.id, i.state]));
    const logged = replayDecisionLog(await loadLog(o.db, draftId));
    for (const [id, verdict] of verdicts[index]!) {
      const recorded = logged.decided.get(id);
      if (recorded?.state !== verdict) problems.push(`draft ${draftId}: ${id} was answered ${verdict} but the log recorded ${recorded?.state}`);
      else if (states.get(id) !== effectiveState(logged.decided, id)) {
        problems.push(`draft ${draftId}: ${id} shows ${states.get(id)} in the track but ${effectiveState(logged.decided, id)} in the log`);
      }
    }
    const openIds = new Set(final.track?.items.filter((i) => i.state === 'open').map((i) => i.id));
    if (openIds.size !== final.revisions.length || final.revisions.some((r) => !openIds.has(r.change_id))) {
      problems.push(`draft ${draftId}: the track's open items are not the draft's revisions`);
    }
    problems.push(...await replayLog(o.db, o.content, draftId));
  }
  return { requests, statuses, recoveredBy503Retry: recovered, batchesApplied: batches, problems };
}

/**
 * Replays a draft's decision log through the engine: each batch, applied to the bytes
 * it started from, must give exactly the bytes it recorded, and the chain must end at
 * the draft's content. A batch whose row, log entry and content were not committed
 * together would break one of these.
 */
export async function replayLog(db: Queryable, content: ContentStore, draftId: string): Promise<string[]> {
  const problems: string[] = [];
  const [row] = await db.query<{ content_sha256: string }>('SELECT content_sha256 FROM uploads WHERE id = $1', [draftId]);
  const log = await db.query<{ seq: number; kind: string; accepted: string[]; rejected: string[]; previous_sha256: string; next_sha256: string }>(
    'SELECT seq, kind, accepted, rejected, previous_sha256, next_sha256 FROM decision_batches WHERE upload_id = $1 ORDER BY seq', [draftId]);
  let previous: string | null = null;
  for (const batch of log) {
    if (previous !== null && batch.previous_sha256 !== previous) problems.push(`draft ${draftId}: batch ${batch.seq} does not start where batch ${batch.seq - 1} ended`);
    if (batch.kind === 'decide') {
      // The service's codec, so the same decisions give the same bytes.
      const previousBytes = await content.get(batch.previous_sha256);
      const result = openDocx(previousBytes, { codec: nativeZipCodec }).apply({ accept: batch.accepted, reject: batch.rejected }).toBytes();
      if (sha256Hex(result) !== batch.next_sha256) problems.push(`draft ${draftId}: batch ${batch.seq}'s stored result is not its decisions applied`);
    }
    previous = batch.next_sha256;
  }
  if (previous !== null && row?.content_sha256 !== previous) problems.push(`draft ${draftId}: the content is not where the decision log ends`);
  return problems;
}
