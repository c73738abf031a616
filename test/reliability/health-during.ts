import type { HttpAnswer } from './service-client';

/**
 * What `/api/health/live` answered while `work` ran: each latency, asked again 10 ms after each
 * answer. The service runs as its own process, so its stalls cannot hide in the test's.
 */
export async function healthDuring<T>(url: string, work: () => Promise<T>): Promise<{ result: T; worst: number; asked: number }> {
  let done = false;
  const latencies: number[] = [];
  const polling = (async () => {
    while (!done) {
      const sent = performance.now();
      const res = await fetch(`${url}/api/health/live`, { signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      latencies.push(performance.now() - sent);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  try {
    return { result: await work(), worst: Math.max(...latencies), asked: latencies.length };
  } finally {
    done = true;
    await polling;
  }
}

/** The answer of `call` with how long it took. */
export async function timed<T extends object = HttpAnswer>(call: () => Promise<T>): Promise<T & { ms: number }> {
  const began = performance.now();
  const answer = await call();
  return { ...answer, ms: performance.now() - began };
}
