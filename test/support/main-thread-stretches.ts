import { closeSync, existsSync, openSync, readSync } from 'node:fs';

/** The longest stretches this thread ran without letting its event loop turn, while watched. */
export interface ThreadStretches {
  /** CPU time this thread spent in its longest stretch (ms): what the work itself held, whatever else ran on the machine. */
  longestCpuMs: number;
  /** Wall time of the longest gap between two turns (ms): the CPU stretch plus whatever the machine's other processes took. */
  longestWallMs: number;
  /** Turns seen. */
  turns: number;
}

/** Where Linux counts this thread's time on a CPU, in nanoseconds (first field). */
const SCHEDSTAT = '/proc/thread-self/schedstat';

/**
 * Watches the calling thread's event loop: a 1 ms timer notes at each turn the wall time and the
 * thread's own CPU time (/proc/thread-self/schedstat, nanoseconds), and the longest stretch
 * between two turns is kept in both. CPU time is what makes the figure hold on a loaded machine:
 * a wall gap also counts the time other processes had the core, CPU time only the work that held
 * this thread. Without schedstat (not Linux), the CPU figure is the wall one.
 */
export function watchThreadStretches(): { stop(): ThreadStretches } {
  const fd = existsSync(SCHEDSTAT) ? openSync(SCHEDSTAT, 'r') : null;
  const buffer = Buffer.alloc(128);
  const cpuMs = (): number => {
    if (fd === null) return performance.now();
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return Number(buffer.toString('latin1', 0, length).split(' ')[0]) / 1e6;
  };
  const figures: ThreadStretches = { longestCpuMs: 0, longestWallMs: 0, turns: 0 };
  let lastWall = performance.now();
  let lastCpu = cpuMs();
  let timer: NodeJS.Timeout | null = null;
  const turn = (): void => {
    const wall = performance.now();
    const cpu = cpuMs();
    figures.longestWallMs = Math.max(figures.longestWallMs, wall - lastWall);
    figures.longestCpuMs = Math.max(figures.longestCpuMs, cpu - lastCpu);
    figures.turns++;
    lastWall = wall;
    lastCpu = cpu;
    timer = setTimeout(turn, 1);
  };
  timer = setTimeout(turn, 1);
  return {
    stop() {
      if (timer) clearTimeout(timer);
      turn();
      if (timer) clearTimeout(timer);
      if (fd !== null) closeSync(fd);
      return { ...figures };
    },
  };
}
