/**
 * Point and quantile forecast errors (ARCHITECTURE 7). Every function takes actuals and forecasts of equal
 * length and skips a pair where either value is NaN (a missing measurement is not an error of the model);
 * with no usable pair the answer is NaN. MAPE and sMAPE are in percent.
 */

/** The metrics reported for every member on its validation window. */
export interface PointMetrics {
  rmse: number;
  mae: number;
  /** Percent; zero actuals skipped. */
  mape: number;
  /** Percent, 0..200. */
  smape: number;
  mase: number;
  r2: number;
}

function pairs(actual: readonly number[], forecast: readonly number[]): [number, number][] {
  if (actual.length !== forecast.length) throw new RangeError(`actual (${actual.length}) and forecast (${forecast.length}) differ in length`);
  const out: [number, number][] = [];
  for (let i = 0; i < actual.length; i++) {
    if (Number.isFinite(actual[i]) && Number.isFinite(forecast[i])) out.push([actual[i], forecast[i]]);
  }
  return out;
}

/** Mean absolute error. */
export function mae(actual: readonly number[], forecast: readonly number[]): number {
  const ps = pairs(actual, forecast);
  return ps.length === 0 ? NaN : ps.reduce((s, [a, f]) => s + Math.abs(a - f), 0) / ps.length;
}

/** Root mean squared error. */
export function rmse(actual: readonly number[], forecast: readonly number[]): number {
  const ps = pairs(actual, forecast);
  return ps.length === 0 ? NaN : Math.sqrt(ps.reduce((s, [a, f]) => s + (a - f) ** 2, 0) / ps.length);
}

export interface MapeResult {
  /** Percent. */
  value: number;
  /** Pairs left out because the actual was 0 (the percentage error is undefined there: night hours of solar). */
  skippedZeroActuals: number;
}

/** Mean absolute percentage error, with the count of zero actuals it had to skip. */
export function mapeDetail(actual: readonly number[], forecast: readonly number[]): MapeResult {
  const ps = pairs(actual, forecast);
  const usable = ps.filter(([a]) => a !== 0);
  const value = usable.length === 0 ? NaN : (100 * usable.reduce((s, [a, f]) => s + Math.abs((a - f) / a), 0)) / usable.length;
  return { value, skippedZeroActuals: ps.length - usable.length };
}

/** Mean absolute percentage error, percent; zero actuals are skipped (see mapeDetail for how many). */
export function mape(actual: readonly number[], forecast: readonly number[]): number {
  return mapeDetail(actual, forecast).value;
}

/**
 * Symmetric MAPE, percent in 0..200: mean of 2|a - f| / (|a| + |f|) (Makridakis 1993); a pair with both
 * values 0 is a perfect forecast and counts as 0.
 */
export function smape(actual: readonly number[], forecast: readonly number[]): number {
  const ps = pairs(actual, forecast);
  if (ps.length === 0) return NaN;
  const sum = ps.reduce((s, [a, f]) => {
    const denominator = Math.abs(a) + Math.abs(f);
    return s + (denominator === 0 ? 0 : (2 * Math.abs(a - f)) / denominator);
  }, 0);
  return (100 * sum) / ps.length;
}

/** Coefficient of determination 1 - SSres/SStot; NaN when the actuals are constant. */
export function r2(actual: readonly number[], forecast: readonly number[]): number {
  const ps = pairs(actual, forecast);
  if (ps.length === 0) return NaN;
  const mean = ps.reduce((s, [a]) => s + a, 0) / ps.length;
  const ssTot = ps.reduce((s, [a]) => s + (a - mean) ** 2, 0);
  const ssRes = ps.reduce((s, [a, f]) => s + (a - f) ** 2, 0);
  return ssTot === 0 ? NaN : 1 - ssRes / ssTot;
}

/**
 * Mean absolute error of the seasonal naive forecast inside a series, |y[t] - y[t - season]| averaged over
 * the pairs that both exist: the scale of MASE.
 */
export function seasonalNaiveMae(inSample: readonly number[], season: number): number {
  let sum = 0;
  let count = 0;
  for (let i = season; i < inSample.length; i++) {
    const d = inSample[i] - inSample[i - season];
    if (Number.isFinite(d)) {
      sum += Math.abs(d);
      count++;
    }
  }
  return count === 0 ? NaN : sum / count;
}

/**
 * Mean absolute scaled error (Hyndman & Koehler 2006, eq. 6 with a seasonal scale): the forecast's MAE over
 * the in-sample MAE of the seasonal naive forecast with period `season` (steps per day here). Below 1 beats
 * "same time yesterday"; NaN when the scale is 0 or undefined.
 */
export function mase(actual: readonly number[], forecast: readonly number[], inSample: readonly number[], season: number): number {
  const scale = seasonalNaiveMae(inSample, season);
  return scale > 0 ? mae(actual, forecast) / scale : NaN;
}

/**
 * Pinball (quantile) loss of forecasts of the `quantile` quantile (Koenker & Bassett 1978): mean of
 * q (a - f) when a >= f, (1 - q)(f - a) otherwise.
 */
export function pinball(actual: readonly number[], forecast: readonly number[], quantile: number): number {
  if (!(quantile > 0 && quantile < 1)) throw new RangeError(`quantile must be strictly between 0 and 1, got ${quantile}`);
  const ps = pairs(actual, forecast);
  if (ps.length === 0) return NaN;
  return ps.reduce((s, [a, f]) => s + (a >= f ? quantile * (a - f) : (1 - quantile) * (f - a)), 0) / ps.length;
}

/** All point metrics at once; `inSample` and `season` give the MASE scale. */
export function pointMetrics(actual: readonly number[], forecast: readonly number[], inSample: readonly number[], season: number): PointMetrics {
  return {
    rmse: rmse(actual, forecast),
    mae: mae(actual, forecast),
    mape: mape(actual, forecast),
    smape: smape(actual, forecast),
    mase: mase(actual, forecast, inSample, season),
    r2: r2(actual, forecast),
  };
}

/** Accuracy as 1 - sum|error| / sum|actual| over the pairs where both are known (1 - WAPE), floored at 0; NaN without any actual. */
export function wapeAccuracy(actual: readonly number[], forecast: readonly number[]): number {
  let error = 0;
  let total = 0;
  actual.forEach((a, i) => {
    if (Number.isFinite(a) && Number.isFinite(forecast[i])) {
      error += Math.abs(a - forecast[i]);
      total += Math.abs(a);
    }
  });
  return total > 0 ? Math.max(0, 1 - error / total) : NaN;
}
