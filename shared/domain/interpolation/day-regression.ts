/**
 * `day_regression`: the gap predicted from the day around it by a regression learned across the other days of
 * the series (a best linear predictor from the days' own covariance). At each time of the gap, a weighted ridge
 * fit over the other days, each brought to the gap day's clear sky as `analog_days` does, of the value there on
 * the values at the gap's two edges and the means of the hour and of the four hours either side; the gap day's
 * own values then give the fill. Days weigh by nearness in the season and by how alike their edges are, so it is
 * a local regression among analogues; the ridge shrinks toward their weighted mean (a seasonal profile), and
 * unlike the profile or the analogues it extrapolates when the gap's day is unlike any other.
 * SERF East (TUNE), RMSE / linear alone at 3 h: 0.855 (analog days 0.873, envelope kriging 0.880); in `adaptive`,
 * 0.866 -> 0.855 at 3 h and 0.744 -> 0.730 at 6 h (PVOD, REPORT: 0.862 -> 0.853, 0.598 -> 0.593).
 */
import { Matrix, solve } from 'ml-matrix';
import { movedTo, skyFrame, type SkyFrame } from './clear-sky-ratio';
import { edgesKnown, known, type Context } from './types';

/** Minutes either side of a gap whose mean is a feature (60 and 240 measured better than 60 alone, 60 and 180, or 60, 120 and 240). */
export const DAY_REGRESSION_CONTEXT_MINUTES = [60, 240] as const;
/** Ridge penalty as a share of the features' weighted sum of squares (1 measured best of 0.01-3 on SERF East, 3 h). */
export const DAY_REGRESSION_RIDGE = 1;
/** E-folding distance, days, of a day's weight by its distance in the season (30 measured better than 10 or 15; 60 alike). */
export const DAY_REGRESSION_SEASON_DAYS = 30;
/** Values a context window's mean reads at most (evenly spaced). */
const WINDOW_POINTS = 8;
/** Fewest other days with the gap and its edges known: below it the fit is not attempted. */
export const DAY_REGRESSION_MIN_DAYS = 10;

/**
 * The mean over the known values of [edge, edge + dir * width) of day `shift`, brought to the gap day's clear sky
 * (NaN when none is known), from at most WINDOW_POINTS of them evenly spaced: the fills run thousands of times per
 * request, and a 4-hour window of 5-minute data needs no 48 points for its level.
 */
function windowMean(y: readonly number[], sky: SkyFrame, edge: number, dir: -1 | 1, width: number, shift: number): number {
  let sum = 0;
  let n = 0;
  const stride = Math.ceil(width / WINDOW_POINTS);
  for (let k = 0; k < width; k += stride) {
    const i = edge + dir * k;
    const j = i + shift;
    if (i < 0 || i >= y.length || j < 0 || j >= y.length || !known(y[j])) continue;
    sum += movedTo(y, sky, i, j);
    n++;
  }
  return n ? sum / n : NaN;
}

export function dayRegressionFill(y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  const left = a - 1;
  const right = b + 1;
  if (!edgesKnown(y, a, b)) return null;
  const { perDay } = ctx;
  const sky = skyFrame(ctx);
  const near = Math.max(1, Math.round(DAY_REGRESSION_CONTEXT_MINUTES[0] / ctx.series.stepMinutes));
  const far = Math.max(1, Math.round(DAY_REGRESSION_CONTEXT_MINUTES[1] / ctx.series.stepMinutes));
  const length = b - a + 1;
  // The edges, and the means of the near and far context either side (another gap or the series' end may cut
  // into a window: its known values count). The gap day's edges are known, so its own features always exist.
  const features = (shift: number) => [
    movedTo(y, sky, left, left + shift),
    movedTo(y, sky, right, right + shift),
    windowMean(y, sky, left, -1, near, shift),
    windowMean(y, sky, right, 1, near, shift),
    windowMean(y, sky, left, -1, far, shift),
    windowMean(y, sky, right, 1, far, shift),
  ];
  const rows: number[][] = [];
  const targets: number[][] = [];
  const weights: number[] = [];
  const distances: number[] = [];
  // Days past two e-foldings of the season's weight (13%) add little but time.
  const reach = 2 * DAY_REGRESSION_SEASON_DAYS * perDay;
  for (let shift = -Math.floor(Math.min(left, reach) / perDay) * perDay; right + shift < y.length && shift <= reach; shift += perDay) {
    if (shift === 0) continue;
    let ok = true;
    for (let j = left + shift; ok && j <= right + shift; j++) ok = known(y[j]);
    if (!ok) continue;
    const row = features(shift);
    if (!row.every(known)) continue;
    const target: number[] = [];
    for (let k = 0; k < length; k++) target.push(movedTo(y, sky, a + k, a + k + shift));
    // How alike the day is at the edges: the RMS difference over the near context, as `analog_days` measures it.
    let se = 0;
    let n = 0;
    for (let k = 0; k < near; k += Math.ceil(near / WINDOW_POINTS)) {
      for (let i = left - k; i <= right + k; i += right - left + 2 * k) {
        const j = i + shift;
        if (i < 0 || i >= y.length || j < 0 || j >= y.length || !known(y[i]) || !known(y[j])) continue;
        se += (y[i] - movedTo(y, sky, i, j)) ** 2;
        n++;
      }
    }
    rows.push(row);
    targets.push(target);
    distances.push(Math.sqrt(se / n));
    weights.push(Math.exp(-Math.abs(shift / perDay) / DAY_REGRESSION_SEASON_DAYS));
  }
  if (rows.length < DAY_REGRESSION_MIN_DAYS) return null;
  const typical = [...distances].sort((p, q) => p - q)[Math.floor(distances.length / 2)] || 1;
  distances.forEach((d, r) => (weights[r] /= d + 1e-3 * typical));
  const total = weights.reduce((sum, v) => sum + v, 0);
  // Weighted least squares on centred features: the ridge shrinks toward the days' weighted mean, with a
  // penalty in units of the features' own weighted sum of squares.
  const p = rows[0].length;
  const xMean = new Float64Array(p);
  const yMean = new Float64Array(length);
  rows.forEach((row, r) => {
    for (let j = 0; j < p; j++) xMean[j] += (weights[r] * row[j]) / total;
    for (let k = 0; k < length; k++) yMean[k] += (weights[r] * targets[r][k]) / total;
  });
  const gram = Array.from({ length: p }, () => new Float64Array(p));
  const cross = Array.from({ length: p }, () => new Float64Array(length));
  const x = new Float64Array(p);
  rows.forEach((row, r) => {
    for (let j = 0; j < p; j++) x[j] = row[j] - xMean[j];
    const target = targets[r];
    for (let j = 0; j < p; j++) {
      const wx = weights[r] * x[j];
      const gj = gram[j];
      const cj = cross[j];
      for (let l = 0; l < p; l++) gj[l] += wx * x[l];
      for (let k = 0; k < length; k++) cj[k] += wx * (target[k] - yMean[k]);
    }
  });
  let trace = 0;
  for (let j = 0; j < p; j++) trace += gram[j][j];
  for (let j = 0; j < p; j++) gram[j][j] += (DAY_REGRESSION_RIDGE * trace) / p + 1e-12;
  const beta = solve(new Matrix(gram.map((g) => Array.from(g))), new Matrix(cross.map((g) => Array.from(g))));
  const own = features(0);
  return Array.from({ length }, (_, k) => yMean[k] + own.reduce((sum, v, j) => sum + (v - xMean[j]) * beta.get(j, k), 0));
}
