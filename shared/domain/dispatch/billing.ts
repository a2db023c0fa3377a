/**
 * Demand charges priced per billing period. A tariff's demand charge is monthly (currency per kW of the
 * month's peak import), so a horizon covering part of a month carries that part's share of the charge,
 * and a horizon spanning several months charges each month's own peak once (ARCHITECTURE 9).
 */
import type { DemandPeriod } from './problem';

/**
 * Billing periods of a monthly demand charge over a horizon of `intervals` intervals from `startMs`: one per
 * calendar month (UTC) the horizon touches, each charged `monthlyChargePerKw` times the share of that month
 * the horizon covers (covered time / month length). A whole month covered pays the full monthly charge.
 */
export function monthlyDemandPeriods(startMs: number, intervalMinutes: number, intervals: number, monthlyChargePerKw: number): DemandPeriod[] {
  const stepMs = intervalMinutes * 60_000;
  const endMs = startMs + intervals * stepMs;
  const periods: DemandPeriod[] = [];
  let start = 0;
  while (start < intervals) {
    const t = startMs + start * stepMs;
    const date = new Date(t);
    const monthStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    const monthEnd = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
    // An interval belongs to the month it starts in.
    const next = Math.min(intervals, Math.ceil((monthEnd - startMs) / stepMs));
    const covered = Math.min(endMs, startMs + next * stepMs) - t;
    periods.push({ start, chargePerKw: (monthlyChargePerKw * covered) / (monthEnd - monthStart) });
    start = next;
  }
  return periods;
}
