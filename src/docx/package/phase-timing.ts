/**
 * Where an engine operation's time goes, phase by phase: unzip, decode, parse, scan, decide,
 * serialise, zip. A caller that wants to know passes one in `OpenOptions.timing` (bench/engine.ts
 * prints the phases of accept-all; the service's Server-Timing has the same `add`); without one,
 * nothing is measured. A phase met twice adds up.
 */
export interface PhaseTiming {
  add(phase: string, ms: number): void;
}

export type EnginePhase = 'unzip' | 'decode' | 'parse' | 'scan' | 'decide' | 'serialise' | 'zip';

/** `work()`, its time added to `phase` when there is a timing to tell. */
export function timed<T>(timing: PhaseTiming | undefined, phase: EnginePhase, work: () => T): T {
  if (!timing) return work();
  const started = performance.now();
  try {
    return work();
  } finally {
    timing.add(phase, performance.now() - started);
  }
}
