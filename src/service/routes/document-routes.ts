import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER, IdempotencyKey } from '../../contract/events';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { ProblemError } from '../http/problem';
import type { ServerTiming } from '../http/server-timing';
import type { RequestAuth } from '../http/request-auth';
import { fingerprintOf, type IdempotentRequest } from '../review/idempotency';
import { countEntries } from '../../contract/entries';
import { listDraftProgress, listUntrackedChecks } from '../review/draft-progress';
import { cutWindow, RenderWindowCache } from '../review/render-window';
import { RENDER_WINDOW_HEADER } from '../../contract/render-window';
import { PREFER_MINIMAL, PREFERENCE_APPLIED_HEADER } from '../../contract/review';
import { isReviewDelta } from '../../contract/listing-delta';
import { openingChange } from '../../contract/track';
import { withoutContent, type AnswerShape } from '../review/review-service';
import { readMultipartUpload } from './upload-routes';

export function registerDocumentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { review, uploads } = ctx;

  // One answer for the documents page; a draft not counted yet is counted by reading its review
  // (which stores its projection). What the answer's time budget left uncounted is counted right
  // after it, one draft at a time and once per organisation, so the page's next ask finds every
  // draft counted instead of the same first few being counted again and the rest never.
  const countingLater = new Set<string>();
  defineRoute(app, ctx.authenticate, ROUTES.listDraftProgress, async ({ auth }) => {
    // Entries, as the review page counts its progress (a replacement's two changes are one).
    const count = async (documentId: string) => {
      const track = (await review.review(auth, documentId)).track;
      return track ? countEntries(track.items) : null;
    };
    const items = await listDraftProgress(ctx.db, auth.orgId, count, (ids) => review.storedCounts(ids), undefined,
      (sha) => ctx.checks.computed(sha)?.accepted.length ?? null);
    const uncounted = items.filter((i) => i.counts === null).map((i) => i.documentId);
    if (uncounted.length > 0 && !countingLater.has(auth.orgId)) {
      countingLater.add(auth.orgId);
      void (async () => {
        for (const id of uncounted) await count(id).catch((error: unknown) => ctx.log.warn({ err: error, documentId: id }, 'counting a draft for the documents page failed'));
      })().finally(() => countingLater.delete(auth.orgId));
    }
    return { items, untracked: await listUntrackedChecks(ctx.db, auth.orgId) };
  });

  // The pages around a change of a long draft, shown while the whole draft is laid out.
  const windows = new RenderWindowCache();
  defineRoute(app, ctx.authenticate, ROUTES.getRenderWindow, async ({ auth, params, query, reply, timing }) => {
    // The change to cut around: named, or the one the review opens at (which takes the track); the variant alone otherwise.
    const around = query.around ?? (query.at === 'here' ? openingChange((await review.review(auth, params.documentId!, timing)).track) ?? undefined : undefined);
    const { sha256, bytes } = await review.renderVariant(auth, params.documentId!, timing);
    const layout = windows.layout(sha256, () => bytes);
    const blocks = query.blocks ?? 80;
    // `at=here` names no change: one with no place in the body (a header's, a style's) gives the start, as no change does.
    const window = await timing.measure('cut', async () => cutWindow(layout, around, blocks) ?? (query.around === undefined ? cutWindow(layout, undefined, blocks) : null));
    if (!window) {
      throw new ProblemError(422, 'unknown_change_ids', `This draft shows no change ${around} in its body.`, { ids: [around!] });
    }
    return sendDocx(reply, timing, window.bytes, { [RENDER_WINDOW_HEADER]: `${window.first}/${window.total}` });
  });

  // The app reads it minimal and fetches the render variant beside it (the content is megabytes on a long draft).
  // `since`: a client that missed changes catches up with the delta from the listing it holds (issue 36.1).
  defineRoute(app, ctx.authenticate, ROUTES.getReview, async ({ request, reply, auth, params, query, timing }) => {
    const shape = answerShape(request, reply);
    if (shape === 'minimal' && query.since !== undefined) {
      const answer = await review.reviewSince(auth, params.documentId!, query.since, timing);
      tagListing(reply, review.versionOf(answer));
      return answer;
    }
    const full = await review.review(auth, params.documentId!, timing);
    tagListing(reply, review.versionOf(full));
    return shape === 'minimal' ? withoutContent(full) : full;
  });

  // The render variant alone, for a client that took minimal answers to its changes.
  defineRoute(app, ctx.authenticate, ROUTES.getRender, async ({ auth, params, reply, timing }) => {
    const { sha256, bytes } = await review.renderVariant(auth, params.documentId!, timing);
    return sendDocx(reply, timing, bytes, { etag: `"${sha256}"` });
  });

  defineRoute(app, ctx.authenticate, ROUTES.applyRevisions, async ({ request, reply, auth, params, body, timing }) => {
    const decision = {
      accept: body.accepted_change_ids ?? [],
      reject: body.rejected_change_ids ?? [],
      recordDecision: body.recordDecision ?? body.record_decision ?? true,
      ...(body.notes ? { notes: body.notes } : {}),
    };
    const idempotency = idempotencyOf(request, auth, 'apply', decision);
    const ifMatch = listingIfMatch(request);
    const answer = await review.apply(auth, params.documentId!, { ...decision, ...(ifMatch === undefined ? {} : { ifMatch }) }, timing, idempotency, answerShape(request, reply));
    tagListing(reply, isReviewDelta(answer) ? answer.version : review.versionOf(answer));
    return markReplay(reply, idempotency, answer);
  });

  defineRoute(app, ctx.authenticate, ROUTES.noteDecision, async ({ auth, params, body, timing }) =>
    review.noteDecision(auth, params.documentId!, params.changeId!, body.note, timing));

  defineRoute(app, ctx.authenticate, ROUTES.undoRevisions, async ({ request, reply, auth, params, timing }) => {
    const idempotency = idempotencyOf(request, auth, 'undo', null);
    const answer = await review.undo(auth, params.documentId!, timing, idempotency, answerShape(request, reply), listingIfMatch(request));
    tagListing(reply, isReviewDelta(answer) ? answer.version : review.versionOf(answer));
    return markReplay(reply, idempotency, answer);
  });

  defineRoute(app, ctx.authenticate, ROUTES.writeRedlines, async ({ request, reply, auth, params, body, timing }) => {
    const idempotency = idempotencyOf(request, auth, 'redlines', body);
    const answer = await review.redlines(auth, params.documentId!, body, timing, idempotency, undefined, answerShape(request, reply), listingIfMatch(request));
    tagListing(reply, isReviewDelta(answer) ? answer.version : review.versionOf(answer));
    return markReplay(reply, idempotency, answer);
  });

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

/** The request's Idempotency-Key, if it sent one (400 when it is malformed, before anything happens). */
function idempotencyOf(request: FastifyRequest, auth: RequestAuth, operation: 'apply' | 'undo' | 'redlines', body: unknown): IdempotentRequest | undefined {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (header === undefined) return undefined;
  const parsed = IdempotencyKey.safeParse(header);
  if (!parsed.success) {
    throw new ProblemError(400, 'invalid_request', 'The Idempotency-Key header must be one value of 8 to 200 printable ASCII characters without spaces (a UUID, say).',
      { errors: [{ path: 'Idempotency-Key', message: parsed.error.issues[0]?.message ?? 'invalid' }] });
  }
  return { key: parsed.data, fingerprint: fingerprintOf(operation, auth.userId, body) };
}

/** A .docx answer of the review's own (not stored, so not cached), with where the time went. */
function sendDocx(reply: FastifyReply, timing: ServerTiming, bytes: Uint8Array, headers: Record<string, string>): FastifyReply {
  const phases = timing.header();
  if (phases) reply.header('server-timing', phases);
  reply.code(200).type('application/vnd.openxmlformats-officedocument.wordprocessingml.document').header('cache-control', 'private, no-store');
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/**
 * The answer a change request asked for: minimal when its Prefer header (RFC 7240) holds
 * `return=minimal` (said so in Preference-Applied; the answer varies with Prefer), else the full one.
 */
function answerShape(request: FastifyRequest, reply: FastifyReply): AnswerShape {
  reply.header('vary', 'Prefer');
  if (!prefersMinimal(request.headers.prefer)) return 'full';
  reply.header(PREFERENCE_APPLIED_HEADER, PREFER_MINIMAL);
  return 'minimal';
}

/** The listing version (ETag) of a review answer, for the client's next If-Match. */
function tagListing(reply: FastifyReply, version: string | undefined): void {
  if (version !== undefined) reply.header('etag', `"${version}"`);
}

/** The listing version an If-Match names (one strong or weak tag); `*` and absence mean none. */
function listingIfMatch(request: FastifyRequest): string | undefined {
  const header = request.headers['if-match'];
  if (header === undefined || header.trim() === '*') return undefined;
  const tag = /^\s*(?:W\/)?"([^"]*)"\s*$/.exec(header);
  if (!tag) throw new ProblemError(400, 'invalid_request', 'If-Match must be one listing version as the review answered it in ETag (a quoted string).', { errors: [{ path: 'If-Match', message: 'not one entity tag' }] });
  return tag[1];
}

/** Whether a Prefer header's preferences (comma-separated, each `name[=value][;params]`, names case-insensitive) hold return=minimal. */
export function prefersMinimal(prefer: string | string[] | undefined): boolean {
  return [prefer ?? []].flat().join(',').split(',').some((preference) => {
    const [name = '', value = ''] = (preference.split(';')[0] ?? '').split('=').map((x) => x.trim());
    return name.toLowerCase() === 'return' && value.replace(/^"(.*)"$/, '$1') === 'minimal';
  });
}

function markReplay<T>(reply: FastifyReply, idempotency: IdempotentRequest | undefined, answer: T): T {
  if (idempotency?.replayed) reply.header(IDEMPOTENT_REPLAY_HEADER, 'true');
  return answer;
}
