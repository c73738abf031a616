import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';

/** Word comments of a working draft (read, add, reply, resolve) and the draft's downloads. */
export function registerCommentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { review } = ctx;
  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

  defineRoute(app, ctx.authenticate, ROUTES.listComments, async ({ auth, params }) => ({ comments: await review.comments(auth, params.documentId!) }));

  defineRoute(app, ctx.authenticate, ROUTES.addComment, async ({ auth, params, body, timing }) =>
    review.writeComment(auth, params.documentId!, (author) => ({
      op: 'add', target: body.changeId !== undefined ? { changeId: body.changeId } : body.anchor!, author, date: now(), text: body.text, commentId: '',
    }), timing));

  defineRoute(app, ctx.authenticate, ROUTES.replyToComment, async ({ auth, params, body, timing }) =>
    review.writeComment(auth, params.documentId!, (author) => ({
      op: 'reply', parentId: params.commentId!, author, date: now(), text: body.text, commentId: '',
    }), timing));

  defineRoute(app, ctx.authenticate, ROUTES.resolveComment, async ({ auth, params, body, timing }) =>
    review.writeComment(auth, params.documentId!, () => ({ op: 'resolve', commentId: params.commentId!, resolved: body.resolved }), timing));

  defineRoute(app, ctx.authenticate, ROUTES.downloadDraft, async ({ auth, params, query, reply }) => {
    const { fileName, bytes } = await review.download(auth, params.documentId!, { clean: query.variant === 'clean', removeComments: query.comments === 'remove' });
    return reply
      .code(200)
      .type('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}
