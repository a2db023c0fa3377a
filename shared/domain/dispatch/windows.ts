/** Time windows (EV plugged in, a load's allowed hours) as the share of each interval they cover. */

/** The fraction of each interval [start + t*step, start + (t+1)*step) inside [fromMs, toMs). */
export function windowShares(startMs: number, intervalMinutes: number, intervals: number, fromMs: number, toMs: number): number[] {
  const step = intervalMinutes * 60_000;
  return Array.from({ length: intervals }, (_, t) => {
    const a = startMs + t * step;
    return Math.max(0, Math.min(a + step, toMs) - Math.max(a, fromMs)) / step;
  });
}

/** The interval ending at `ms` (rounded to the nearest boundary): where an SOC target at that instant applies. */
export const intervalEndingAt = (startMs: number, intervalMinutes: number, ms: number): number => Math.round((ms - startMs) / (intervalMinutes * 60_000)) - 1;
