import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { ProblemError } from '../http/problem';
import { readMultipartUpload } from './upload-routes';

export function registerDocumentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { review, uploads } = ctx;

  defineRoute(app, ctx.authenticate, ROUTES.getReview, async ({ auth, params, timing }) => review.review(auth, params.documentId!, timing));

  defineRoute(app, ctx.authenticate, ROUTES.applyRevisions, async ({ auth, params, body, timing }) =>
    review.apply(auth, params.documentId!, {
      accept: body.accepted_change_ids ?? [],
      reject: body.rejected_change_ids ?? [],
      recordDecision: body.recordDecision ?? body.record_decision ?? true,
    }, timing));

  defineRoute(app, ctx.authenticate, ROUTES.undoRevisions, async ({ auth, params, timing }) => review.undo(auth, params.documentId!, timing));

  defineRoute(app, ctx.authenticate, ROUTES.writeRedlines, async ({ auth, params, body, timing }) => review.redlines(auth, params.documentId!, body, timing));

  defineRoute(app, ctx.authenticate, ROUTES.saveDraft, async ({ request, auth, params }) => {
    const bytes = request.isMultipart()
      ? (await readMultipartUpload(request)).file.bytes
      : request.body instanceof Uint8Array
        ? request.body
        : null;
    if (!bytes) {
      throw new ProblemError(415, 'unsupported_media_type', 'Send the draft as the raw .docx body (application/vnd.openxmlformats-officedocument.wordprocessingml.document) or as multipart "file".');
    }
    return uploads.saveDraft(auth.orgId, params.documentId!, bytes);
  });
}
