import fc from 'fast-check';
import type { DocumentRow } from '../../src/contract/document';
import type { ReviewResponse } from '../../src/contract/review';
import { Prng } from '../../src/docx/fixture/prng';
import type { ChildService } from './child-service';
import { byteMutation, handMadeCases, seedDocuments, xmlMutation, type HostileCase } from './hostile-docx';
import type { ServiceClient } from './service-client';

export interface FuzzStats {
  cases: number;
  requests: number;
  /** `step status` -> how often, e.g. `upload 422`, `apply 200`. */
  statuses: Record<string, number>;
  accepted: number;
  peakRssBytes: number;
  slowest: { name: string; ms: number };
  problems: string[];
}

export interface FuzzOptions {
  client: ServiceClient;
  service: ChildService;
  /** A request taking longer than this counts as a hang. */
  requestTimeoutMs: number;
  /** Fail when the service's RSS passes this. */
  rssLimitBytes: number;
  log?: (line: string) => void;
}

/**
 * Sends hostile files at a running service and holds it to: every answer below 500,
 * every answer in time (no hang), the process alive, and its RSS under the limit. An
 * accepted file goes on: a working draft, the review, and an apply of a random
 * subset of its change ids (accepts and rejects), then the review again.
 */
export class FuzzRun {
  readonly stats: FuzzStats = { cases: 0, requests: 0, statuses: {}, accepted: 0, peakRssBytes: 0, slowest: { name: '', ms: 0 }, problems: [] };
  private readonly sampler: NodeJS.Timeout;

  constructor(private readonly o: FuzzOptions) {
    this.sampler = setInterval(() => this.sampleRss(), 20);
  }

  private sampleRss(): void {
    const rss = this.o.service.rssBytes();
    if (rss > this.stats.peakRssBytes) this.stats.peakRssBytes = rss;
  }

  stop(): FuzzStats {
    clearInterval(this.sampler);
    this.sampleRss();
    if (this.stats.peakRssBytes > this.o.rssLimitBytes) {
      this.stats.problems.push(`the service's RSS reached ${(this.stats.peakRssBytes / 2 ** 20).toFixed(0)} MB (limit ${(this.o.rssLimitBytes / 2 ** 20).toFixed(0)} MB)`);
    }
    return this.stats;
  }

  /** Runs one case; answers the problems it found (also kept in stats). */
  async run(c: HostileCase, seed: number): Promise<string[]> {
    const problems: string[] = [];
    const rng = new Prng(seed);
    const began = performance.now();
    this.stats.cases++;
    const step = async <T>(what: string, send: () => Promise<{ status: number; body: unknown }>): Promise<{ status: number; body: T } | null> => {
      const t0 = performance.now();
      let answer: { status: number; body: unknown };
      try {
        answer = await send();
      } catch (error) {
        const name = (error as Error).name;
        problems.push(`${c.name}: ${what} ${name === 'TimeoutError' ? `did not answer within ${this.o.requestTimeoutMs} ms (hang)` : `failed: ${(error as Error).message}`}`);
        return null;
      }
      const ms = performance.now() - t0;
      if (ms > this.stats.slowest.ms) this.stats.slowest = { name: `${c.name} (${what})`, ms };
      this.stats.requests++;
      const key = `${what} ${answer.status}`;
      this.stats.statuses[key] = (this.stats.statuses[key] ?? 0) + 1;
      this.sampleRss();
      if (this.o.log && what !== 'upload' && answer.status >= 400) this.o.log(`${c.name}: ${what} ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      if (answer.status >= 500) problems.push(`${c.name}: ${what} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      return answer as { status: number; body: T };
    };
    const { client, requestTimeoutMs: timeout } = this.o;

    const uploaded = await step<DocumentRow>('upload', () => client.upload(`${c.name.slice(0, 60).replace(/[^\w .-]/g, '_')}.docx`, c.bytes, c.type, timeout));
    if (uploaded?.status === 201) {
      this.stats.accepted++;
      const draft = await step<DocumentRow>('working-draft', () => client.call('POST', `/uploads/${uploaded.body.id}/working-draft`, undefined, timeout));
      if (draft?.status === 201) {
        const review = await step<ReviewResponse>('review', () => client.call('GET', `/documents/${draft.body.id}/review`, undefined, timeout));
        if (review?.status === 200) {
          const accept: string[] = [];
          const reject: string[] = [];
          for (const r of review.body.revisions) {
            const roll = rng.next();
            if (roll < 0.35) accept.push(r.change_id);
            else if (roll < 0.7) reject.push(r.change_id);
          }
          const applied = await step('apply', () => client.call('POST', `/documents/${draft.body.id}/revisions/apply`, { accepted_change_ids: accept, rejected_change_ids: reject }, timeout));
          if (applied?.status === 200) await step('review again', () => client.call('GET', `/documents/${draft.body.id}/review`, undefined, timeout));
        }
      }
    }
    const ms = performance.now() - began;
    if (ms > this.stats.slowest.ms) this.stats.slowest = { name: c.name, ms };
    this.stats.problems.push(...problems);
    this.o.log?.(`${c.name}: ${uploaded?.status ?? 'no answer'} in ${ms.toFixed(0)} ms${problems.length ? ` PROBLEMS: ${problems.join('; ')}` : ''}`);
    return problems;
  }

  /** The seeds and every hand-made attack. */
  async runCorpus(): Promise<void> {
    for (const [i, c] of [...seedDocuments(), ...handMadeCases()].entries()) await this.run(c, i + 1);
  }

  /** fast-check mutations of the seeds; stops at the first case that breaks a rule and names it. */
  async runMutations(seed: number, numRuns: number): Promise<void> {
    const seeds = seedDocuments();
    const arbitrary = fc.nat(seeds.length - 1).chain((i) => {
      const base = seeds[i]!;
      return fc.tuple(fc.oneof(byteMutation(base.bytes), xmlMutation(base.bytes)), fc.nat()).map(([m, s]) => ({ c: { name: `${base.name}, ${m.name}`, bytes: m.bytes }, s }));
    });
    // No shrinking: each run is a round trip to a live service; the failing case is named in full instead.
    await fc.assert(fc.asyncProperty(arbitrary, async ({ c, s }) => (await this.run(c, s)).length === 0), { seed, numRuns, endOnFailure: true });
  }
}
