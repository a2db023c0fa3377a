/**
 * Day-ahead forecasts of one data set at every origin (local midnight, 96 steps of 15 minutes), by each method
 * the issue compares:
 *  - the physical model with the set's specs, driven by the feed (untuned);
 *  - the same tuned on the measured against modelled power of the 60 days before the origin
 *    (shared/domain/pv/tuning.ts; learned again every TUNING_REFIT_DAYS), with its P10/P90;
 *  - the engine's history-only ensemble on the 56 days before the origin (no weather), on a subsample of origins;
 *  - smart persistence on the clear-sky index (./evaluate.ts), and the engine's own clear_sky_index_persistence
 *    member (a daily index on a horizontal clear-sky profile) beside it.
 */
import { ENSEMBLE, forecastSeries } from '../../shared/domain/forecasting/engine';
import { fitClearSkyIndexPersistence } from '../../shared/domain/forecasting/solar-persistence';
import { DAY_MS, stepsPerDay, type RegularSeries } from '../../shared/domain/forecasting/types';
import { clearSkyWeather, simulatePv } from '../../shared/domain/pv/system-model';
import { applyPvTuning, fitPvTuning, pvQuantiles, type ModelledStep, type PvTuning } from '../../shared/domain/pv/tuning';
import type { PvSystem, PvWeatherStep } from '../../shared/domain/pv/types';
import { STEP_MINUTES, type PvBenchSet } from './data';
import { smartPersistence } from './evaluate';

export const HORIZON_STEPS = stepsPerDay(STEP_MINUTES);
/** History the tuning learns on (the service's PV_HISTORY_DAYS). */
export const TUNING_HISTORY_DAYS = 60;
/** Less history than this does not tune (the service's PV_MIN_HISTORY_DAYS). */
export const TUNING_MIN_HISTORY_DAYS = 7;
/** History sent to the engine: 56 days, no weather. */
export const ENGINE_HISTORY_DAYS = 56;
/** P10-P90 of the engine's intervals, as the tuned forecast's. */
export const ENGINE_COVERAGE = 0.8;

export const METHODS = {
  untuned: 'physical, untuned',
  tuned: 'physical, tuned',
  ensemble: 'history-only ensemble',
  persistence: 'smart persistence',
  engineCsi: 'engine clear_sky_index_persistence',
} as const;
export type PvMethod = (typeof METHODS)[keyof typeof METHODS];

export interface OriginRun {
  origin: number;
  role: 'TUNE' | 'REPORT';
  measured: number[];
  forecasts: Partial<Record<PvMethod, number[]>>;
  /** The tuned forecast's P10 and P90 (the untuned model's where there is no tuning yet). */
  p10: number[];
  p90: number[];
  tuned: boolean;
}

export interface SetForecasts {
  origins: OriginRun[];
  /** Wall time per method, ms, and calls. */
  ms: Partial<Record<PvMethod, { total: number; calls: number }>>;
  errors: string[];
}

export interface ForecastOptions {
  /** The engine runs on every k-th REPORT origin. */
  engineEvery: number;
  /** Days between refits of the tuning. */
  tuningRefitDays: number;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function timed<T>(ms: SetForecasts['ms'], method: PvMethod, run: () => T): T {
  const started = performance.now();
  try {
    return run();
  } finally {
    const entry = (ms[method] ??= { total: 0, calls: 0 });
    entry.total += performance.now() - started;
    entry.calls++;
  }
}

/** The clear-sky AC output of a system on every step (Ineichen-Perez sky, the chain's defaults). */
export function clearSkyOutput(system: PvSystem, t: readonly number[]): number[] {
  return simulatePv(system, clearSkyWeather(system, t, STEP_MINUTES), STEP_MINUTES).map((m) => m.acKw);
}

/**
 * Every method at every origin of `origins` (indices into the set's grid); `weather` is the feed on the set's
 * steps and `system` the specs the physical forecast uses.
 */
export function forecastSet(set: PvBenchSet, system: PvSystem, weather: readonly PvWeatherStep[], origins: readonly { origin: number; role: 'TUNE' | 'REPORT' }[], options: ForecastOptions, onOrigin?: (k: number) => void): SetForecasts {
  const out: SetForecasts = { origins: [], ms: {}, errors: [] };
  const perDay = stepsPerDay(STEP_MINUTES);
  // The tuning bins steps by the clear-sky index of the GHI that drove them: it rides along with each step.
  const modelled: ModelledStep[] = timed(out.ms, METHODS.untuned, () => simulatePv(system, weather, STEP_MINUTES)).map((m, i) => ({ ...m, ghiWm2: weather[i].ghiWm2 }));
  const clearKw = clearSkyOutput(system, set.t);
  let tuning: { at: number; tuning: PvTuning } | undefined;
  let reportIndex = 0;

  origins.forEach(({ origin, role }, k) => {
    if (origin + HORIZON_STEPS > set.t.length) return;
    const day = modelled.slice(origin, origin + HORIZON_STEPS);
    const run: OriginRun = { origin, role, measured: set.kw.slice(origin, origin + HORIZON_STEPS), forecasts: {}, p10: [], p90: [], tuned: false };
    run.forecasts[METHODS.untuned] = day.map((m) => m.acKw);

    // Tuning: learned on the 60 days before the origin, again every `tuningRefitDays`.
    const historyStart = Math.max(0, origin - TUNING_HISTORY_DAYS * perDay);
    if (origin - historyStart >= TUNING_MIN_HISTORY_DAYS * perDay) {
      if (!tuning || set.t[origin] - tuning.at >= options.tuningRefitDays * DAY_MS) {
        try {
          tuning = { at: set.t[origin], tuning: timed(out.ms, METHODS.tuned, () => fitPvTuning(set.kw.slice(historyStart, origin), modelled.slice(historyStart, origin), system)) };
        } catch (error) {
          out.errors.push(`tuning at ${new Date(set.t[origin]).toISOString()}: ${errorText(error)}`);
        }
      }
    }
    const p50 = tuning ? timed(out.ms, METHODS.tuned, () => applyPvTuning(tuning!.tuning, day)) : day.map((m) => m.acKw);
    const { p10, p90 } = pvQuantiles(tuning?.tuning, day, p50, system.inverterAcKw);
    run.forecasts[METHODS.tuned] = p50;
    run.tuned = Boolean(tuning);
    run.p10 = p10;
    run.p90 = p90;

    run.forecasts[METHODS.persistence] = timed(out.ms, METHODS.persistence, () => smartPersistence(set.kw, clearKw, origin, HORIZON_STEPS, perDay));

    const from = Math.max(0, origin - ENGINE_HISTORY_DAYS * perDay);
    const history: RegularSeries = { t: set.t.slice(from, origin), y: set.kw.slice(from, origin), stepMinutes: STEP_MINUTES };
    const context = { kind: 'solar' as const, latitude: set.place.latitude, longitude: set.place.longitude };
    try {
      run.forecasts[METHODS.engineCsi] = timed(out.ms, METHODS.engineCsi, () => fitClearSkyIndexPersistence(history, context).predict(HORIZON_STEPS));
    } catch (error) {
      out.errors.push(`${METHODS.engineCsi}: ${errorText(error)}`);
    }
    if (role === 'REPORT' && reportIndex++ % options.engineEvery === 0) {
      try {
        const result = timed(out.ms, METHODS.ensemble, () => forecastSeries(history, { horizonSteps: HORIZON_STEPS, coverage: ENGINE_COVERAGE, modelType: ENSEMBLE, context }));
        run.forecasts[METHODS.ensemble] = result.points.map((p) => p.value);
      } catch (error) {
        out.errors.push(`${METHODS.ensemble} at ${new Date(set.t[origin]).toISOString()}: ${errorText(error)}`);
      }
    }
    out.origins.push(run);
    onOrigin?.(k);
  });
  return out;
}
