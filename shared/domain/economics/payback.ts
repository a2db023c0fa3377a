/**
 * Payback period: the time, in years interpolated within the year, at which the cumulative cash flow
 * reaches zero and stays at or above zero to the end of the lifetime. Flows are end-of-year amounts spread
 * evenly over their year for the interpolation (capital 1000 and 200 a year: exactly 5). A project whose
 * cumulative flow ends negative, or dips back below zero after a first recovery and ends negative, is
 * never paid back: null.
 */
export function paybackPeriod(flows: readonly number[]): number | null {
  const cumulative: number[] = [];
  let running = 0;
  for (const flow of flows) {
    running += flow;
    cumulative.push(running);
  }
  if (cumulative.length === 0 || cumulative[cumulative.length - 1] < 0) return null;
  // The last year that ends below zero; recovery happens during the year after it.
  let lastNegative = -1;
  for (let t = 0; t < cumulative.length; t++) if (cumulative[t] < 0) lastNegative = t;
  if (lastNegative === -1) return 0;
  const year = lastNegative + 1;
  return lastNegative + -cumulative[lastNegative] / flows[year];
}
