import type { FastifyInstance } from 'fastify';
import { parseComparisonArtifactId } from '../../contract/compare';
import { ROUTES } from '../../contract/routes';
import type { SideBySideAnswer } from '../../contract/side-by-side';
import type { SideBySideViews } from '../../docx/compare/paragraph-map';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { ByteBudgetLru } from '../review/byte-budget-lru';
import { findUpload } from '../uploads/upload-rows';

/**
 * GET /documents/{id}/side-by-side (issue 34.5): the draft's rejected view beside its redline,
 * with which older paragraph each redline paragraph comes from (docx/compare/paragraph-map.ts).
 * The views follow from the draft's content alone, so they are kept by its hash: opening side by
 * side again, or a second reader of the same draft, costs nothing.
 */
export function registerSideBySideRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const views = new ByteBudgetLru<SideBySideViews>(32 * 1024 * 1024);

  defineRoute(app, ctx.authenticate, ROUTES.getSideBySide, async ({ auth, params, reply, timing }) => {
    // The review read checks the draft as every review route does (404 not_found, 409 not_working_draft).
    const draft = await ctx.review.review(auth, params.documentId!, timing);
    const sha = draft.document.contentSha256!;
    let made = views.get(sha);
    if (!made) {
      // On an engine thread: seconds of work on a long draft, which would hold every other request here.
      made = await timing.measure('views', () => ctx.engineThreads.sideBySide(new Uint8Array(Buffer.from(draft.contentBase64, 'base64')), { orgId: auth.orgId }));
      views.set(sha, made, made.redline.length + made.older.length + made.paragraphs.length * 8);
    }
    const comparison = parseComparisonArtifactId(draft.document.artifactId);
    const olderRow = comparison ? await findUpload(ctx.db, auth.orgId, comparison.against) : null;
    const answer: SideBySideAnswer = {
      documentId: draft.document.id,
      contentSha256: sha,
      older: {
        kind: !comparison ? 'rejected' : comparison.kind === 'compare' ? 'compared' : 'previous',
        uploadId: comparison?.against ?? null,
        version: olderRow?.document_version ?? null,
        contentBase64: Buffer.from(made.older).toString('base64'),
        paragraphs: made.olderParagraphs,
      },
      redline: { contentBase64: Buffer.from(made.redline).toString('base64'), olderParagraph: made.paragraphs },
    };
    reply.header('etag', `"${sha}"`);
    return answer;
  });
}
