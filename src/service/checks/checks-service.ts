import { CHECKS_AUTHOR, type CheckFinding, type CheckView, type ChecksAnswer, type ProposeFixesAnswer } from '../../contract/checks';
import type { EngineThreads } from '../engine/engine-threads';
import { ByteBudgetLru } from '../review/byte-budget-lru';
import type { ContentStore } from '../store/content-store';
import type { Database } from '../store/database';
import type { ReviewService } from '../review/review-service';
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
    private readonly review: ReviewService,
  ) {
    content.whenStored((sha, bytes) => this.prepare(sha, bytes));
  }

  /**
   * Starts the checks of a content just stored (an upload, a saved draft, each decision's new
   * content), so the first ask usually finds them kept: on a spare engine worker only (see
   * EngineThreads.checksWhenIdle), never ahead of a request's job, once per content hash.
   * A failure is left for the ask to meet again (and answer as its problem).
   */
  private prepare(sha: string, bytes: Uint8Array): void {
    if (this.kept.get(sha) || this.running.has(sha)) return;
    const work = this.threads.checksWhenIdle(sha, bytes.slice()).then((checks) => {
      this.kept.set(sha, checks, approximateBytes(checks));
      return checks;
    }).finally(() => this.running.delete(sha));
    work.catch(() => undefined);
    this.running.set(sha, work);
  }

  async checks(actor: Actor, documentId: string, view: CheckView = 'accepted'): Promise<ChecksAnswer> {
    const row = await this.uploads.require(this.db, actor.orgId, documentId);
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
    const checks = await this.of(row.content_sha256, actor.orgId);
    return { documentId: row.id, view, findings: checks[view] };
  }

  /**
   * Writes the fixes of the accepted view's findings (those named, else every one that has a
   * fix) as tracked changes by "Redline checks", each justified by its finding's message, through
   * the redline edits the connector uses: they are reviewed, decided and withdrawn like any other
   * proposal. A fix proposed and pending is accepted in the accepted view, so its finding is gone
   * from it: asking again proposes nothing twice. A finding named that is not there, or has no
   * certain fix, is refused (422) and nothing is written.
   */
  async propose(actor: Actor, documentId: string, findingIds?: readonly string[]): Promise<ProposeFixesAnswer> {
    const { findings } = await this.checks(actor, documentId, 'accepted');
    let chosen: CheckFinding[];
    if (findingIds) {
      const byId = new Map(findings.map((f) => [f.id, f]));
      const unknown = findingIds.filter((id) => !byId.has(id));
      if (unknown.length) throw new ProblemError(422, 'unknown_finding_ids', `The draft, as accepting every change leaves it, has no finding ${unknown.join(', ')}: read the checks again.`, { ids: unknown });
      const unfixable = findingIds.filter((id) => byId.get(id)!.fix === null);
      if (unfixable.length) throw new ProblemError(422, 'no_certain_fix', `Finding ${unfixable.join(', ')} has no certain fix to propose.`, { ids: unfixable });
      chosen = [...new Set(findingIds)].map((id) => byId.get(id)!);
    } else {
      chosen = findings.filter((f) => f.fix !== null);
    }
    if (chosen.length === 0) return { documentId, proposed: [] };
    const edits = chosen.map((f) => ({ op: 'replace' as const, blockId: f.fix!.blockId, find: f.fix!.find, occurrence: f.fix!.occurrence, text: f.fix!.replaceWith, justification: f.message }));
    const before = new Set((await this.review.review(actor, documentId)).revisions.map((r) => r.change_id));
    const answer = await this.review.redlines(actor, documentId, { edits, author: CHECKS_AUTHOR }, undefined, undefined, undefined, 'minimal');
    // Each fix is one edit group (a replacement: its deletion and insertion). Findings come in
    // document order, and so do the listing's groups: the i-th new group is the i-th fix's.
    const fresh = answer.revisions.filter((r) => !before.has(r.change_id));
    const groups = [...new Set(fresh.map((r) => r.group ?? r.change_id))];
    const inGroup = (g: string) => fresh.filter((r) => (r.group ?? r.change_id) === g).map((r) => r.change_id);
    return {
      documentId,
      proposed: chosen.map((f, i) => ({
        findingId: f.id,
        changeIds: groups.length === chosen.length ? inGroup(groups[i]!) : fresh.filter((r) => r.justification === f.message).map((r) => r.change_id),
      })),
    };
  }

  /** The checks of a content if already computed (never computes): for cheap summaries such as a count per draft. */
  computed(sha: string): Checks | undefined {
    return this.kept.get(sha);
  }

  private of(sha: string, orgId: string): Promise<Checks> {
    const kept = this.kept.get(sha);
    if (kept) return Promise.resolve(kept);
    const running = this.running.get(sha);
    if (running) {
      // Computed ahead and perhaps still waiting for a spare worker: a request waits on it now.
      this.threads.promote(sha);
      return running;
    }
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
