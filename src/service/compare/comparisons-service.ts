import type { CompareBody, CompareView, ComparisonKind, ComparisonPending, ResolvedCompareOptions } from '../../contract/compare';
import { comparisonArtifactId, ComparisonSummary, resolveCompareOptions, UNTRACKED_EDIT_AUTHOR, type ComparisonIdentical, type NoUntrackedEdits } from '../../contract/compare';
import type { CompareOptions } from '../../docx';
import type { DocumentRow } from '../../contract/document';
import { notFound, ProblemError } from '../http/problem';
import type { ContentStore } from '../store/content-store';
import type { Database } from '../store/database';
import { findUpload } from '../uploads/upload-rows';
import type { UploadsService } from '../uploads/uploads-service';
import type { EngineThreads } from '../engine/engine-threads';
import { compareUploads } from './comparison-engine';
import { previousVersionId } from './untracked-checks';

interface Actor {
  orgId: string;
  userId: string;
}

/** A working draft made by a comparison, and how many differences it carries as tracked changes. */
export interface ComparisonDraft {
  document: DocumentRow;
  changes: number;
  pending: ComparisonPending;
}

/** The engine's options for a view of the compare route. */
function engineView(view: CompareView): Pick<CompareOptions, 'view' | 'keepNewerRevisions' | 'showOlderPending'> {
  return view === 'pending' ? { view: 'rejected', keepNewerRevisions: true, showOlderPending: true } : { view };
}

const DEFAULT_AUTHOR = 'Comparison';

/** What a compare answers: the new draft, or that the two are identical (and nothing was written). */
export type ComparisonOutcome = ComparisonDraft | ComparisonIdentical;

/** What the untracked-edit draft answers: the new draft, or that the version has no untracked edit (and nothing was written). */
export type UntrackedDraftOutcome = ComparisonDraft | NoUntrackedEdits;

/**
 * Working drafts made by comparing two versions: `compare` (any two uploads of the
 * organisation) and the untracked-edit draft of a version (its untracked edits added as
 * tracked changes beside its own). The engine runs before anything is written; the redline is
 * stored, then its row is committed under the series lock, as every new version is.
 */
export class ComparisonsService {
  constructor(
    private readonly db: Database,
    private readonly content: ContentStore,
    private readonly thread: EngineThreads,
    private readonly uploads: UploadsService,
  ) {}

  /** Identical documents make no draft: a version with nothing to review would only be noise in the series. */
  async compare(actor: Actor, uploadId: string, body: CompareBody): Promise<ComparisonOutcome> {
    const newer = await this.uploads.require(this.db, actor.orgId, uploadId);
    if (body.against === uploadId) {
      throw new ProblemError(409, 'conflict', 'An upload cannot be compared with itself: name an older version in "against".');
    }
    const older = await findUpload(this.db, actor.orgId, body.against);
    if (!older) throw notFound(`The upload named in "against" (${body.against})`);
    const view = body.view ?? 'pending';
    const author = body.author ?? DEFAULT_AUTHOR;
    const options = resolveCompareOptions(body.options);
    const result = await compareUploads(this.content, this.thread, older, newer, { author, ...engineView(view), ...options }, true, { orgId: actor.orgId });
    if (result.differences.length === 0) return { identical: true, uploadId: newer.id, against: older.id, view, pending: result.pending };
    return this.store(actor, 'compare', newer.id, older.id, { view, author, options }, result);
  }

  /** What made a comparison's working draft; 404 for an upload no comparison made (or made before summaries were kept). */
  async summary(actor: Actor, draftId: string): Promise<ComparisonSummary> {
    await this.uploads.require(this.db, actor.orgId, draftId);
    const [row] = await this.db.query<{ summary: unknown }>('SELECT summary FROM comparison_summaries WHERE draft_id = $1', [draftId]);
    if (!row) throw notFound('A comparison that made this upload');
    return ComparisonSummary.parse(row.summary);
  }

  /**
   * The version with its untracked edits as tracked changes by "Untracked edit", its own tracked
   * changes kept. A version without untracked edits makes no draft, as identical documents make
   * none on a compare: a draft with nothing to review would only be noise in the series.
   */
  async untrackedWorkingDraft(actor: Actor, uploadId: string): Promise<UntrackedDraftOutcome> {
    const version = await this.uploads.require(this.db, actor.orgId, uploadId);
    const againstId = previousVersionId(version);
    if (!againstId) {
      throw new ProblemError(409, 'conflict', 'Only a version added to a series has untracked edits to review: this upload has no previous version.');
    }
    const previous = await findUpload(this.db, actor.orgId, againstId);
    if (!previous) throw notFound('The previous version');
    const result = await compareUploads(this.content, this.thread, previous, version, {
      author: UNTRACKED_EDIT_AUTHOR, view: 'rejected', keepNewerRevisions: true,
    }, true, { orgId: actor.orgId });
    if (result.differences.length === 0) return { nothingToReview: true, uploadId: version.id, against: previous.id };
    return this.store(actor, 'untracked', version.id, previous.id, { view: 'pending', author: UNTRACKED_EDIT_AUTHOR, options: resolveCompareOptions() }, result);
  }

  private async store(
    actor: Actor, kind: ComparisonKind, sourceId: string, againstId: string, how: { view: CompareView; author: string; options: ResolvedCompareOptions },
    result: { bytes: Uint8Array; differences: unknown[]; entries: number; pending: ComparisonPending },
  ): Promise<ComparisonDraft> {
    const stored = await this.content.put(result.bytes);
    const document = await this.uploads.addWorkingDraft(actor.orgId, actor.userId, sourceId, stored, comparisonArtifactId(kind, againstId));
    const summary: ComparisonSummary = {
      draftId: document.id, kind, uploadId: sourceId, against: againstId, ...how, changes: result.differences.length, entries: result.entries, pending: result.pending,
    };
    await this.db.query('INSERT INTO comparison_summaries (draft_id, summary) VALUES ($1, $2)', [document.id, JSON.stringify(summary)]);
    return { document, changes: result.differences.length, pending: result.pending };
  }
}
