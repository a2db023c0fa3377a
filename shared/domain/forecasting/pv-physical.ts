/**
 * The physical PV member (issue 19): the site's specs and the exogenous weather through the PV model chain
 * (shared/domain/pv: Erbs 1982, Perez 1990, Faiman 2008, PVWatts after Dobos 2014), with the tuning learned on
 * the history's measured against modelled power (pv/tuning.ts) applied to the horizon. It applies only where the
 * context carries `options.pvSystem` (a site's set or inferred specs, in kW like its series) and ghi_wm2 over the
 * history and the horizon; elsewhere its fit throws and the engine leaves it out, so other forecasts are unchanged.
 *
 * The exogenous weather is a value per series timestamp, and a series may label its steps by their start, end or
 * middle: the sun is placed as the history's production says (solar.ts `bestAlignment`, the clear-sky profile
 * that tracks production best), so an hourly series labelled at its start is not modelled half an hour early.
 */
import { simulatePv } from '../pv/system-model';
import { applyPvTuning, fitPvTuning, type ModelledStep } from '../pv/tuning';
import type { PvStepResult, PvSystem, PvWeatherStep } from '../pv/types';
import { ForecastInputError } from './regularise';
import { bestAlignment, type Alignment } from './solar';
import { stepsPerDay, type FitContext, type FittedModel, type ForecastMember, type RegularSeries } from './types';

/** The key of FitContext.options that carries the site's PvSystem. */
export const PV_SYSTEM_OPTION = 'pvSystem';
/** Days of history the tuning is learned on: the latest, as the season and soiling stand now. */
export const PV_TUNING_DAYS = 30;
/** Days of history the member needs: a tuning learned on fewer is mostly one day's clouds. */
export const PV_MIN_HISTORY_DAYS = 3;

const GHI = 'ghi_wm2';
const TEMPERATURE = 'temperature_c';
const WIND = 'wind_speed_ms';

/** The PvSystem in a context's options, when one with usable specs is there. */
export function contextPvSystem(context: FitContext): PvSystem | undefined {
  const s = context.options?.[PV_SYSTEM_OPTION] as PvSystem | undefined;
  if (!s || typeof s !== 'object') return undefined;
  const finite = [s.latitude, s.longitude, s.capacityKwp, s.tiltDeg, s.azimuthDeg, s.lossesPct, s.inverterAcKw].every(Number.isFinite);
  return finite && s.capacityKwp > 0 && s.inverterAcKw > 0 ? s : undefined;
}

/** Minutes from a step's timestamp to its start, for each labelling: the sun is evaluated at the step's middle. */
function startOffsetMinutes(alignment: Alignment, stepMinutes: number): number {
  if (alignment === 'starting') return 0;
  if (alignment === 'ending') return -stepMinutes;
  return -stepMinutes / 2;
}

// The engine fits a member on nested prefixes of one series (validation folds, then the full history), and a
// fold's horizon is the history's weather: simulate each step once per system and weather.
interface CachedStep {
  step: PvWeatherStep;
  result: PvStepResult;
}
const simulated = new WeakMap<PvSystem, Map<number, CachedStep>>();
const sameWeather = (a: PvWeatherStep, b: PvWeatherStep) => Object.is(a.ghiWm2, b.ghiWm2) && Object.is(a.tempAirC, b.tempAirC) && Object.is(a.windSpeedMs, b.windSpeedMs);

/**
 * simulatePv through the per-system cache (the chain treats every step on its own, so steps can be run apart), with
 * each step's GHI beside its result: the tuning bins steps by clear-sky index.
 */
function simulateCached(system: PvSystem, steps: readonly PvWeatherStep[], stepMinutes: number): ModelledStep[] {
  let bySystem = simulated.get(system);
  if (!bySystem) simulated.set(system, (bySystem = new Map()));
  const out = new Array<PvStepResult>(steps.length);
  const missing: number[] = [];
  steps.forEach((step, i) => {
    const hit = bySystem.get(step.t);
    if (hit && sameWeather(hit.step, step)) out[i] = hit.result;
    else missing.push(i);
  });
  if (missing.length) {
    const results = simulatePv(system, missing.map((i) => steps[i]), stepMinutes);
    missing.forEach((i, k) => {
      out[i] = results[k];
      bySystem.set(steps[i].t, { step: steps[i], result: results[k] });
    });
  }
  return out.map((result, i) => ({ ...result, ghiWm2: steps[i].ghiWm2 }));
}

/** Weather steps from exogenous values at `times` (NaN GHI stays NaN: a gap, not darkness). */
function weatherSteps(times: readonly number[], from: number, exogenous: Record<string, number[]>, offsetMs: number): PvWeatherStep[] {
  const ghi = exogenous[GHI];
  const temp = exogenous[TEMPERATURE];
  const wind = exogenous[WIND];
  return times.map((t, j) => {
    const i = from + j;
    const step: PvWeatherStep = { t: t + offsetMs, ghiWm2: ghi[i] ?? NaN };
    if (temp && Number.isFinite(temp[i])) step.tempAirC = temp[i];
    if (wind && Number.isFinite(wind[i])) step.windSpeedMs = wind[i];
    return step;
  });
}

/**
 * Fits the member: the alignment and the tuning on the last PV_TUNING_DAYS of history.
 * @throws ForecastInputError without a PvSystem in the context or ghi_wm2 over the history and the horizon
 */
export function fitPvPhysical(history: RegularSeries, context: FitContext): FittedModel {
  const system = contextPvSystem(context);
  if (!system) throw new ForecastInputError("Model 'pv_physical' needs the site's PV system specs (PUT /api/sites/{site_id}), which this forecast does not have");
  const pastGhi = context.history?.[GHI];
  const futureGhi = context.future?.[GHI];
  if (!pastGhi || pastGhi.length !== history.y.length || !pastGhi.some(Number.isFinite) || !futureGhi?.some(Number.isFinite)) {
    throw new ForecastInputError("Model 'pv_physical' needs irradiance (ghi_wm2) over the history and the horizon");
  }
  const n = history.y.length;
  const from = Math.max(0, n - PV_TUNING_DAYS * stepsPerDay(history.stepMinutes));
  const times = history.t.slice(from);
  const measured = history.y.slice(from);
  const alignment = bestAlignment(times, measured, history.stepMinutes, { latitude: system.latitude, longitude: system.longitude, estimated: false });
  const offsetMs = startOffsetMinutes(alignment, history.stepMinutes) * 60_000;
  const modelled = simulateCached(system, weatherSteps(times, from, context.history as Record<string, number[]>, offsetMs), history.stepMinutes);
  // The engine's conformal machinery makes the intervals: the tuning's own bands are not needed here.
  const tuning = fitPvTuning(measured, modelled, system, { bands: false });
  const stepMs = history.stepMinutes * 60_000;
  const last = history.t[n - 1];
  const future = context.future as Record<string, number[]>;
  return {
    predict(steps: number): number[] {
      const ahead = Array.from({ length: steps }, (_, j) => last + (j + 1) * stepMs);
      return applyPvTuning(tuning, simulateCached(system, weatherSteps(ahead, 0, future, offsetMs), history.stepMinutes));
    },
  };
}

/** The physical PV model tuned on the site's history (see the module comment). */
export const pvPhysicalMember: ForecastMember = {
  name: 'pv_physical',
  supports: (kind) => kind === 'solar',
  minHistory: (stepMinutes) => PV_MIN_HISTORY_DAYS * stepsPerDay(stepMinutes),
  fit: fitPvPhysical,
};
