/**
 * Non-seasonal exponential smoothing in state-space form, chosen by AICc (Hyndman, Koehler, Snyder & Grose
 * 2002, IJF 18:439-454; Hyndman & Khandakar 2008, J. Stat. Software 27(3)), as R's `forecast::ets(model =
 * "ZZN")` fits the seasonally adjusted series in `stlf`: simple exponential smoothing ETS(A,N,N), Holt's
 * linear trend ETS(A,A,N) and the damped trend ETS(A,Ad,N), with R's parameter bounds (alpha and beta in
 * [1e-4, 0.9999], beta <= alpha, phi in [0.8, 0.98]) and its likelihood n log(SSE).
 *
 * Departures from R: the initial states enter the one-step errors linearly, so for given smoothing
 * parameters they are solved by least squares (the exact concentrated likelihood) instead of searched by
 * Nelder-Mead beside them, which reaches an AICc at or below R's; the smoothing parameters are searched on
 * a logit scale inside the bounds; and the multiplicative-error variants R also tries are left out (they
 * run the same state recursion, so only their fitted parameters, not the form of the forecast, differ).
 */

/** R's bounds for the smoothing parameters (`ets(lower, upper)`). */
export const ETS_BOUNDS = { alphaBeta: [1e-4, 0.9999], phi: [0.8, 0.98] } as const;

export type EtsTrend = 'none' | 'additive' | 'damped';

export interface EtsModel {
  trend: EtsTrend;
  alpha: number;
  /** Trend smoothing (0 without a trend). */
  beta: number;
  /** Damping (1 for an undamped trend). */
  phi: number;
  /** Level and slope after the last observation. */
  level: number;
  slope: number;
  /** Corrected Akaike information criterion: n log(SSE) + 2k + 2k(k+1)/(n-k-1), k counting sigma. */
  aicc: number;
  /** One-step residual variance SSE / (n - k). */
  sigma2: number;
  /** Point forecasts 1..steps ahead. */
  forecast(steps: number): number[];
}

interface Smoothing {
  alpha: number;
  beta: number;
  phi: number;
}

interface Pass {
  sse: number;
  level: number;
  slope: number;
}

/**
 * One-step errors of the additive recursion l_t = l + phi b + alpha e_t, b_t = phi b + beta e_t with
 * e_t = y_t - l - phi b, run from the initial states that minimise the SSE. The errors are
 * e_t = u_t - z_t . x0 with u_t the errors from x0 = 0 and z_t = w' D^(t-1) (D the recursion's transition
 * with the error fed back), so x0 is a least-squares fit of u on z.
 */
function concentratedPass(y: Float64Array, trend: boolean, { alpha, beta, phi }: Smoothing): Pass {
  const n = y.length;
  // Sums for the normal equations of x0 = (l0, b0).
  let suu = 0;
  let su1 = 0;
  let su2 = 0;
  let s11 = 0;
  let s12 = 0;
  let s22 = 0;
  // The recursion from zero states, and D^(t-1) applied to each unit initial state.
  let l = 0;
  let b = 0;
  let dl1 = 1;
  let db1 = 0;
  let dl2 = 0;
  let db2 = 1;
  const tphi = trend ? phi : 0;
  for (let t = 0; t < n; t++) {
    const u = y[t] - l - tphi * b;
    const z1 = dl1 + tphi * db1;
    const z2 = dl2 + tphi * db2;
    suu += u * u;
    su1 += u * z1;
    su2 += u * z2;
    s11 += z1 * z1;
    s12 += z1 * z2;
    s22 += z2 * z2;
    l = l + tphi * b + alpha * u;
    b = tphi * b + beta * u;
    // The same recursion with y = 0 carries each initial state: x_t = D x_(t-1), e = -z.
    const nl1 = dl1 + tphi * db1 - alpha * z1;
    db1 = tphi * db1 - beta * z1;
    dl1 = nl1;
    const nl2 = dl2 + tphi * db2 - alpha * z2;
    db2 = tphi * db2 - beta * z2;
    dl2 = nl2;
  }
  let l0: number;
  let b0 = 0;
  if (trend) {
    const det = s11 * s22 - s12 * s12;
    if (Math.abs(det) > 1e-12 * s11 * s22) {
      l0 = (su1 * s22 - su2 * s12) / det;
      b0 = (s11 * su2 - s12 * su1) / det;
    } else l0 = s11 > 0 ? su1 / s11 : 0;
  } else l0 = s11 > 0 ? su1 / s11 : 0;
  const sse = Math.max(0, suu - 2 * (l0 * su1 + b0 * su2) + l0 * l0 * s11 + 2 * l0 * b0 * s12 + b0 * b0 * s22);
  // Final states: the zero-start recursion plus the propagated initial states.
  return { sse, level: l + dl1 * l0 + dl2 * b0, slope: trend ? b + db1 * l0 + db2 * b0 : 0 };
}

/**
 * Nelder-Mead minimisation (Nelder & Mead 1965) with R's `optim` constants (reflection 1, contraction 0.5,
 * expansion 2, initial step 10% of the largest coordinate, relative tolerance sqrt(machine epsilon)).
 */
export function nelderMead(f: (x: number[]) => number, start: number[], maxEvaluations = 2000, tolerance = 1.49e-8): { x: number[]; value: number } {
  const dim = start.length;
  const size = Math.max(...start.map((v) => 0.1 * Math.abs(v))) || 0.1;
  const simplex = [start.slice()];
  for (let i = 0; i < dim; i++) {
    const vertex = start.slice();
    vertex[i] += size;
    simplex.push(vertex);
  }
  const values = simplex.map(f);
  let evaluations = dim + 1;
  const centroidWithout = (worst: number) => {
    const c = new Array<number>(dim).fill(0);
    for (let v = 0; v <= dim; v++) if (v !== worst) for (let i = 0; i < dim; i++) c[i] += simplex[v][i] / dim;
    return c;
  };
  const along = (c: number[], towards: number[], k: number) => c.map((ci, i) => ci + k * (towards[i] - ci));
  while (evaluations < maxEvaluations) {
    const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
    const best = order[0];
    const worst = order[dim];
    const second = order[dim - 1];
    if (values[worst] <= values[best] + tolerance * (Math.abs(values[best]) + tolerance)) break;
    const c = centroidWithout(worst);
    const reflected = along(c, simplex[worst], -1);
    const fr = f(reflected);
    evaluations++;
    if (fr < values[best]) {
      const expanded = along(c, simplex[worst], -2);
      const fe = f(expanded);
      evaluations++;
      [simplex[worst], values[worst]] = fe < fr ? [expanded, fe] : [reflected, fr];
    } else if (fr < values[second]) {
      [simplex[worst], values[worst]] = [reflected, fr];
    } else {
      const outside = fr < values[worst];
      const contracted = along(c, outside ? reflected : simplex[worst], 0.5);
      const fc = f(contracted);
      evaluations++;
      if (fc < Math.min(fr, values[worst])) [simplex[worst], values[worst]] = [contracted, fc];
      else {
        // Shrink towards the best vertex.
        for (let v = 0; v <= dim; v++) {
          if (v === best) continue;
          simplex[v] = along(simplex[best], simplex[v], 0.5);
          values[v] = f(simplex[v]);
          evaluations++;
        }
      }
    }
  }
  let best = 0;
  for (let v = 1; v <= dim; v++) if (values[v] < values[best]) best = v;
  return { x: simplex[best], value: values[best] };
}

/** Fits one ETS(A, trend, N) by maximum likelihood within R's bounds. */
export function fitEts(series: ArrayLike<number>, trend: EtsTrend): EtsModel {
  const n = series.length;
  // Centred: a constant is a fixed point of the recursion (it only shifts the level), and centring keeps
  // the expanded SSE of the concentrated pass free of cancellation on large loads.
  let centre = 0;
  for (let i = 0; i < n; i++) centre += series[i] / n;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[i] = series[i] - centre;
  const [lo, hi] = ETS_BOUNDS.alphaBeta;
  const [phiLo, phiHi] = ETS_BOUNDS.phi;
  const hasTrend = trend !== 'none';
  // Searched on the logit scale of each bound (beta's upper bound being alpha): every point the simplex
  // tries is admissible, where R's Nelder-Mead sees an infinite likelihood outside and can stall on an edge.
  const logistic = (v: number) => 1 / (1 + Math.exp(-v));
  const logit = (p: number) => Math.log(p / (1 - p));
  const smoothing = (x: number[]): Smoothing => {
    const alpha = lo + (hi - lo) * logistic(x[0]);
    const beta = hasTrend ? lo + (alpha - lo) * logistic(x[1]) : 0;
    const phi = trend === 'damped' ? phiLo + (phiHi - phiLo) * logistic(x[2]) : 1;
    return { alpha, beta, phi };
  };
  const objective = (x: number[]) => {
    const { sse } = concentratedPass(y, hasTrend, smoothing(x));
    return sse > 0 ? n * Math.log(sse) : -1e10;
  };
  // R's starting values (`initparam`): alpha at 20% of its range, beta at 10% of alpha's, phi at 99% of its own.
  const start = [logit(0.2)];
  if (hasTrend) start.push(logit(0.1));
  if (trend === 'damped') start.push(logit(0.99));
  // A second search from the first one's optimum, the usual guard against a simplex that collapsed early.
  const first = nelderMead(objective, start);
  const { x } = nelderMead(objective, first.x);
  const s = smoothing(x);
  const pass = concentratedPass(y, hasTrend, s);
  // Parameters: the smoothing ones, the initial states and sigma (R's count).
  const k = start.length + (hasTrend ? 2 : 1) + 1;
  const lik = pass.sse > 0 ? n * Math.log(pass.sse) : -1e10;
  const aicc = lik + 2 * k + (2 * k * (k + 1)) / Math.max(1, n - k - 1);
  const level = pass.level + centre;
  const { slope } = pass;
  return {
    trend,
    ...s,
    level,
    slope,
    aicc,
    sigma2: pass.sse / Math.max(1, n - k),
    forecast(steps) {
      const out = new Array<number>(steps);
      let damping = 0;
      let power = 1;
      for (let h = 0; h < steps; h++) {
        power *= s.phi;
        damping += power;
        out[h] = level + (hasTrend ? damping * slope : 0);
      }
      return out;
    },
  };
}

/** The ETS(A,N,N), ETS(A,A,N) and ETS(A,Ad,N) fits of a series, best (lowest AICc) first. */
export function selectEts(series: ArrayLike<number>, trends: readonly EtsTrend[] = ['none', 'additive', 'damped']): EtsModel[] {
  return trends.map((trend) => fitEts(series, trend)).sort((a, b) => a.aicc - b.aicc);
}
