/**
 * STL, seasonal-trend decomposition by LOESS (Cleveland, Cleveland, McRae & Terpenning 1990, J. Official
 * Statistics 6:3-73), ported from their Fortran `stl.f` as R's `stats::stl` runs it, with R's defaults: the
 * windows, degrees and jumps (LOESS evaluated every `jump` points and linearly interpolated between them)
 * are theirs, so a decomposition here matches R's to rounding. The series must be complete (no NaN).
 *
 * Positions inside the LOESS routines are 1-based abscissae (1..n), as in the Fortran, while arrays are
 * 0-based: `y[j - 1]` is the value at abscissa j.
 */

export interface StlOptions {
  /** Period of the seasonal component, in steps (>= 2). */
  period: number;
  /** Span (in cycles, odd) of the LOESS that smooths each cycle-subseries. */
  seasonalWindow: number;
  /** Span (in steps, odd) of the trend LOESS. @default R's nextodd(ceil(1.5 period / (1 - 1.5 / seasonalWindow))) */
  trendWindow?: number;
  /** Span of the low-pass filter's LOESS. @default the next odd integer from the period */
  lowPassWindow?: number;
  /** @default 0 (locally constant seasonal smoothing, R's default) */
  seasonalDegree?: 0 | 1;
  /** @default 1 */
  trendDegree?: 0 | 1;
  /** Robustness iterations (Cleveland et al.'s outer loop) that down-weight outliers. @default false */
  robust?: boolean;
}

export interface StlDecomposition {
  seasonal: Float64Array;
  trend: Float64Array;
  remainder: Float64Array;
}

const nextOdd = (x: number) => {
  const r = Math.round(x);
  return r % 2 === 0 ? r + 1 : r;
};

/** Tricube kernels by window half-width (a whole number of steps), in an array: a Map lookup per estimate cost a tenth of the decomposition. */
const kernels: Float64Array[] = [];

/** Tricube weights (1 - (r/h)^3)^3 at whole distances r = 0..h: every abscissa here is a whole number. */
function tricube(h: number): Float64Array {
  let kernel = kernels[h];
  if (!kernel) {
    kernel = new Float64Array(Math.ceil(h) + 1);
    for (let r = 0; r < kernel.length; r++) {
      const q = r / h;
      const c = 1 - q * q * q;
      kernel[r] = c > 0 ? c * c * c : 0;
    }
    kernels[h] = kernel;
  }
  return kernel;
}

/**
 * The LOESS estimate at abscissa `xs` from the points nleft..nright of `y` (Fortran `stlest`): tricube
 * weights over the window, times the robustness weights when given, locally constant or linear. NaN when
 * every weight vanishes. The Fortran's passes over the window (weights, their mean, spread, linear
 * correction, estimate) are fused into one pass of weighted sums, centred on xs to keep them well scaled.
 */
function loessAt(y: ArrayLike<number>, n: number, len: number, degree: number, xs: number, nleft: number, nright: number, rw: ArrayLike<number> | null): number {
  const range = n - 1;
  let h = Math.max(xs - nleft, nright - xs);
  if (len > n) h += Math.floor((len - n) / 2);
  const h9 = 0.999 * h;
  const h1 = 0.001 * h;
  let sw = 0;
  let swd = 0;
  let swdd = 0;
  let swy = 0;
  let swdy = 0;
  const kernel = tricube(h);
  for (let j = nleft; j <= nright; j++) {
    const d = j - xs;
    const r = Math.abs(d);
    if (r > h9) continue;
    let wj = r > h1 ? kernel[r] : 1;
    if (rw) wj *= rw[j - 1];
    const yj = y[j - 1];
    sw += wj;
    swd += wj * d;
    swdd += wj * d * d;
    swy += wj * yj;
    swdy += wj * d * yj;
  }
  if (sw <= 0) return NaN;
  const meanY = swy / sw;
  if (h > 0 && degree > 0) {
    // Weighted least-squares line through the window, read at xs (d = 0).
    const meanD = swd / sw;
    const spread = swdd / sw - meanD * meanD;
    if (Math.sqrt(Math.max(0, spread)) > 0.001 * range) return meanY - (meanD / spread) * (swdy / sw - meanD * meanY);
  }
  return meanY;
}

/** Writes the estimate at abscissa i, the value itself where the estimate is undefined (a top-level function: a closure made per call costs a definition each time). */
function put(out: Float64Array, outOffset: number, y: ArrayLike<number>, i: number, value: number): void {
  out[outOffset + i - 1] = Number.isNaN(value) ? y[i - 1] : value;
}

/**
 * LOESS smoothing of y[0..n-1] into out[outOffset..outOffset+n-1] (Fortran `stless`): evaluated every
 * `jump` points (and at the last) and linearly interpolated between.
 */
function loessSmooth(y: ArrayLike<number>, n: number, len: number, degree: number, jump: number, rw: ArrayLike<number> | null, out: Float64Array, outOffset: number): void {
  if (n < 2) {
    out[outOffset] = y[0];
    return;
  }
  const step = Math.min(jump, n - 1);
  let nleft = 1;
  let nright = n;
  if (len >= n) {
    for (let i = 1; i <= n; i += step) put(out, outOffset, y, i, loessAt(y, n, len, degree, i, 1, n, rw));
  } else if (step === 1) {
    const half = Math.floor((len + 1) / 2);
    nright = len;
    for (let i = 1; i <= n; i++) {
      if (i > half && nright !== n) {
        nleft++;
        nright++;
      }
      put(out, outOffset, y, i, loessAt(y, n, len, degree, i, nleft, nright, rw));
    }
  } else {
    const half = Math.floor((len + 1) / 2);
    for (let i = 1; i <= n; i += step) {
      if (i < half) {
        nleft = 1;
        nright = len;
      } else if (i >= n - half + 1) {
        nleft = n - len + 1;
        nright = n;
      } else {
        nleft = i - half + 1;
        nright = len + i - half;
      }
      put(out, outOffset, y, i, loessAt(y, n, len, degree, i, nleft, nright, rw));
    }
  }
  if (step === 1) return;
  for (let i = 1; i <= n - step; i += step) {
    const a = out[outOffset + i - 1];
    const delta = (out[outOffset + i + step - 1] - a) / step;
    for (let j = i + 1; j < i + step; j++) out[outOffset + j - 1] = a + delta * (j - i);
  }
  const k = Math.floor((n - 1) / step) * step + 1;
  if (k !== n) {
    if (len >= n) {
      nleft = 1;
      nright = n;
    }
    put(out, outOffset, y, n, loessAt(y, n, len, degree, n, nleft, nright, rw));
    if (k !== n - 1) {
      const a = out[outOffset + k - 1];
      const delta = (out[outOffset + n - 1] - a) / (n - k);
      for (let j = k + 1; j < n; j++) out[outOffset + j - 1] = a + delta * (j - k);
    }
  }
}

/** Moving average of length `len` over x[0..n-1] (Fortran `stlma`): n - len + 1 values. */
function movingAverage(x: ArrayLike<number>, n: number, len: number, out: Float64Array): void {
  let v = 0;
  for (let i = 0; i < len; i++) v += x[i];
  out[0] = v / len;
  for (let j = 1, k = len, m = 0; j < n - len + 1; j++, k++, m++) {
    v += x[k] - x[m];
    out[j] = v / len;
  }
}

interface Workspace {
  subseries: Float64Array;
  subWeights: Float64Array;
  smoothed: Float64Array;
  cycle: Float64Array;
  a: Float64Array;
  b: Float64Array;
}

/**
 * Smooths each cycle-subseries of y (Fortran `stlss`), extended by one cycle at both ends, into
 * cycle[0..n+2*period-1].
 */
function smoothCycles(y: Float64Array, n: number, period: number, window: number, degree: number, jump: number, rw: Float64Array | null, ws: Workspace): void {
  const { subseries, subWeights, smoothed, cycle } = ws;
  for (let j = 0; j < period; j++) {
    const k = Math.floor((n - 1 - j) / period) + 1;
    for (let i = 0; i < k; i++) subseries[i] = y[i * period + j];
    if (rw) for (let i = 0; i < k; i++) subWeights[i] = rw[i * period + j];
    const sw = rw ? subWeights : null;
    loessSmooth(subseries, k, window, degree, jump, sw, smoothed, 1);
    const before = loessAt(subseries, k, window, degree, 0, 1, Math.min(window, k), sw);
    smoothed[0] = Number.isNaN(before) ? smoothed[1] : before;
    const after = loessAt(subseries, k, window, degree, k + 1, Math.max(1, k - window + 1), k, sw);
    smoothed[k + 1] = Number.isNaN(after) ? smoothed[k] : after;
    for (let m = 0; m < k + 2; m++) cycle[m * period + j] = smoothed[m];
  }
}

/** Bisquare robustness weights from the residuals (Fortran `stlrwt`): h = 6 median |residual|. */
function robustnessWeights(y: Float64Array, fit: Float64Array, rw: Float64Array): void {
  const n = y.length;
  const abs = new Float64Array(n);
  for (let i = 0; i < n; i++) abs[i] = Math.abs(y[i] - fit[i]);
  abs.sort();
  const cmad = 3 * (abs[Math.floor(n / 2)] + abs[n - Math.floor(n / 2) - 1]);
  for (let i = 0; i < n; i++) {
    const r = Math.abs(y[i] - fit[i]);
    if (r <= 0.001 * cmad) rw[i] = 1;
    else if (r <= 0.999 * cmad) {
      const q = r / cmad;
      rw[i] = (1 - q * q) * (1 - q * q);
    } else rw[i] = 0;
  }
}

/** STL decomposition y = seasonal + trend + remainder with R's `stl` defaults for the given windows. */
export function stl(series: ArrayLike<number>, options: StlOptions): StlDecomposition {
  const y = new Float64Array(series);
  const n = y.length;
  const period = Math.max(2, Math.round(options.period));
  if (n <= 2 * period) throw new RangeError(`STL needs more than two periods of data (${n} values for period ${period})`);
  const oddAtLeast3 = (x: number) => Math.max(3, x % 2 === 0 ? x + 1 : x);
  const ns = oddAtLeast3(nextOdd(options.seasonalWindow));
  const nt = oddAtLeast3(options.trendWindow ?? nextOdd(Math.ceil((1.5 * period) / (1 - 1.5 / ns))));
  const nl = oddAtLeast3(options.lowPassWindow ?? nextOdd(period));
  const sDegree = options.seasonalDegree ?? 0;
  const tDegree = options.trendDegree ?? 1;
  const [sJump, tJump, lJump] = [ns, nt, nl].map((w) => Math.ceil(w / 10));
  const inner = options.robust ? 1 : 2;
  const outer = options.robust ? 15 : 0;

  const size = n + 2 * period;
  const ws: Workspace = {
    subseries: new Float64Array(size),
    subWeights: new Float64Array(size),
    smoothed: new Float64Array(size),
    cycle: new Float64Array(size),
    a: new Float64Array(size),
    b: new Float64Array(size),
  };
  const seasonal = new Float64Array(n);
  const trend = new Float64Array(n);
  const detrended = new Float64Array(n);
  const lowPass = new Float64Array(n);
  const rw = new Float64Array(n).fill(1);
  let useWeights = false;
  for (let pass = 0; pass <= outer; pass++) {
    const weights = useWeights ? rw : null;
    for (let it = 0; it < inner; it++) {
      for (let i = 0; i < n; i++) detrended[i] = y[i] - trend[i];
      smoothCycles(detrended, n, period, ns, sDegree, sJump, weights, ws);
      // Low-pass filter of the cycle-subseries: moving averages of period, period and 3, then a LOESS.
      movingAverage(ws.cycle, size, period, ws.a);
      movingAverage(ws.a, size - period + 1, period, ws.b);
      movingAverage(ws.b, size - 2 * period + 2, 3, ws.a);
      loessSmooth(ws.a, n, nl, tDegree, lJump, null, lowPass, 0);
      for (let i = 0; i < n; i++) seasonal[i] = ws.cycle[period + i] - lowPass[i];
      for (let i = 0; i < n; i++) detrended[i] = y[i] - seasonal[i];
      loessSmooth(detrended, n, nt, tDegree, tJump, weights, trend, 0);
    }
    if (pass < outer) {
      for (let i = 0; i < n; i++) detrended[i] = trend[i] + seasonal[i];
      robustnessWeights(y, detrended, rw);
      useWeights = true;
    }
  }
  // Typed-array loops throughout: Float64Array.from with a mapping function is several times slower in V8.
  const remainder = new Float64Array(n);
  for (let i = 0; i < n; i++) remainder[i] = y[i] - seasonal[i] - trend[i];
  return { seasonal, trend, remainder };
}
