import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `intervalMs` (null: not ticking) — for countdowns. A tick
 * may be up to one interval late when ticking starts, which a seconds countdown does not show.
 */
export function useNow(intervalMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (intervalMs === null) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
