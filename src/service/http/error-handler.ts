import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FORBIDDEN_CHARACTER_REASON } from '../../contract/client-text';
import { PROBLEM_CONTENT_TYPE } from '../../contract/problem';
import { EngineBusyError } from '../engine/engine-threads';
import { BlobStoreUnavailableError } from '../store/blobs/blob-store';
import { DatabaseUnavailableError } from '../store/database';
import { ProblemError } from './problem';

/** Fastify's own failures (body parsing, limits) as our stable codes. */
function fromFastifyError(error: FastifyError): ProblemError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ProblemError(400, 'invalid_request', `The request body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ProblemError(413, 'payload_too_large', 'The request body is larger than the service accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ProblemError(415, 'unsupported_media_type', `Content-Type ${'is not accepted by this route'}.`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ProblemError(400, 'invalid_request', 'Content-Length does not match the body.');
    default:
      break;
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new ProblemError(error.statusCode, 'invalid_request', error.message);
  }
  return null;
}

/**
 * A refused body, query or form as problem details naming each field. Text holding a character a
 * Word document cannot hold (the contract's `xmlText` check, also on a record's keys) is 422
 * forbidden_character naming the field and the character; any other problem is 400 invalid_request.
 */
export function zodProblem(error: z.ZodError, what = 'request body'): ProblemError {
  const errors = error.issues.map((issue) => ({ path: issue.path.join('.') || '(root)', message: issue.message }));
  const forbidden = forbiddenCharacterIssues(error.issues, []);
  if (forbidden.length > 0) {
    const first = forbidden[0]!;
    return new ProblemError(422, 'forbidden_character', `The ${what} is not valid: ${first.path} ${first.message}; nothing was changed.`,
      { errors: [...forbidden, ...errors.filter((e) => !forbidden.some((f) => f.path === e.path))] });
  }
  const first = errors[0];
  return new ProblemError(400, 'invalid_request', `The ${what} is not valid: ${first ? `${first.path}: ${first.message}` : 'unknown problem'}.`, { errors });
}

/** The forbidden-character issues, also those zod nests (a record key's, a union member's), with their whole path. */
function forbiddenCharacterIssues(issues: readonly z.core.$ZodIssue[], at: readonly PropertyKey[]): { path: string; message: string }[] {
  return issues.flatMap((issue) => {
    const path = [...at, ...issue.path];
    if (issue.code === 'custom' && issue.params?.reason === FORBIDDEN_CHARACTER_REASON) {
      return [{ path: path.map(String).join('.') || '(root)', message: issue.message }];
    }
    if (issue.code === 'invalid_key' || issue.code === 'invalid_element') return forbiddenCharacterIssues(issue.issues, path);
    if (issue.code === 'invalid_union') return issue.errors.flatMap((branch) => forbiddenCharacterIssues(branch, path));
    return [];
  });
}

export function toProblemError(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof z.ZodError) return zodProblem(error);
  if (error instanceof DatabaseUnavailableError) {
    return new ProblemError(503, 'service_unavailable', 'The database is unavailable. Nothing was changed; try again shortly.', { retryAfterSeconds: 2 });
  }
  if (error instanceof BlobStoreUnavailableError) {
    return new ProblemError(503, 'service_unavailable', 'Document storage is unavailable. Nothing was changed; try again shortly.', { retryAfterSeconds: 2 });
  }
  if (error instanceof EngineBusyError) {
    return new ProblemError(503, 'service_unavailable', `${error.message} Nothing was changed.`, { retryAfterSeconds: error.retryAfterSeconds });
  }
  const fromFastify = fromFastifyError(error as FastifyError);
  if (fromFastify) return fromFastify;
  return new ProblemError(500, 'internal_error', 'Something went wrong on our side. Nothing was changed.');
}

export function sendProblem(reply: FastifyReply, problem: ProblemError): FastifyReply {
  const body = problem.toProblem();
  if (problem.extras.retryAfterSeconds !== undefined) reply.header('retry-after', String(problem.extras.retryAfterSeconds));
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const problem = toProblemError(error);
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: problem.code, status: problem.status }, problem.detail);
    return sendProblem(reply, problem);
  });
}
