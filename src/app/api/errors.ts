import type { Problem } from '../../contract/problem';

/**
 * A failed call, carrying the service's RFC 9457 problem when it sent one. `status` 0 means
 * the request never got an answer (offline, connection reset). Kept apart from the client
 * (and from zod) so the entry chunk can test for it without pulling in the schemas.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get code(): string | null {
    return this.problem?.code ?? null;
  }
}

/** A sentence a person can act on, for any error a call may throw. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
