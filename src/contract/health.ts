import { z } from 'zod';

/** One dependency's answer to a readiness check. */
export const DependencyCheck = z.object({
  ok: z.boolean(),
  /** How long it took to answer (or to give up). */
  ms: z.number().nonnegative(),
  error: z.string().optional(),
});
export type DependencyCheck = z.infer<typeof DependencyCheck>;

/** GET /api/health/live: the process answers. */
export const LivenessAnswer = z.object({ state: z.literal('live') });
export type LivenessAnswer = z.infer<typeof LivenessAnswer>;

/**
 * GET /api/health/ready: 200 when the database and the blob store both answered within a
 * second and the instance is not shutting down; otherwise 503 (a problem detail with code
 * `not_ready` carrying the same `checks`), so a load balancer sends no new work here.
 */
export const ReadinessAnswer = z.object({
  state: z.enum(['ready', 'not_ready', 'draining']),
  checks: z.object({ database: DependencyCheck, blobStore: DependencyCheck }),
});
export type ReadinessAnswer = z.infer<typeof ReadinessAnswer>;
