/**
 * An in-process budget of upstream weather calls: one token bucket per window (per minute, hour and day), each
 * holding the window's allowance and refilling it evenly over the window. A call takes its weight from every
 * bucket or from none. Per process: Lambda containers and the local runtime each hold their own, so the shared
 * cache (weather-cell-cache.ts) is what keeps a fleet far below the upstream's limits; this only stops one
 * process from running into them.
 */

export interface CallWindow {
  /** Named in messages: `minute`, `hour`, `day`. */
  name: string;
  /** Weighted calls allowed per window. */
  calls: number;
  windowMs: number;
}

/** Open-Meteo's free-tier limits (https://open-meteo.com/en/terms; stated by its author as per IP address). */
export const OPEN_METEO_FREE_TIER = { perMinute: 600, perHour: 5000, perDay: 10_000 } as const;

/** The three windows of a free-tier style limit. */
export function callWindows(limits: { perMinute: number; perHour: number; perDay: number }): CallWindow[] {
  return [
    { name: 'minute', calls: limits.perMinute, windowMs: 60_000 },
    { name: 'hour', calls: limits.perHour, windowMs: 3_600_000 },
    { name: 'day', calls: limits.perDay, windowMs: 86_400_000 },
  ];
}

/**
 * What Open-Meteo counts one request as: more than 10 variables or more than 14 days make it several calls,
 * and the two multiply (Open-Meteo pricing: 15 variables over 14 days = 1.5 calls, over 28 days = 3.0).
 */
export function openMeteoCallWeight(variables: number, days: number): number {
  return Math.max(1, variables / 10) * Math.max(1, days / 14);
}

/** A refusal: the window that is short, and how long until the call would fit. */
export interface BudgetRefusal {
  window: string;
  retryAfterMs: number;
}

export class CallBudget {
  private readonly tokens: number[];
  private last: number;

  constructor(
    private readonly windows: readonly CallWindow[],
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = windows.map((w) => w.calls);
    this.last = now();
  }

  /** Takes `weight` calls from every window, or none and says which window is short. A weight above a window's whole allowance is refused for good. */
  take(weight = 1): BudgetRefusal | null {
    this.refill();
    for (let i = 0; i < this.windows.length; i++) {
      if (this.tokens[i] < weight) {
        const w = this.windows[i];
        const retryAfterMs = weight > w.calls ? w.windowMs : ((weight - this.tokens[i]) / w.calls) * w.windowMs;
        return { window: w.name, retryAfterMs };
      }
    }
    for (let i = 0; i < this.tokens.length; i++) this.tokens[i] -= weight;
    return null;
  }

  /** Calls left in each window now, by name. */
  remaining(): Record<string, number> {
    this.refill();
    return Object.fromEntries(this.windows.map((w, i) => [w.name, this.tokens[i]]));
  }

  private refill(): void {
    const t = this.now();
    const elapsed = Math.max(0, t - this.last);
    this.last = t;
    this.windows.forEach((w, i) => {
      this.tokens[i] = Math.min(w.calls, this.tokens[i] + (elapsed * w.calls) / w.windowMs);
    });
  }
}
