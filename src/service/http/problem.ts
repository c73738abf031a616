import { problemType, type ErrorCode, type Problem } from '../../contract/problem';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

export interface ProblemExtras {
  errors?: Problem['errors'];
  ids?: string[];
  retryAfterSeconds?: number;
  decisions?: Problem['decisions'];
  blockId?: Problem['blockId'];
  blockText?: Problem['blockText'];
  candidates?: Problem['candidates'];
  limit?: string;
  construct?: Problem['construct'];
}

/**
 * A failure with an RFC 9457 answer. Throw it anywhere below a route; the error
 * handler turns it into `application/problem+json` with the same status and code.
 */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(detail);
  }

  toProblem(): Problem {
    return {
      type: problemType(this.code),
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...this.extras,
    };
  }
}

export const notFound = (what: string) => new ProblemError(404, 'not_found', `${what} does not exist.`);
