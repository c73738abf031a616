import { findUserById } from '../auth/directory';
import { ProblemError, type ProblemExtras } from '../http/problem';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { regrouped } from './baseline-entries';
import { loadProposals } from './decision-log';
import type { IdempotentRequest } from './idempotency';
import { batchVerdicts, namedVerdicts, recordOf } from './implied-decisions';
import { decisionStep } from './draft-commits';
import { listingVersion, requireListingVersion } from './listing-delta';
import { withJustifications } from './review-answers';
import { requireDraftIfQueued, uniq, type Actor, type AnswerShape, type ApplyAnswerOf, type ReviewParts } from './review-parts';
import { checkNotes, engineProblem } from './review-problems';
import { predecessors, projectTrack, type DecidedChange, type LogState } from './track-projection';

export interface ApplyRequest {
  accept: string[];
  reject: string[];
  recordDecision: boolean;
  /** Notes recorded with this batch's decisions, by change id (only ids it names). */
  notes?: Record<string, string>;
  /** If-Match: the listing version the client holds; the batch applies only to it, and a minimal answer is the delta from it. */
  ifMatch?: string;
}

/**
 * A batch of decisions: the named changes accepted or rejected (or withdrawn, for one's own
 * proposals), with those the batch took with them (implied-decisions.ts), recorded in the log.
 */
export async function applyDecisions<S extends AnswerShape = 'full'>(
  parts: ReviewParts, actor: Actor, uploadId: string, request: ApplyRequest, timing: ServerTiming = NO_TIMING, idempotency?: IdempotentRequest, shape?: S,
): Promise<ApplyAnswerOf<S>> {
  const accept = uniq(request.accept);
  const reject = uniq(request.reject);
  const both = accept.filter((id) => reject.includes(id));
  if (both.length > 0) {
    throw new ProblemError(400, 'conflicting_change_ids', `These changes are both accepted and rejected: ${both.join(', ')}. Nothing was applied.`, { ids: both });
  }
  const requested = [...accept, ...reject];
  const notes = checkNotes(request.notes ?? {}, new Set(requested), request.recordDecision);
  await timing.measure('load', () => requireDraftIfQueued(parts, actor, uploadId));

  const result = await parts.commits.change(actor, uploadId, timing, idempotency, async ({ row, entries, state, bytes }) => {
    requireListingVersion(request.ifMatch, row.content_sha256!, state.lastSeq);
    const revisions = await timing.measure('analyse', () => parts.reads.revisionsFor(row.content_sha256!, bytes));
    const present = new Set(revisions.map((r) => r.change_id));
    const decidedAlready = requested.filter((id) => !present.has(id) && (state.decided.has(id) || state.withdrawn.has(id)));
    if (decidedAlready.length > 0) {
      throw new ProblemError(409, 'already_decided', `These changes were already decided: ${decidedAlready.join(', ')}. Nothing was applied.`,
        { ids: decidedAlready, decisions: await howDecided(parts, decidedAlready, state) });
    }
    const unknown = requested.filter((id) => !present.has(id));
    if (unknown.length > 0) {
      throw new ProblemError(422, 'unknown_change_ids', `This draft has no changes with these ids: ${unknown.join(', ')}. Nothing was applied.`, { ids: unknown });
    }
    const proposals = await timing.measure('load', () => loadProposals(parts.db, uploadId));
    if (!request.recordDecision) {
      const notOwn = requested.filter((id) => proposals.get(id)?.userId !== actor.userId);
      if (notOwn.length > 0) {
        throw new ProblemError(403, 'not_own_proposal', `Only your own proposals can be withdrawn without recording a decision; these are not: ${notOwn.join(', ')}.`, { ids: notOwn });
      }
    }
    if (requested.length === 0) return null;

    const doc = parts.reads.openDraft(row.content_sha256!, bytes, timing);
    const facts = await timing.measure('facts', () => parts.baselines.decisionFacts(entries, row.content_sha256!, doc.changeIds(), () => doc));
    const grouping = await timing.measure('facts', () => parts.baselines.entryGrouping(entries, row.content_sha256!, () => doc));
    try {
      timing.measureSync('apply', () => doc.apply({ accept, reject }));
    } catch (error) {
      throw engineProblem(error);
    }
    // The listing the batch is planned on, as this service answered it (the client's, when it sent If-Match): its track is the one projected here otherwise.
    const base = listingVersion(row.content_sha256!, state.lastSeq);
    const held = parts.answers.listingAt(uploadId, base);
    const before = held?.track ?? projectTrack(state, regrouped(withJustifications(revisions, proposals), grouping));
    const revisionById = new Map(revisions.map((r) => [r.change_id, r]));
    const anchors = predecessors(before);
    const byId = new Map(before.items.map((item) => [item.id, item]));
    const named = new Map<string, 'in' | 'back'>([...accept.map((id) => [id, 'in'] as const), ...reject.map((id) => [id, 'back'] as const)]);
    // Named changes, and those the batch took with them (implied-decisions.ts).
    const verdicts = batchVerdicts(revisions, named, new Set(doc.changeIds()), facts, namedVerdicts(state.decided));
    const now = new Date().toISOString();
    const decided: Record<string, DecidedChange> = {};
    const withdrawn: Record<string, string | null> = {};
    for (const [id, verdict] of verdicts) {
      if (!request.recordDecision) {
        withdrawn[id] = anchors.get(id) ?? null;
        continue;
      }
      const item = byId.get(id)!;
      decided[id] = {
        ...recordOf(verdict), kind: item.kind ?? null, textPreview: item.textPreview ?? '', author: item.author ?? null,
        decidedAt: now, decidedByUserId: actor.userId, after: anchors.get(id) ?? null,
        date: revisionById.get(id)?.date ?? null, justification: item.justification ?? null,
        ...(item.group ? { group: item.group, groupSummary: item.groupSummary ?? item.textPreview ?? '' } : {}),
        ...(item.clause ? { clause: item.clause } : {}),
        ...(item.move ? { move: true as const } : {}),
      };
    }
    const step = shape === 'minimal' ? decisionStep(base, { logSeq: state.lastSeq, contentSha256: row.content_sha256! }, held, { decided, withdrawn }, { facts, grouping, proposals }) : undefined;
    return {
      doc, ...(await parts.answers.writeAndAnalyse(doc, timing, shape)),
      log: { kind: 'decide', undoesSeq: null, accepted: accept, rejected: reject, decided, withdrawn, notes },
      ...(step ? { step } : {}),
    };
  });
  return parts.answers.answer(result, timing, idempotency, shape, request.ifMatch);
}

/** Who decided each of these changes and how (for a 409 the reviewer can read); withdrawn ones are left out. */
async function howDecided(parts: ReviewParts, ids: string[], state: LogState): Promise<NonNullable<ProblemExtras['decisions']>> {
  const names = new Map<string, string | null>();
  const decisions: NonNullable<ProblemExtras['decisions']> = [];
  for (const id of ids) {
    const d = state.decided.get(id);
    if (!d) continue;
    if (d.decidedByUserId && !names.has(d.decidedByUserId)) names.set(d.decidedByUserId, (await findUserById(parts.db, d.decidedByUserId))?.name ?? null);
    decisions.push({ id, state: d.state, decidedAt: d.decidedAt, decidedByUserId: d.decidedByUserId, decidedByName: d.decidedByUserId ? names.get(d.decidedByUserId) ?? null : null });
  }
  return decisions;
}
