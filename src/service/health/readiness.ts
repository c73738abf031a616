import type { DependencyCheck, ReadinessAnswer } from '../../contract/health';
import type { BlobStore } from '../store/blobs/blob-store';
import type { Database } from '../store/database';

/** How long a dependency may take before the instance counts as not ready. */
export const READINESS_TIMEOUT_MS = 1_000;

/**
 * Whether this instance can do work: the database and the blob store each answer within
 * a second, and the instance is not draining for shutdown. Checks that arrive while one
 * is running share it, so a storm of health checks costs one query and one blob probe.
 */
export class Readiness {
  private running: Promise<ReadinessAnswer> | null = null;
  private draining = false;

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly timeoutMs = READINESS_TIMEOUT_MS,
  ) {}

  /** From now on readiness fails, so load balancers stop sending new work here. */
  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  check(): Promise<ReadinessAnswer> {
    this.running ??= this.probe().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async probe(): Promise<ReadinessAnswer> {
    const [database, blobStore] = await Promise.all([
      timed(() => this.db.query('SELECT 1'), this.timeoutMs),
      timed(() => this.blobs.ping(), this.timeoutMs),
    ]);
    const state = this.draining ? 'draining' : database.ok && blobStore.ok ? 'ready' : 'not_ready';
    return { state, checks: { database, blobStore } };
  }
}

async function timed(probe: () => Promise<unknown>, timeoutMs: number): Promise<DependencyCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([probe(), deadline]);
    return { ok: true, ms: elapsed(started) };
  } catch (error) {
    return { ok: false, ms: elapsed(started), error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;
