/**
 * `day_regression`: the gap predicted from the day around it by a regression learned across the other days of
 * the series (a best linear predictor from the days' own covariance). At each time of the gap, a weighted ridge
 * fit over the other days, each brought to the gap day's clear sky as `analog_days` does, of the value there on
 * the values at the gap's two edges and the means of the hour and of the four hours either side; the gap day's
 * own values then give the fill. Days weigh by nearness in the season and by how alike their edges are, so it is
 * a local regression among analogues; the ridge shrinks toward their weighted mean (a seasonal profile), and
 * unlike the profile or the analogues it extrapolates when the gap's day is unlike any other.
 * SERF East (TUNE), RMSE / linear alone at 3 h: 0.855, with the nearby times (below) 0.845 (analog days 0.873,
 * envelope kriging 0.880); in `adaptive`, 0.866 -> 0.855 -> 0.849 at 3 h and 0.744 -> 0.730 -> 0.727 at 6 h
 * (PVOD, REPORT: alone 0.90 -> 0.88 at 3 h; in `adaptive` 0.862 -> 0.853 -> 0.865, 0.598 -> 0.593 -> 0.595).
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
/**
 * With a clear sky (solar), other days lend rows at their gap's own time of day and at offsets up to this many
 * minutes either side (at most OFFSETS_PER_SIDE of them, evenly spaced), each brought to the gap's clear sky:
 * the relation between a gap and its edges barely changes within the hour, and nine times the rows steady the
 * fit. SERF East (TUNE), RMSE / linear alone at 3 h: none 0.855, 15 min 0.847, 30 min 0.848, 60 min 0.845, 120 min
 * (every other step) 0.860; at 6 h, none 0.727, 60 min 0.721. Without a clear sky a shifted row is another time
 * of the day's shape: on a synthetic daily dip (the unit test), 60 min tripled the error.
 */
export const DAY_REGRESSION_OFFSET_MINUTES = 60;
const OFFSETS_PER_SIDE = 4;
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

/** The offsets, steps, at which other days lend rows: 0 and up to OFFSETS_PER_SIDE either side within the reach. */
function timeOffsets(stepMinutes: number): number[] {
  const reach = Math.floor(DAY_REGRESSION_OFFSET_MINUTES / stepMinutes);
  const stride = Math.max(1, Math.ceil(reach / OFFSETS_PER_SIDE));
  const out = [0];
  for (let k = stride; k <= reach; k += stride) out.push(-k, k);
  return out;
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
  const shifts: number[] = [];
  const weights: number[] = [];
  const distances: number[] = [];
  // Days past two e-foldings of the season's weight (13%) add little but time.
  const reach = 2 * DAY_REGRESSION_SEASON_DAYS * perDay;
  const days = new Set<number>();
  const addRow = (shift: number, day: number) => {
    let ok = true;
    for (let j = left + shift; ok && j <= right + shift; j++) ok = known(y[j]);
    if (!ok) return;
    const row = features(shift);
    if (!row.every(known)) return;
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
    shifts.push(shift);
    distances.push(Math.sqrt(se / n));
    weights.push(Math.exp(-Math.abs(day) / DAY_REGRESSION_SEASON_DAYS));
    days.add(day);
  };
  // Only the clear sky carries a value across the time of day; a load's daily shape has no such model.
  const offsets = sky.clearSky ? timeOffsets(ctx.series.stepMinutes) : [0];
  for (let day = -Math.floor(Math.min(left, reach) / perDay); right + day * perDay < y.length && day * perDay <= reach; day++) {
    for (const offset of offsets) {
      const shift = day * perDay + offset;
      if (shift !== 0 && left + shift >= 0 && right + shift < y.length) addRow(shift, day);
    }
  }
  if (days.size < DAY_REGRESSION_MIN_DAYS) return null;
  // A typed array sorts numerically without a comparator: with rows at several offsets a day, this sort was the
  // hottest line of the fill.
  const typical = Float64Array.from(distances).sort()[Math.floor(distances.length / 2)] || 1;
  distances.forEach((d, r) => (weights[r] /= d + 1e-3 * typical));
  const total = weights.reduce((sum, v) => sum + v, 0);
  // Weighted least squares on centred features: the ridge shrinks toward the days' weighted mean, with a
  // penalty in units of the features' own weighted sum of squares. The fill is then a weighted sum of the rows'
  // gaps, sum over r of w_r (1 / W + (x_r - xMean)' G^-1 (own - xMean)) y_r: one pass over each row's gap, not
  // one per feature (the centred features' weighted sum is 0, so the targets need no centring).
  const p = rows[0].length;
  const xMean = new Float64Array(p);
  rows.forEach((row, r) => {
    for (let j = 0; j < p; j++) xMean[j] += (weights[r] * row[j]) / total;
  });
  const gram = Array.from({ length: p }, () => new Float64Array(p));
  const x = new Float64Array(p);
  rows.forEach((row, r) => {
    for (let j = 0; j < p; j++) x[j] = row[j] - xMean[j];
    for (let j = 0; j < p; j++) {
      const wx = weights[r] * x[j];
      const gj = gram[j];
      for (let l = j; l < p; l++) gj[l] += wx * x[l];
    }
  });
  for (let j = 0; j < p; j++) for (let l = 0; l < j; l++) gram[j][l] = gram[l][j];
  let trace = 0;
  for (let j = 0; j < p; j++) trace += gram[j][j];
  for (let j = 0; j < p; j++) gram[j][j] += (DAY_REGRESSION_RIDGE * trace) / p + 1e-12;
  const own = features(0);
  const z = solve(new Matrix(gram.map((g) => Array.from(g))), Matrix.columnVector(own.map((v, j) => v - xMean[j]))).getColumn(0);
  const fill = new Array<number>(length).fill(0);
  rows.forEach((row, r) => {
    let lean = 0;
    for (let j = 0; j < p; j++) lean += (row[j] - xMean[j]) * z[j];
    const alpha = weights[r] * (1 / total + lean);
    for (let k = 0; k < length; k++) fill[k] += alpha * movedTo(y, sky, a + k, a + k + shifts[r]);
  });
  return fill;
}
