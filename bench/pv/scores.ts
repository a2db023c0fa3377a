/**
 * Scores of the day-ahead runs: daylight RMSE per method over the same steps (every method finite there), as kW
 * and as a share of capacity, each method's RMSE ratio to smart persistence with a paired bootstrap 95% interval
 * over origins (bench/accuracy/bootstrap.ts), and the P10-P90 coverage of the tuned forecast.
 */
import { pairedRatio, type Estimate } from '../accuracy/bootstrap';
import { intervalHits, pooledRmse, squaredErrors } from './evaluate';
import { METHODS, type PvMethod, type OriginRun } from './forecasts';

export interface MethodScore {
  method: PvMethod;
  rmseKw: number;
  /** RMSE over the capacity the set's figures are scaled by, percent. */
  rmsePct: number;
  /** RMSE ratio to smart persistence, paired over origins (null for persistence itself). */
  vsPersistence: Estimate | null;
}

export interface TableScore {
  origins: number;
  steps: number;
  firstOrigin: string;
  lastOrigin: string;
  methods: MethodScore[];
  /** P10-P90 coverage of the tuned forecast over the same daylight steps (nominal 0.8). */
  tunedCoverage: { share: number; steps: number };
}

/**
 * Scores `methods` over the origins where every one of them forecast, on the daylight steps (`daylight` is
 * indexed like the set's grid) where all are finite and power was measured.
 */
export function scoreRuns(runs: readonly OriginRun[], methods: readonly PvMethod[], daylight: readonly boolean[], times: readonly number[], capacityKw: number, resamples: number): TableScore {
  const used = runs.filter((r) => methods.every((m) => r.forecasts[m]));
  const sums: Record<string, { sse: number; n: number }[]> = Object.fromEntries(methods.map((m) => [m, []]));
  let inside = 0;
  let covered = 0;
  for (const r of used) {
    const keep = r.measured.map((y, j) => daylight[r.origin + j] && Number.isFinite(y) && methods.every((m) => Number.isFinite(r.forecasts[m]![j])));
    for (const m of methods) sums[m].push(squaredErrors(r.forecasts[m]!, r.measured, keep));
    const hits = intervalHits(r.p10, r.p90, r.measured, keep);
    inside += hits.inside;
    covered += hits.n;
  }
  const base = sums[METHODS.persistence];
  const scores = methods.map((method) => {
    const rmseKw = pooledRmse(sums[method]);
    return {
      method,
      rmseKw,
      rmsePct: (100 * rmseKw) / capacityKw,
      vsPersistence: method === METHODS.persistence || !base ? null : pairedRatio({ a: sums[method].map((s) => s.sse), b: base.map((s) => s.sse) }, { root: true, resamples }),
    };
  });
  const iso = (i: number) => (used.length ? new Date(times[used[i].origin]).toISOString() : '');
  return {
    origins: used.length,
    steps: sums[methods[0]].reduce((s, x) => s + x.n, 0),
    firstOrigin: iso(0),
    lastOrigin: iso(used.length - 1),
    methods: scores,
    tunedCoverage: { share: covered ? inside / covered : NaN, steps: covered },
  };
}
