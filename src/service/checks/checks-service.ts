import type { CheckFinding, CheckView, ChecksAnswer } from '../../contract/checks';
import type { EngineThreads } from '../engine/engine-threads';
import { ByteBudgetLru } from '../review/byte-budget-lru';
import type { ContentStore } from '../store/content-store';
import type { Database } from '../store/database';
import type { UploadsService } from '../uploads/uploads-service';
import { ProblemError } from '../http/problem';

interface Actor {
  orgId: string;
  userId: string;
}

type Checks = Record<CheckView, CheckFinding[]>;

/**
 * The checks of a document (issue 35), for the HTTP route, the assistant's tool and the
 * proposals. Computed on an engine thread (two parses and two whole-document decisions: seconds
 * of CPU on a long draft), both views at once, and kept by content hash: a re-read of the same
 * content answers from memory with the same findings and ids; a decision or an edit is a new
 * content and so a new computation. Concurrent asks for one content share one computation.
 */
export class ChecksService {
  private readonly kept = new ByteBudgetLru<Checks>(32 * 1024 * 1024);
  private readonly running = new Map<string, Promise<Checks>>();

  constructor(
    private readonly db: Database,
    private readonly content: ContentStore,
    private readonly uploads: UploadsService,
    private readonly threads: EngineThreads,
  ) {}

  async checks(actor: Actor, documentId: string, view: CheckView = 'accepted'): Promise<ChecksAnswer> {
    const row = await this.uploads.require(this.db, actor.orgId, documentId);
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
    const checks = await this.of(row.content_sha256, actor.orgId);
    return { documentId: row.id, view, findings: checks[view] };
  }

  private of(sha: string, orgId: string): Promise<Checks> {
    const kept = this.kept.get(sha);
    if (kept) return Promise.resolve(kept);
    const running = this.running.get(sha);
    if (running) return running;
    const work = (async () => {
      const bytes = await this.content.get(sha);
      // The worker takes the bytes it is handed; the content store may keep its own.
      const checks = await this.threads.checks(bytes.slice(), { orgId });
      this.kept.set(sha, checks, approximateBytes(checks));
      return checks;
    })().finally(() => this.running.delete(sha));
    this.running.set(sha, work);
    return work;
  }
}

function approximateBytes(checks: Checks): number {
  let chars = 0;
  for (const list of Object.values(checks)) for (const f of list) chars += f.message.length + f.excerpt.length + 200 + f.causedBy.length * 12;
  return chars * 2;
}
