/**
 * Where one request's time went, answered as a W3C `Server-Timing` header
 * (`engine-open;dur=151.2, commit;dur=12.0`): browser dev tools show it, and bench/review.ts
 * prints it per phase. Handlers pass it down explicitly; code without one uses `NO_TIMING`.
 */
export class ServerTiming {
  private readonly phases: { name: string; ms: number; desc?: string }[] = [];

  /** Times `work` (sync or async) under `name`; a name used twice adds up. */
  async measure<T>(name: string, work: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(name, performance.now() - started);
    }
  }

  measureSync<T>(name: string, work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.add(name, performance.now() - started);
    }
  }

  add(name: string, ms: number): void {
    const phase = this.phases.find((p) => p.name === name);
    if (phase) phase.ms += ms;
    else this.phases.push({ name, ms });
  }

  /** Says what a phase did (`open;desc="hit"`: the draft was found parsed); the last word stands. */
  describe(name: string, desc: string): void {
    const phase = this.phases.find((p) => p.name === name);
    if (phase) phase.desc = desc;
    else this.phases.push({ name, ms: 0, desc });
  }

  /** The header value, or null when nothing was measured. */
  header(): string | null {
    if (this.phases.length === 0) return null;
    return this.phases.map((p) => `${p.name}${p.desc === undefined ? '' : `;desc="${p.desc}"`};dur=${p.ms.toFixed(1)}`).join(', ');
  }
}

class NoTiming extends ServerTiming {
  override add(): void {}
  override describe(): void {}
}

/** A timing that records nothing, for callers outside a request (tests, maintenance). */
export const NO_TIMING: ServerTiming = new NoTiming();
