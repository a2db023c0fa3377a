/**
 * Insights read off a forecast (POST /forecast `actionable_insights`, POST /api/price-forecast
 * `market_factors` and `market_insights`): each sentence names times and values taken from the numbers.
 */

export interface InsightPoint {
  t: number;
  value: number;
  lower: number;
  upper: number;
}

const iso = (t: number) => new Date(t).toISOString().replace(':00.000Z', 'Z');
const fmt = (x: number, unit: string) => `${Math.round(x * 100) / 100} ${unit}`;

/** Peak, largest ramps up and down, low-output stretches and interval width, for a generation or load forecast. */
export function forecastInsights(points: InsightPoint[], unit: string, stepMinutes: number): string[] {
  if (!points.length) return [];
  const out: string[] = [];
  const peak = points.reduce((best, p) => (p.value > best.value ? p : best));
  const total = points.reduce((s, p) => s + p.value, 0);
  out.push(`Peak of ${fmt(peak.value, unit)} expected at ${iso(peak.t)} (interval ${fmt(peak.lower, unit)} to ${fmt(peak.upper, unit)}).`);

  let up = { delta: 0, at: 0 };
  let down = { delta: 0, at: 0 };
  for (let i = 1; i < points.length; i++) {
    const d = points[i].value - points[i - 1].value;
    if (d > up.delta) up = { delta: d, at: i };
    if (d < down.delta) down = { delta: d, at: i };
  }
  const perHour = 60 / stepMinutes;
  if (up.delta > 0) out.push(`Steepest ramp up: +${fmt(up.delta * perHour, `${unit}/h`)} from ${iso(points[up.at - 1].t)} to ${iso(points[up.at].t)}.`);
  if (down.delta < 0) out.push(`Steepest ramp down: ${fmt(down.delta * perHour, `${unit}/h`)} from ${iso(points[down.at - 1].t)} to ${iso(points[down.at].t)}.`);

  // Low output: the longest run below 10% of the peak, outside runs that are zero throughout (night).
  const threshold = 0.1 * peak.value;
  let best: [number, number] | undefined;
  for (let i = 0; i < points.length; ) {
    if (points[i].value >= threshold) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < points.length && points[j + 1].value < threshold) j++;
    const run = points.slice(i, j + 1);
    if (run.some((p) => p.value > 0) && (!best || j - i > best[1] - best[0])) best = [i, j];
    i = j + 1;
  }
  if (best && peak.value > 0) {
    out.push(`Low output below ${fmt(threshold, unit)} (10% of peak) from ${iso(points[best[0]].t)} to ${iso(points[best[1]].t)}: plan flexible demand or storage discharge there.`);
  }
  const mean = total / points.length;
  const width = points.reduce((s, p) => s + (p.upper - p.lower), 0) / points.length;
  if (mean > 0) out.push(`Average interval width ${fmt(width, unit)}, ${Math.round((width / mean) * 100)}% of the mean forecast: ${width / mean > 0.5 ? 'keep reserves for the uncertain hours' : 'a fairly confident forecast'}.`);
  return out;
}

export interface MarketInsights {
  peak_price_time: string;
  expected_volatility: string;
  renewable_impact: string;
}

const hourOf = (t: number) => new Date(t).getUTCHours();

/** Factors per forecast hour, and insights over the whole price forecast (hours in UTC). */
export function marketReading(points: InsightPoint[], currency: string): { factors: string[][]; insights: MarketInsights } {
  const values = points.map((p) => p.value);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
  const peak = points.reduce((best, p) => (p.value > best.value ? p : best));
  const midday = points.filter((p) => hourOf(p.t) >= 10 && hourOf(p.t) <= 15);
  const evening = points.filter((p) => hourOf(p.t) >= 17 && hourOf(p.t) <= 21);
  const avg = (xs: InsightPoint[]) => (xs.length ? xs.reduce((s, p) => s + p.value, 0) / xs.length : NaN);
  const middayDip = mean ? (avg(midday) - mean) / Math.abs(mean) : 0;
  const eveningRise = mean ? (avg(evening) - mean) / Math.abs(mean) : 0;
  const rel = (x: number) => `${x >= 0 ? '+' : ''}${Math.round(x * 100)}%`;

  const factors = points.map((p) => {
    const f: string[] = [];
    const dev = mean ? (p.value - mean) / Math.abs(mean) : 0;
    if (dev > 0.1) f.push(`above the horizon mean (${rel(dev)})`);
    if (dev < -0.1) f.push(`below the horizon mean (${rel(dev)})`);
    const h = hourOf(p.t);
    if (h >= 10 && h <= 15 && middayDip < -0.05) f.push('midday solar supply');
    if (h >= 17 && h <= 21 && eveningRise > 0.05) f.push('evening demand peak');
    const day = new Date(p.t).getUTCDay();
    if (day === 0 || day === 6) f.push('weekend demand');
    if (p.value < 0) f.push('negative price: surplus generation');
    const width = p.upper - p.lower;
    if (sd > 0 && width > 2 * sd) f.push('wide uncertainty');
    return f.length ? f : ['near the horizon mean'];
  });

  const cv = mean ? sd / Math.abs(mean) : 0;
  const level = cv < 0.1 ? 'low' : cv < 0.25 ? 'moderate' : 'high';
  return {
    factors,
    insights: {
      peak_price_time: new Date(peak.t).toISOString(),
      expected_volatility: `${level}: hourly standard deviation ${fmt(sd, currency)} (${Math.round(cv * 100)}% of the mean ${fmt(mean, currency)})`,
      renewable_impact: Number.isNaN(middayDip)
        ? 'no midday hours in the horizon to judge solar supply'
        : `midday (10-15 UTC) prices ${rel(middayDip)} against the horizon mean${middayDip < -0.05 ? ': solar supply depresses midday prices' : ': no marked solar dip'}`,
    },
  };
}
