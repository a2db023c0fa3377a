/**
 * Expected AC output of a PV asset, per step (Observe stage of asset operations, ARCHITECTURE 7).
 *
 * Method. The array is modelled with the PV system model (`shared/domain/pv`), the same one the PV forecast runs:
 * the sun at each step from its solar geometry (astronomy-engine's ephemeris, interpolated daily: fast enough for a
 * year of steps), the Ineichen & Perez (2002) clear-sky GHI, DNI and DHI, and its transposition to a plane (beam by
 * the angle of incidence, Perez et al. 1990 sky diffuse, ground-reflected at albedo 0.2) on a mix of planes fitted
 * to the production of the clearest day of each week (`fitPlaneMix`). The array's size is one factor, kW per W/m2
 * of plane-of-array irradiance, fitted on the clear periods of the whole series (`fitSystemScale`: a high quantile
 * of production over clear sky, refined by least squares). Where the series carries irradiance, the same scale multiplies the
 * measured irradiance instead, read as plane-of-array or as horizontal (then transposed with the clear-sky ratio
 * of the fitted plane to the horizontal), whichever tracks the production better. Without coordinates the site
 * is estimated from the production (`solarSite`, `estimateSiteGeometry`). Expected output never exceeds the capacity; the
 * uncapped `potentialKw` is kept as the reference for clipping.
 *
 * Limits. Clear-sky expected output is what a cloudless sky would give: on a cloudy step the measured output is
 * below it for reasons that are not faults, so detectors compare against it on clear periods or across days.
 * Turbidity is a climatological constant (Linke 3) and the site altitude is not known, so the clear-day level
 * drifts by about 5% from month to month (SERF East, July against September) and hazy days sit a few per cent
 * below. The scale and the plane mix are fitted on the series itself: a fault present over most of it becomes the
 * reference, and a loss that grows over most of a short series is partly taken up by the plane mix (SERF East,
 * 15% soiling: over the last 30 of 104 days it moves the modelled seasonal gain by under 1%, over the last 30 of
 * 50 days by 5%). Horizon shading, bifacial gain, temperature derating and snow are not modelled.
 */
import { stepsPerDay } from '../forecasting/types';
import { DAY_MS, HOUR_MS } from '../time';
import { bestAlignment, fitSystemScale, NIGHT_MARGIN_DEG, SOLAR_FIT_DAYS, solarSite, type Alignment, type SolarSite } from '../forecasting/solar';
import { sunPath } from '../pv/solar-geometry';
import { DEFAULT_ALBEDO, planeOfArray as pvPlaneOfArray } from '../pv/transposition';
import { dayOfYear, extraterrestrialIrradiance, ineichenPerez } from '../weather/clear-sky';
import { pearson } from '../weather/forecast-enhancement';

/** Measured output of one asset on a time grid. */
export interface OutputSeries {
  /** Epoch ms (UTC) of each step. */
  t: number[];
  /** Measured AC output, kW; NaN where missing. */
  powerKw: number[];
  stepMinutes: number;
  /** Irradiance at each step, W/m2 (plane of array or horizontal; which is found from the data). */
  irradianceWm2?: number[];
  /** Air or module temperature at each step, degrees C. */
  temperatureC?: number[];
}

/** What is known of the asset. */
export interface AssetSpec {
  /** AC rating, kW (the inverter limit). */
  capacityKw: number;
  latitude?: number;
  longitude?: number;
  /** IANA time zone, for times quoted in reports. */
  timezone?: string;
}

/** Ground reflectance for the transposition: the PV model's default (grass; Duffie & Beckman 2013). */
export const ALBEDO = DEFAULT_ALBEDO;
/** Tilts of the candidate planes, degrees from horizontal (with the horizontal plane itself). */
const PLANE_TILTS_DEG = [30, 60, 90];
/** Azimuths of the candidate planes, degrees clockwise from north: east, south-east, south, south-west, west. */
const PLANE_AZIMUTHS_DEG = [90, 135, 180, 225, 270];
/** Coordinate-descent sweeps of the non-negative least squares (16 unknowns converge in a few dozen). */
const NNLS_SWEEPS = 500;
/** Rounds of the alternating fit of the plane mix and the day scales. */
const FIT_ROUNDS = 12;
/** Steps further than this share of the day's peak below the fit are left out of the next round. */
const TRIM_SHARE = 0.1;
/** The plane mix is fitted on the clearest day of each block of this many days. */
const ORIENTATION_BLOCK_DAYS = 7;
/**
 * A day counts as clear when its production rises once and falls once: total variation over daylight at most
 * this multiple of twice the day's peak (exactly 1 for any single-peaked day, whatever the array's orientation;
 * each passing cloud adds to it). Independent of the step and of the size.
 */
const CLEAR_DAY_MAX_VARIATION = 1.15;
/** Consecutive steps within FLAT_RUN_TOLERANCE (share of the day's peak) of each other that make a flat run. */
const FLAT_RUN_MIN_STEPS = 3;
const FLAT_RUN_TOLERANCE = 0.002;
/** Daylight steps a day needs to inform the orientation. */
const MIN_DAYLIGHT_STEPS_PER_DAY = 8;
/** Rows missing for at least this long between near-zero values are a night the logger did not write. */
const NIGHT_GAP_MIN_HOURS = 3;
/** "Near zero" around such a gap: this share of the series' highest output. */
const NIGHT_GAP_EDGE_SHARE = 0.05;
/** Most kW per (kW/m2) of plane-of-array irradiance, as a multiple of the AC rating (DC/AC ratios above 1.5 are rare). */
const MAX_DC_AC_RATIO = 1.5;
/** Performance ratio assumed when the output never rose and the scale cannot be fitted (a dead asset at a known site). */
const DEFAULT_PERFORMANCE_RATIO = 0.8;
/** Clear-sky GHI below which the plane-of-array to horizontal ratio is not used (low sun: the ratio explodes). */
const MIN_GHI_FOR_TRANSPOSITION_WM2 = 50;
/** Bound on that ratio. */
const MAX_TRANSPOSITION_RATIO = 3;
/**
 * Measured irradiance is used only when it tracks the output at least this well (Pearson, daylight steps): an
 * on-site pyranometer does (above 0.98), satellite irradiance for SERF East does not (0.88: cloud timing differs).
 */
const IRRADIANCE_MIN_CORRELATION = 0.95;
/** fitSystemScale builds an argument list from its input: keep it well inside the engine's limit. */
const MAX_SCALE_FIT_POINTS = 60_000;

export type ExpectedMethod = 'irradiance_plane_of_array' | 'irradiance_horizontal' | 'clear_sky' | 'none';

export interface ExpectedOutput {
  /** Expected AC output per step, kW, at most the capacity; 0 at night; NaN where no model could be built. */
  expectedKw: number[];
  /** The same before the capacity cap: what the array could deliver (the clipping reference). */
  potentialKw: number[];
  /** Clear-sky expected output (equal to `potentialKw` unless irradiance was given). */
  clearSkyKw: number[];
  /** Whether the sun is above the horizon at the step (by NIGHT_MARGIN_DEG). */
  daylight: boolean[];
  /** Solar day of each step (days since the epoch in local mean solar time; UTC days without a site). */
  solarDay: number[];
  method: ExpectedMethod;
  site: SolarSite | null;
  alignment: Alignment;
  /** The planes the array is modelled as, with their shares (empty without a model). */
  planes: PlaneShare[];
  /** kW per W/m2 of plane-of-array irradiance. */
  scaleKwPerWm2: number;
  capacityKw: number;
  /** Why the method is what it is (and why there is no model when `method` is 'none'). */
  note: string;
}

/** Sun and clear sky at each step, for a site and a timestamp offset (the alignment). */
interface SkyGeometry {
  /** Apparent solar zenith and azimuth, degrees. */
  zenithDeg: Float64Array;
  azimuthDeg: Float64Array;
  /** Extraterrestrial normal irradiance on the step's day, W/m2. */
  dniExtra: Float64Array;
  ghi: Float64Array;
  dni: Float64Array;
  dhi: Float64Array;
}

/** Interval-mean values are best matched by the sun at the interval's middle. */
function alignmentOffsetMs(alignment: Alignment, stepMinutes: number): number {
  const half = (stepMinutes * 60_000) / 2;
  return alignment === 'ending' ? -half : alignment === 'starting' ? half : 0;
}

/**
 * The sun (the PV model's solar geometry) and Ineichen-Perez clear sky at each step; clear sky is 0 while the
 * sun's true elevation is under NIGHT_MARGIN_DEG, the daylight rule of the solar forecaster the site comes from.
 */
function skyGeometry(times: readonly number[], site: SolarSite, offsetMs: number): SkyGeometry {
  const n = times.length;
  const path = sunPath(times.map((t) => t + offsetMs), site.latitude, site.longitude);
  const [dniExtra, ghi, dni, dhi] = [new Float64Array(n), new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const sky: SkyGeometry = { zenithDeg: path.zenithDeg, azimuthDeg: path.azimuthDeg, dniExtra, ghi, dni, dhi };
  for (let i = 0; i < n; i++) {
    sky.dniExtra[i] = extraterrestrialIrradiance(dayOfYear(new Date(times[i] + offsetMs)));
    if (90 - path.trueZenithDeg[i] < NIGHT_MARGIN_DEG) continue;
    const clear = ineichenPerez(path.zenithDeg[i], { dniExtra: sky.dniExtra[i] });
    sky.ghi[i] = clear.ghi;
    sky.dni[i] = clear.dni;
    sky.dhi[i] = clear.dhi;
  }
  return sky;
}

/** Clear-sky plane-of-array irradiance on one plane, W/m2, by the PV model's transposition (Perez et al. 1990). */
function planeOfArray(sky: SkyGeometry, tiltDeg: number, azimuthDeg: number, indices?: readonly number[]): Float64Array {
  const out = new Float64Array(indices ? indices.length : sky.ghi.length);
  const count = out.length;
  for (let k = 0; k < count; k++) {
    const i = indices ? indices[k] : k;
    if (sky.ghi[i] === 0) continue;
    const sun = { ghi: sky.ghi[i], dni: sky.dni[i], dhi: sky.dhi[i], zenithDeg: sky.zenithDeg[i], solarAzimuthDeg: sky.azimuthDeg[i], dniExtra: sky.dniExtra[i] };
    out[k] = pvPlaneOfArray(tiltDeg, azimuthDeg, sun, 'perez', ALBEDO).total;
  }
  return out;
}

/** Steps grouped by solar day: the step indices of each day, in order. */
function groupByDay(solarDay: readonly number[]): number[][] {
  const days: number[][] = [];
  let current: number[] = [];
  for (let i = 0; i < solarDay.length; i++) {
    if (i > 0 && solarDay[i] !== solarDay[i - 1]) {
      days.push(current);
      current = [];
    }
    current.push(i);
  }
  if (current.length) days.push(current);
  return days;
}

/** One plane of the array model and its share of the array. */
export interface PlaneShare {
  tiltDeg: number;
  azimuthDeg: number;
  share: number;
}

/** The clearest day of each block of ORIENTATION_BLOCK_DAYS days: its daylight steps (all measured). */
function clearDays(power: readonly number[], sky: SkyGeometry, days: readonly number[][]): number[][] {
  const chosen: number[][] = [];
  for (let b = 0; b * ORIENTATION_BLOCK_DAYS < days.length; b++) {
    let best: number[] | null = null;
    let bestVariation = CLEAR_DAY_MAX_VARIATION;
    for (const day of days.slice(b * ORIENTATION_BLOCK_DAYS, (b + 1) * ORIENTATION_BLOCK_DAYS)) {
      const lit = day.filter((i) => sky.ghi[i] > 0 && Number.isFinite(power[i]));
      if (lit.length < MIN_DAYLIGHT_STEPS_PER_DAY) continue;
      // Every daylight step of the day must be known: a gap could hide the clouds.
      if (lit.length < day.filter((i) => sky.ghi[i] > 0).length) continue;
      let peak = 0;
      let variation = Math.max(0, power[lit[0]]) + Math.max(0, power[lit[lit.length - 1]]);
      for (let k = 0; k < lit.length; k++) {
        peak = Math.max(peak, power[lit[k]]);
        if (k > 0) variation += Math.abs(power[lit[k]] - power[lit[k - 1]]);
      }
      if (!(peak > 0)) continue;
      const relative = variation / (2 * peak);
      if (relative < bestVariation) [best, bestVariation] = [lit, relative];
    }
    if (best) chosen.push(withoutFlatRuns(power, best));
  }
  return chosen.filter((day) => day.length >= MIN_DAYLIGHT_STEPS_PER_DAY);
}

/**
 * A day's steps without its flat runs (FLAT_RUN_MIN_STEPS or more within FLAT_RUN_TOLERANCE of the day's peak
 * of each other): a clipped top or a stuck register says nothing of the sky, and would bend the plane mix.
 */
function withoutFlatRuns(power: readonly number[], day: number[]): number[] {
  const peak = Math.max(...day.map((i) => power[i]));
  const tolerance = FLAT_RUN_TOLERANCE * peak;
  const keep = new Array<boolean>(day.length).fill(true);
  let start = 0;
  for (let k = 1; k <= day.length; k++) {
    if (k < day.length && Math.abs(power[day[k]] - power[day[k - 1]]) <= tolerance) continue;
    if (k - start >= FLAT_RUN_MIN_STEPS) keep.fill(false, start, k);
    start = k;
  }
  return day.filter((_, k) => keep[k]);
}

/**
 * The array as a non-negative mix of planes (horizontal, and PLANE_TILTS_DEG x PLANE_AZIMUTHS_DEG) whose
 * clear-sky irradiance has the shape of the production on the clear days: each day has its own scale (so that a
 * loss growing over the days, soiling, is not taken for geometry), the weights are shared. Alternating least
 * squares: non-negative weights by coordinate descent on the normal equations (the problem Lawson & Hanson
 * 1974 solve), then the day scales, FIT_ROUNDS times; from the second round, steps more than TRIM_SHARE of the
 * day's peak below the fit are left out (a shadow or a cloud on an otherwise clear day). A mix, because one
 * plane cannot follow a tracker, an array on two roofs, nor SERF East's broad daily profile. Horizontal when no
 * day is clear.
 */
function fitPlaneMix(power: readonly number[], sky: SkyGeometry, days: readonly number[][]): { planes: PlaneShare[]; clearDays: number } {
  const chosen = clearDays(power, sky, days);
  const horizontal = { planes: [{ tiltDeg: 0, azimuthDeg: 180, share: 1 }], clearDays: chosen.length };
  if (chosen.length === 0) return horizontal;
  const indices = chosen.flat();
  const dayOf = chosen.flatMap((day, d) => day.map(() => d));
  const y = indices.map((i) => power[i]);
  const peaks = chosen.map((day) => Math.max(...day.map((i) => power[i])));
  const candidates: [number, number][] = [[0, 180]];
  for (const tilt of PLANE_TILTS_DEG) for (const azimuth of PLANE_AZIMUTHS_DEG) candidates.push([tilt, azimuth]);
  const m = candidates.length;
  const n = y.length;
  // Row-major: the m plane irradiances of step k at k * m.
  const x = new Float64Array(n * m);
  candidates.forEach(([tilt, azimuth], a) => planeOfArray(sky, tilt, azimuth, indices).forEach((v, k) => (x[k * m + a] = v)));
  const keep = new Uint8Array(n).fill(1);
  const dayScale = new Float64Array(chosen.length).fill(1);
  const w = new Float64Array(m);
  const fit = new Float64Array(n);
  const gram = new Float64Array(m * m);
  const target = new Float64Array(m);
  for (let round = 0; round < FIT_ROUNDS; round++) {
    // Weights, given the day scales.
    gram.fill(0);
    target.fill(0);
    for (let k = 0; k < n; k++) {
      if (!keep[k]) continue;
      const yk = y[k] / dayScale[dayOf[k]];
      const row = k * m;
      for (let a = 0; a < m; a++) {
        const xa = x[row + a];
        if (xa === 0) continue;
        target[a] += xa * yk;
        for (let b = a; b < m; b++) gram[a * m + b] += xa * x[row + b];
      }
    }
    for (let a = 0; a < m; a++) for (let b = 0; b < a; b++) gram[a * m + b] = gram[b * m + a];
    for (let sweep = 0; sweep < NNLS_SWEEPS; sweep++) {
      let change = 0;
      let largest = 1e-12;
      for (let a = 0; a < m; a++) {
        const diagonal = gram[a * m + a];
        if (!(diagonal > 0)) continue;
        let residual = target[a];
        for (let b = 0; b < m; b++) if (b !== a) residual -= gram[a * m + b] * w[b];
        const next = Math.max(0, residual / diagonal);
        change = Math.max(change, Math.abs(next - w[a]));
        largest = Math.max(largest, next);
        w[a] = next;
      }
      if (change <= 1e-9 * largest) break;
    }
    // Day scales, given the weights (mean 1: the weights carry the size).
    for (let k = 0; k < n; k++) {
      let sum = 0;
      for (let a = 0; a < m; a++) sum += w[a] * x[k * m + a];
      fit[k] = sum;
    }
    const sxy = new Float64Array(chosen.length);
    const sxx = new Float64Array(chosen.length);
    for (let k = 0; k < n; k++) {
      if (!keep[k]) continue;
      sxy[dayOf[k]] += fit[k] * y[k];
      sxx[dayOf[k]] += fit[k] * fit[k];
    }
    let mean = 0;
    for (let d = 0; d < chosen.length; d++) mean += (dayScale[d] = sxx[d] > 0 ? sxy[d] / sxx[d] : 1) / chosen.length;
    for (let d = 0; d < chosen.length; d++) dayScale[d] /= mean > 0 ? mean : 1;
    for (let k = 0; k < n; k++) keep[k] = y[k] >= dayScale[dayOf[k]] * mean * fit[k] - TRIM_SHARE * peaks[dayOf[k]] ? 1 : 0;
  }
  let total = 0;
  for (let a = 0; a < m; a++) total += w[a];
  if (!(total > 0)) return horizontal;
  const planes = candidates.map(([tiltDeg, azimuthDeg], k) => ({ tiltDeg, azimuthDeg, share: w[k] / total })).filter((p) => p.share > 0);
  return { planes, clearDays: chosen.length };
}

/** Clear-sky irradiance on the mix of planes, W/m2. */
function mixedPlaneOfArray(sky: SkyGeometry, planes: readonly PlaneShare[]): Float64Array {
  const mixed = new Float64Array(sky.ghi.length);
  for (const plane of planes) {
    const poa = planeOfArray(sky, plane.tiltDeg, plane.azimuthDeg);
    for (let i = 0; i < mixed.length; i++) mixed[i] += plane.share * poa[i];
  }
  return mixed;
}

/** Evenly spaced subset of indices, at most `limit` of them. */
function thin(indices: number[], limit: number): number[] {
  if (indices.length <= limit) return indices;
  const stride = indices.length / limit;
  return Array.from({ length: limit }, (_, k) => indices[Math.floor(k * stride)]);
}

/**
 * The output with nights the logger left out (long gaps between near-zero values) filled with 0, so that the
 * site can be estimated from days whose sunrise and sunset are otherwise unknown.
 */
function withSilentNightsAsZero(power: readonly number[], stepMinutes: number): number[] {
  const filled = [...power];
  const peak = Math.max(0, ...thin(power.map((_, i) => i), MAX_SCALE_FIT_POINTS).map((i) => (Number.isFinite(power[i]) ? power[i] : 0)));
  const edge = NIGHT_GAP_EDGE_SHARE * peak;
  const need = Math.ceil((NIGHT_GAP_MIN_HOURS * 60) / stepMinutes);
  let i = 0;
  while (i < power.length) {
    if (Number.isFinite(power[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j < power.length && !Number.isFinite(power[j])) j++;
    if (j - i >= need && i > 0 && j < power.length && power[i - 1] <= edge && power[j] <= edge) filled.fill(0, i, j);
    i = j;
  }
  return filled;
}

/** A positive capacity: the declared one, else a high quantile of the measured output. */
function usableCapacity(asset: AssetSpec, power: readonly number[]): { capacityKw: number; declared: boolean } {
  if (Number.isFinite(asset.capacityKw) && asset.capacityKw > 0) return { capacityKw: asset.capacityKw, declared: true };
  const sorted = power.filter((p) => Number.isFinite(p) && p > 0).sort((a, b) => a - b);
  return { capacityKw: sorted.length ? sorted[Math.floor(0.999 * (sorted.length - 1))] : 0, declared: false };
}

const noModel = (series: OutputSeries, capacityKw: number, note: string): ExpectedOutput => {
  const n = series.t.length;
  return {
    expectedKw: new Array<number>(n).fill(NaN),
    potentialKw: new Array<number>(n).fill(NaN),
    clearSkyKw: new Array<number>(n).fill(NaN),
    daylight: new Array<boolean>(n).fill(false),
    solarDay: series.t.map((t) => Math.floor(t / DAY_MS)),
    method: 'none',
    site: null,
    alignment: 'instant',
    planes: [],
    scaleKwPerWm2: 0,
    capacityKw,
    note,
  };
};

/**
 * Expected AC output of a PV asset at each step of a regular series (t[i] = t[0] + i * stepMinutes).
 * See the module comment for the method and its limits.
 */
export function expectedOutput(series: OutputSeries, asset: AssetSpec): ExpectedOutput {
  const power = series.powerKw;
  const n = series.t.length;
  const { capacityKw, declared } = usableCapacity(asset, power);
  const notes: string[] = declared ? [] : [`capacity not given: ${capacityKw.toFixed(3)} kW assumed (99.9th percentile of the output)`];
  if (!(capacityKw > 0)) return noModel(series, 0, 'no capacity given and the output never rose above 0');

  const known = Number.isFinite(asset.latitude) && Number.isFinite(asset.longitude);
  const history = { t: series.t, y: known ? power : withSilentNightsAsZero(power, series.stepMinutes), stepMinutes: series.stepMinutes };
  const site = solarSite(history, { kind: 'solar', latitude: asset.latitude, longitude: asset.longitude });
  if (!site) return noModel(series, capacityKw, 'no coordinates given and no whole day of production to estimate the site from');
  if (site.estimated) notes.push(`site estimated from the production at ${site.latitude.toFixed(1)}, ${site.longitude.toFixed(2)}`);

  // The timestamp convention is matched with the forecaster's analytic sun (site.estimated = true: Spencer 1971,
  // about 0.1 degree, ample to tell a 7.5-minute shift and fast); the model itself uses the PV model's sun.
  const analytic: SolarSite = { ...site, estimated: true };
  let alignment: Alignment = 'instant';
  if (!site.estimated) {
    // An estimated site already absorbed the timestamp convention; a known one is matched on its last fortnight.
    const from = Math.max(0, n - SOLAR_FIT_DAYS * stepsPerDay(series.stepMinutes));
    if (power.slice(from).some((p) => p > 0)) alignment = bestAlignment(series.t.slice(from), power.slice(from), series.stepMinutes, analytic);
  }
  const sky = skyGeometry(series.t, site, alignmentOffsetMs(alignment, series.stepMinutes));
  const solarOffsetMs = (site.longitude / 15) * HOUR_MS;
  const solarDay = series.t.map((t) => Math.floor((t + solarOffsetMs) / DAY_MS));
  const daylight = Array.from(sky.ghi, (g) => g > 0);

  const mix = fitPlaneMix(power, sky, groupByDay(solarDay));
  const poa = mixedPlaneOfArray(sky, mix.planes);
  const described = [...mix.planes].sort((a, b) => b.share - a.share).map((p) => `${Math.round(100 * p.share)}% tilted ${p.tiltDeg} facing ${p.azimuthDeg}`);
  notes.push(mix.clearDays > 0 ? `array modelled as ${described.join(', ')} (degrees), fitted on ${mix.clearDays} clear days` : 'no clear day to fit the orientation: horizontal plane assumed');

  // The reference the scale multiplies: measured irradiance when given (plane of array or transposed), else clear sky.
  let method: ExpectedMethod = 'clear_sky';
  let reference: ArrayLike<number> = poa;
  const irradiance = series.irradianceWm2?.length === n ? series.irradianceWm2 : undefined;
  if (irradiance) {
    const transposed = irradiance.map((g, i) => {
      if (!Number.isFinite(g) || sky.ghi[i] === 0) return sky.ghi[i] === 0 ? 0 : NaN;
      const ratio = sky.ghi[i] >= MIN_GHI_FOR_TRANSPOSITION_WM2 ? Math.min(MAX_TRANSPOSITION_RATIO, poa[i] / sky.ghi[i]) : 1;
      return Math.max(0, g) * ratio;
    });
    const asPlane = irradiance.map((g, i) => (sky.ghi[i] === 0 ? 0 : Number.isFinite(g) ? Math.max(0, g) : NaN));
    const tracking = (ref: number[]) => {
      const idx = ref.map((_, i) => i).filter((i) => daylight[i] && Number.isFinite(ref[i]) && Number.isFinite(power[i]));
      return pearson(idx.map((i) => power[i]), idx.map((i) => ref[i]));
    };
    const [rPlane, rHorizontal] = [tracking(asPlane), tracking(transposed)];
    if (Math.max(rPlane, rHorizontal) < IRRADIANCE_MIN_CORRELATION) {
      notes.push(`irradiance left aside: it correlates at ${Math.max(rPlane, rHorizontal).toFixed(3)} only with the output (a satellite estimate or a distant sensor misses local clouds)`);
    } else {
      method = rPlane >= rHorizontal ? 'irradiance_plane_of_array' : 'irradiance_horizontal';
      reference = method === 'irradiance_plane_of_array' ? asPlane : transposed;
      notes.push(`irradiance read as ${method === 'irradiance_plane_of_array' ? 'plane of array' : 'horizontal'} (correlation ${Math.max(rPlane, rHorizontal).toFixed(3)})`);
    }
  }

  const fitIndices = thin(
    Array.from({ length: n }, (_, i) => i).filter((i) => daylight[i] && Number.isFinite(reference[i])),
    MAX_SCALE_FIT_POINTS,
  );
  const maxScale = (MAX_DC_AC_RATIO * capacityKw) / 1000;
  let scale = fitSystemScale(fitIndices.map((i) => power[i]), fitIndices.map((i) => reference[i]));
  if (!(scale > 0)) {
    scale = (DEFAULT_PERFORMANCE_RATIO * capacityKw) / 1000;
    notes.push(`the output never rose: scale from the capacity at a performance ratio of ${DEFAULT_PERFORMANCE_RATIO}`);
  } else if (scale > maxScale) {
    scale = maxScale;
    notes.push(`scale capped at a DC/AC ratio of ${MAX_DC_AC_RATIO}`);
  }

  const clearSkyKw = Array.from(poa, (p) => p * scale);
  // A step without irradiance falls back on clear sky (the scale is the same: kW per W/m2 in the plane).
  const potentialKw = Array.from({ length: n }, (_, i) => (!daylight[i] ? 0 : Number.isFinite(reference[i]) ? scale * reference[i] : clearSkyKw[i]));
  const expectedKw = potentialKw.map((p) => (Number.isFinite(p) ? Math.min(capacityKw, p) : NaN));
  return {
    expectedKw,
    potentialKw,
    clearSkyKw,
    daylight,
    solarDay,
    method,
    site,
    alignment,
    planes: mix.planes,
    scaleKwPerWm2: scale,
    capacityKw,
    note: notes.join('; '),
  };
}
