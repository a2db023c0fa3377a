/**
 * A PV system's specs inferred from its measured power alone (issue 19, item 4). Clear-sky periods are found in
 * the power itself; tilt, azimuth and DC capacity are those for which the PV model chain, run under a clear sky,
 * best matches the power of those periods (least squares, as pvanalytics' `system.infer_orientation_fit_pvwatts`
 * does, here by a grid then a pattern search); the AC rating is read from clipping when the power shows any.
 *
 * Why a prior on orientation. Near the equinoxes the beam meets any equator-facing plane at cos(latitude - tilt)
 * times the cosine of the hour angle: tilt then changes the day's scale, not its shape, and scale is capacity's
 * business. A month of power alone may not pin tilt down, so the least-squares misfit is weighed against a weak
 * prior (the usual tilt for the latitude, facing the equator) and the data win wherever they speak.
 */
import { DAY_MS } from '../time';
import { clearPeriods, clearWindowSteps, quantile, solarDay, sunnyFixedDays, type DaySteps } from './infer-clear-sky';
import { clearSkyWeather, simulatePv } from './system-model';
import type { PvSystem, PvWeatherStep } from './types';
import { DEG } from '../angles';
import { solarDeclinationDeg } from '../weather/climatology';

/** Measured AC power: `t` the start of each step's interval (epoch ms, UTC), `kw` its mean power. */
export interface MeasuredPower {
  t: number[];
  kw: number[];
  stepMinutes: number;
}

/** Where the system is. */
export interface PvPlace {
  latitude: number;
  longitude: number;
  elevationM: number;
}

/** Specs inferred from history, with how well the model then fits the clear-sky periods. */
export interface InferredSpecs {
  system: PvSystem;
  fit: {
    /** Coefficient of determination of modelled against measured power over the clear periods used. */
    r2: number;
    rmseKw: number;
    /** Days at least CLEAR_DAY_SHARE clear. */
    clearDays: number;
    /** Days that gave clear periods to the fit. */
    daysUsed: number;
  };
  method: string;
}

/**
 * System losses assumed, percent: PVWatts' default (Dobos 2014). Losses and capacity cannot be told apart from
 * power alone, so the fitted capacity absorbs any difference: it is the nameplate that gives the measured power
 * with 14% losses.
 */
export const INFERRED_LOSSES_PCT = 14;
/**
 * DC/AC ratio assumed when no clipping shows, so the AC rating is not observable: 1.1, usual for commercial and
 * utility plants; the rating is then raised to the highest power measured, which it cannot be below.
 */
export const ASSUMED_DC_AC_RATIO = 1.1;
/** Steps with the sun beyond this zenith are left out: row-to-row and horizon shading distort mornings and evenings. */
export const MAX_FIT_ZENITH_DEG = 80;
/** A day counts as clear when this share of its daylight steps lies in clear periods. */
export const CLEAR_DAY_SHARE = 0.7;
/** Steps within this share below a candidate ceiling may be clipped: they do not inform the scale. */
export const PLATEAU_TOLERANCE = 0.03;
/** The quantile of the clear days' peaks taken as a candidate ceiling. */
export const CEILING_QUANTILE = 0.9;
/** Clipping is accepted when the clipped model cuts the clear-sky misfit by at least this share. */
export const CLIPPING_MIN_GAIN = 0.1;
/** Prior spread of tilt around the latitude's usual tilt, and of azimuth around the equator, degrees. */
export const TILT_PRIOR_SD_DEG = 12;
export const AZIMUTH_PRIOR_SD_DEG = 45;

/** Rounds of clear-period detection and refitting (Reno & Hansen 2016 iterate their clear-sky scaling likewise). */
const CLEAR_ROUNDS = 3;
/** Coarse grid, degrees: tilts 0 then 15 to 75, azimuths every 30 degrees round the compass (either hemisphere). */
const GRID_TILTS = [0, 15, 30, 45, 60, 75];
const GRID_AZIMUTHS = Array.from({ length: 12 }, (_, i) => i * 30);
/** Pattern search: first step, degrees, halved down to the last. */
const REFINE_FIRST_STEP_DEG = 8;
const REFINE_LAST_STEP_DEG = 0.5;

export class NotEnoughClearSky extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotEnoughClearSky';
  }
}

interface Orientation {
  tiltDeg: number;
  azimuthDeg: number;
}

interface OrientationFit extends Orientation {
  /** Least-squares scale of the 1 kWp model: the DC capacity, kWp. */
  capacityKwp: number;
  /** Sum of squared residuals, kW². */
  sse: number;
  /** The misfit weighed with the prior (what the search minimises). */
  objective: number;
}

/**
 * The usual tilt at a latitude: 0.87|φ| up to 25°, 0.76|φ| + 3.1 up to 50°, then 40° (Landau's rule, as used by
 * Pfenninger & Staffell 2016, Energy 114, in renewables.ninja's GSEE).
 */
export function usualTiltDeg(latitude: number): number {
  const phi = Math.abs(latitude);
  return phi <= 25 ? 0.87 * phi : phi <= 50 ? 0.76 * phi + 3.1 : 40;
}

/** The equator-facing azimuth: south (180) in the northern hemisphere, north (0) in the southern. */
export const equatorAzimuthDeg = (latitude: number) => (latitude >= 0 ? 180 : 0);

/** A model run at 1 kWp (and a 1 kW inverter, so that the inverter's part-load curve matches the scaled system's). */
function unitSystem(place: PvPlace, orientation: Orientation): PvSystem {
  return { ...place, ...orientation, capacityKwp: 1, lossesPct: INFERRED_LOSSES_PCT, inverterAcKw: 1 };
}

const wrapAzimuth = (a: number) => ((a % 360) + 360) % 360;
const azimuthGap = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);

/**
 * The clear-sky AC power of a 1 kWp system at every daylight step, by orientation. Each orientation is simulated
 * once, over all the daylight steps, and reused by every round and by both clipping hypotheses.
 */
class ClearSkyShapes {
  private readonly cache = new Map<string, Float64Array>();

  constructor(
    private readonly place: PvPlace,
    private readonly weather: readonly PvWeatherStep[],
    private readonly stepMinutes: number,
  ) {}

  of(o: Orientation): Float64Array {
    const key = `${o.tiltDeg.toFixed(4)}/${o.azimuthDeg.toFixed(4)}`;
    let shape = this.cache.get(key);
    if (!shape) {
      shape = Float64Array.from(simulatePv(unitSystem(this.place, o), this.weather, this.stepMinutes), (r) => r.acKw);
      this.cache.set(key, shape);
    }
    return shape;
  }
}

/** The fit of clear-sky shapes to the measured power of some daylight steps. */
interface FitProblem {
  latitude: number;
  shapes: ClearSkyShapes;
  /** Indices of the daylight steps fitted, and their measured power. */
  steps: readonly number[];
  kw: readonly number[];
  /** An inverter ceiling to model, kW: steps near it do not inform the scale, and the model is cut there. */
  ceilingKw?: number;
  /** Independent pieces of evidence: residuals within a day move together (one turbidity, one temperature course). */
  evidenceDays: number;
}

/**
 * Least-squares scale k of kw ≈ k·shape and its residual sum of squares. With a ceiling L, k is fitted on the steps
 * below the plateau and the residuals are those of min(k·shape, L).
 */
function scaleFit(kw: readonly number[], shape: ArrayLike<number>, steps: readonly number[], ceilingKw?: number): { k: number; sse: number } {
  let ms = 0, ss = 0;
  const plateau = ceilingKw === undefined ? Infinity : (1 - PLATEAU_TOLERANCE) * ceilingKw;
  for (let j = 0; j < steps.length; j++) {
    if (kw[j] >= plateau) continue;
    const p = shape[steps[j]];
    ms += kw[j] * p;
    ss += p * p;
  }
  const k = ss > 0 ? ms / ss : 0;
  let sse = 0;
  for (let j = 0; j < steps.length; j++) sse += (kw[j] - Math.min(k * shape[steps[j]], ceilingKw ?? Infinity)) ** 2;
  return { k, sse };
}

/**
 * The orientation that best explains the clear-sky power: the misfit, in units of the starting point's (times the
 * days of evidence), plus the squared prior z-scores of tilt and azimuth (a Gaussian MAP estimate). A coarse grid,
 * then a pattern search (Hooke & Jeeves 1961) from its best point or from `from`.
 */
function fitOrientation(problem: FitProblem, from?: Orientation): OrientationFit {
  const { latitude, shapes, steps, kw, ceilingKw, evidenceDays } = problem;
  const tiltPrior = usualTiltDeg(latitude);
  const azimuthPrior = equatorAzimuthDeg(latitude);
  const penalty = (o: Orientation) =>
    ((o.tiltDeg - tiltPrior) / TILT_PRIOR_SD_DEG) ** 2 + (azimuthGap(o.azimuthDeg, azimuthPrior) / AZIMUTH_PRIOR_SD_DEG) ** 2;
  const misfit = (o: Orientation) => scaleFit(kw, shapes.of(o), steps, ceilingKw);

  let start: Orientation;
  if (from) start = from;
  else {
    const grid: (Orientation & { sse: number })[] = [];
    for (const tiltDeg of GRID_TILTS) {
      for (const azimuthDeg of tiltDeg === 0 ? [azimuthPrior] : GRID_AZIMUTHS) {
        const { k, sse } = misfit({ tiltDeg, azimuthDeg });
        if (k > 0) grid.push({ tiltDeg, azimuthDeg, sse });
      }
    }
    if (grid.length === 0) throw new NotEnoughClearSky('no orientation gives clear-sky power at the measured steps');
    const reference = Math.min(...grid.map((g) => g.sse)) || 1;
    const score = (g: Orientation & { sse: number }) => (evidenceDays * g.sse) / reference + penalty(g);
    start = grid.reduce((best, g) => (score(g) < score(best) ? g : best));
  }

  const reference = misfit(start).sse || 1;
  const evaluate = (o: Orientation): OrientationFit => {
    const { k, sse } = misfit(o);
    return { ...o, capacityKwp: k, sse, objective: k > 0 ? (evidenceDays * sse) / reference + penalty(o) : Infinity };
  };
  let current = evaluate(start);
  for (let step = from ? REFINE_FIRST_STEP_DEG / 2 : REFINE_FIRST_STEP_DEG; step >= REFINE_LAST_STEP_DEG; step /= 2) {
    for (let improved = true; improved; ) {
      improved = false;
      for (const [dt, da] of [[step, 0], [-step, 0], [0, step], [0, -step]]) {
        const tiltDeg = current.tiltDeg + dt;
        if (tiltDeg < 0 || tiltDeg > 90) continue;
        const candidate = evaluate({ tiltDeg, azimuthDeg: wrapAzimuth(current.azimuthDeg + da) });
        if (candidate.objective < current.objective - 1e-9) {
          current = candidate;
          improved = true;
        }
      }
    }
  }
  return current;
}

/**
 * Infers a fixed PV system's tilt, azimuth, DC capacity and AC rating from measured AC power and its place.
 * Designed for 30 days of 15-minute or hourly data; needs a few clear days (or clear half-days) among them.
 * @throws NotEnoughClearSky when no clear-sky period can be found.
 */
export function inferPvSystem(measured: MeasuredPower, place: PvPlace): InferredSpecs {
  const { stepMinutes } = measured;
  if (measured.t.length !== measured.kw.length) throw new RangeError(`t (${measured.t.length}) and kw (${measured.kw.length}) differ in length`);
  if (!(stepMinutes > 0 && stepMinutes <= 60)) throw new RangeError(`stepMinutes must be in (0, 60], got ${stepMinutes}`);

  // Finite readings in time order; a small negative reading is the inverter's night draw.
  const order = measured.t.map((_, i) => i).filter((i) => Number.isFinite(measured.t[i]) && Number.isFinite(measured.kw[i]));
  order.sort((a, b) => measured.t[a] - measured.t[b]);
  const allT = order.map((i) => measured.t[i]);
  const allKw = order.map((i) => Math.max(0, measured.kw[i]));
  if (allT.length === 0) throw new NotEnoughClearSky('no finite power readings');

  // The clear-sky weather does not depend on orientation: it is computed once and only the chain is rerun.
  const allWeather = clearSkyWeather(unitSystem(place, { tiltDeg: 0, azimuthDeg: 180 }), allT, stepMinutes);
  const zenith = simulatePv(unitSystem(place, { tiltDeg: 0, azimuthDeg: 180 }), allWeather, stepMinutes).map((s) => s.zenithDeg);
  const idx = allT.map((_, i) => i).filter((i) => zenith[i] < MAX_FIT_ZENITH_DEG);
  if (idx.length === 0) throw new NotEnoughClearSky('no daylight readings');
  const t = idx.map((i) => allT[i]);
  const kw = idx.map((i) => allKw[i]);
  const weather = idx.map((i) => allWeather[i]);
  const dayOf = t.map((x) => solarDay(x, place.longitude));

  const dayKeys = [...new Set(dayOf)];
  const dayIndex = new Map(dayKeys.map((d, j) => [d, j]));
  const days: DaySteps[] = dayKeys.map(() => []);
  dayOf.forEach((d, i) => days[dayIndex.get(d)!].push(i));
  const expectedSteps = expectedDaylightSteps(dayKeys, place, stepMinutes);

  // Round 0 starts from whole sunny days, judged by their profile; failing any, from the top quarter by energy.
  const sunny = sunnyFixedDays({ t, kw, stepMinutes, days, expectedSteps });
  const seedDays = sunny.length > 0 ? sunny : topDaysByEnergy(days, kw, 0.25);
  if (seedDays.length === 0) throw new NotEnoughClearSky('no daylight power to fit');
  let use = new Array<boolean>(t.length).fill(false);
  for (const d of seedDays) for (const i of days[d]) use[i] = kw[i] > 0;

  const shapes = new ClearSkyShapes(place, weather, stepMinutes);
  let fit: OrientationFit | undefined;
  let ceilingKw: number | undefined;
  for (let round = 0; round <= CLEAR_ROUNDS; round++) {
    const picked = t.map((_, i) => i).filter((i) => use[i]);
    if (picked.length < clearWindowSteps(stepMinutes)) break;
    const problem: FitProblem = {
      latitude: place.latitude,
      shapes,
      steps: picked,
      kw: picked.map((i) => kw[i]),
      evidenceDays: new Set(picked.map((i) => dayOf[i])).size,
    };
    // The clipping question is settled on the first round and on the last; rounds between keep the answer.
    if (round === 0 || round === CLEAR_ROUNDS) {
      const unclipped = fitOrientation(problem, fit);
      const level = ceilingCandidate(problem.kw, picked.map((i) => dayOf[i]));
      const clipped = level === undefined ? undefined : fitOrientation({ ...problem, ceilingKw: level }, fit);
      const clips = clipped !== undefined && clipped.sse < (1 - CLIPPING_MIN_GAIN) * unclipped.sse;
      fit = clips ? clipped : unclipped;
      ceilingKw = clips ? level : undefined;
    } else {
      fit = fitOrientation({ ...problem, ceilingKw }, fit);
    }
    if (round === CLEAR_ROUNDS) break;

    // The fitted clear-sky power at every daylight step; the clear periods are those that follow it.
    const capacity = fit.capacityKwp;
    const scaled = Array.from(shapes.of(fit), (p) => Math.min(p * capacity, ceilingKw ?? Infinity));
    const next = clearAcrossDays(t, kw, scaled, stepMinutes, quantile(scaled, 0.99), days);
    if (next.filter(Boolean).length < clearWindowSteps(stepMinutes)) break;
    use = next;
  }
  if (!fit || !(fit.capacityKwp > 0)) throw new NotEnoughClearSky('no clear-sky period found in the measured power');

  const maxSeen = allKw.reduce((m, v) => Math.max(m, v), 0);
  const system: PvSystem = {
    ...place,
    capacityKwp: fit.capacityKwp,
    tiltDeg: fit.tiltDeg,
    azimuthDeg: fit.azimuthDeg,
    lossesPct: INFERRED_LOSSES_PCT,
    inverterAcKw: ceilingKw ?? Math.max(fit.capacityKwp / ASSUMED_DC_AC_RATIO, maxSeen),
  };

  // How well the final system fits the clear periods it was fitted on.
  const used = t.map((_, i) => i).filter((i) => use[i]);
  const modelled = simulatePv(system, used.map((i) => weather[i]), stepMinutes).map((s) => s.acKw);
  const actual = used.map((i) => kw[i]);
  const mean = actual.reduce((s, v) => s + v, 0) / Math.max(1, actual.length);
  const ssRes = actual.reduce((s, v, j) => s + (v - modelled[j]) ** 2, 0);
  const ssTot = actual.reduce((s, v) => s + (v - mean) ** 2, 0);
  const clearDays = days.filter((steps, d) => steps.filter((i) => use[i]).length >= CLEAR_DAY_SHARE * expectedSteps[d]).length;

  return {
    system,
    fit: {
      r2: ssTot > 0 ? 1 - ssRes / ssTot : NaN,
      rmseKw: Math.sqrt(ssRes / Math.max(1, actual.length)),
      clearDays,
      daysUsed: new Set(used.map((i) => dayOf[i])).size,
    },
    method:
      'Clear-sky periods found in the power (sunny-day profiles as pvanalytics fixed_nrel, then windows that follow the fitted clear-sky ' +
      'power, Reno & Hansen 2016); tilt, azimuth and DC capacity by least squares of the PV model chain under an Ineichen-Perez clear sky ' +
      `(grid, then pattern search), weighed against a weak prior (tilt ${usualTiltDeg(place.latitude).toFixed(1)} ± ${TILT_PRIOR_SD_DEG}°, ` +
      `azimuth ${equatorAzimuthDeg(place.latitude)} ± ${AZIMUTH_PRIOR_SD_DEG}°); losses fixed at ${INFERRED_LOSSES_PCT}% (the capacity absorbs the rest); ` +
      (ceilingKw !== undefined
        ? 'AC rating from the clipping plateau.'
        : `no clipping seen, so the AC rating assumes a DC/AC ratio of ${ASSUMED_DC_AC_RATIO}, at least the highest power measured.`),
  };
}

/** Clear steps: Reno & Hansen windows, run within each day so that a night never joins two days' windows. */
function clearAcrossDays(t: readonly number[], kw: readonly number[], clearKw: readonly number[], stepMinutes: number, peakKw: number, days: readonly DaySteps[]): boolean[] {
  const out = new Array<boolean>(t.length).fill(false);
  for (const steps of days) {
    const flags = clearPeriods(steps.map((i) => t[i]), steps.map((i) => kw[i]), steps.map((i) => clearKw[i]), stepMinutes, peakKw);
    steps.forEach((i, j) => (out[i] = flags[j]));
  }
  return out;
}

/**
 * Where an inverter ceiling would be: a high quantile (CEILING_QUANTILE) of the daily peaks of the clear periods. A
 * clipping system peaks there on every sunny day and never above; the quantile, not the maximum, so that one
 * faulty reading does not set it.
 */
function ceilingCandidate(kw: readonly number[], dayOf: readonly number[]): number | undefined {
  const peaks = new Map<number, number>();
  kw.forEach((v, i) => peaks.set(dayOf[i], Math.max(peaks.get(dayOf[i]) ?? 0, v)));
  const level = quantile([...peaks.values()], CEILING_QUANTILE);
  return level > 0 ? level : undefined;
}

/** The days (indices) whose daylight energy is in the top `share`. */
function topDaysByEnergy(days: readonly DaySteps[], kw: readonly number[], share: number): number[] {
  const energy = days.map((steps) => steps.reduce((s, i) => s + kw[i], 0));
  const ranked = days.map((_, d) => d).filter((d) => energy[d] > 0).sort((a, b) => energy[b] - energy[a]);
  return ranked.slice(0, Math.ceil(share * ranked.length));
}

/**
 * Steps per solar day with the sun above MAX_FIT_ZENITH_DEG, had none been missing: the arc 2·acos((cos z - sin φ
 * sin δ) / (cos φ cos δ)), with Spencer's (1971) declination.
 */
function expectedDaylightSteps(dayKeys: readonly number[], place: PvPlace, stepMinutes: number): number[] {
  const phi = place.latitude * DEG;
  return dayKeys.map((d) => {
    const delta = solarDeclinationDeg(new Date(d * DAY_MS)) * DEG;
    const cosH = (Math.cos(MAX_FIT_ZENITH_DEG * DEG) - Math.sin(phi) * Math.sin(delta)) / (Math.cos(phi) * Math.cos(delta));
    const arcHours = cosH >= 1 ? 0 : cosH <= -1 ? 24 : (2 * Math.acos(cosH)) / (15 * DEG);
    return Math.max(1, Math.round((arcHours * 60) / stepMinutes));
  });
}
