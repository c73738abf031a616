import type { FastifyBaseLogger } from 'fastify';
import type { Service } from '../app';

export interface ShutdownOptions {
  /** How long requests in flight may take to finish before their connections are cut. */
  graceMs: number;
  /**
   * How long the instance keeps serving after readiness starts failing, so that load
   * balancers notice (their check interval times their fall count) before it stops listening.
   */
  drainDelayMs: number;
  log: FastifyBaseLogger;
}

/**
 * Stops one instance without losing a request: readiness fails at once (load balancers stop
 * sending new work), the instance keeps serving for the drain delay, then stops listening,
 * lets every request in flight finish (applies included: their commit and projection
 * writes are awaited), and closes the database. Answers the exit code: 0 when everything
 * finished within the grace period, 1 when connections had to be cut.
 */
export async function shutDownGracefully(service: Service, signal: string, options: ShutdownOptions): Promise<number> {
  const { log } = options;
  service.readiness.startDraining();
  log.info({ signal, drainDelayMs: options.drainDelayMs, graceMs: options.graceMs }, `${signal}: draining, then shutting down`);
  if (options.drainDelayMs > 0) await delay(options.drainDelayMs);

  let timer: NodeJS.Timeout | undefined;
  const closed = service.close().then(() => 'closed' as const);
  const graceOver = new Promise<'grace over'>((resolve) => {
    timer = setTimeout(() => resolve('grace over'), options.graceMs);
  });
  const outcome = await Promise.race([closed, graceOver]);
  clearTimeout(timer);
  if (outcome === 'closed') {
    log.info(`${signal}: every request finished; stopped`);
    return 0;
  }
  log.warn(`${signal}: requests still running after ${options.graceMs} ms; cutting their connections`);
  service.app.server.closeAllConnections();
  await closed.catch((error: unknown) => log.error({ err: error }, 'closing after the grace period failed'));
  return 1;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
