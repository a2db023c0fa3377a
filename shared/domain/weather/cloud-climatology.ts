/**
 * Cloudiness for the offline weather model: a zonal cloud-cover climatology by latitude and season, a diurnal cycle
 * over land, and the sky it lets through (Kasten & Czeplak 1980), so that the model's irradiance and cloud cover
 * agree hour by hour. A climatology, approximate by construction: the expected cloud of a latitude circle, season
 * and hour, not any day's clouds.
 */
import { fractionalDayOfYear, localSolarHour } from './climatology';

const YEAR_DAYS = 365.25;

/**
 * Zonal total cloud amount, percent: the annual mean and half the January-minus-July difference, at band centres.
 * Rounded values after the ISCCP zonal means (Rossow & Schiffer 1999), with their seasonal features: the tropical
 * wet seasons following the sun (ITCZ and monsoons: 15 S cloudiest in January, 15 N in July), the winter storm tracks
 * of the mid-latitudes, and the Arctic summer stratus maximum (Curry et al. 1996). Satellite cloud over polar ice is
 * uncertain; those bands carry no seasonal cycle except the Arctic's documented one.
 */
const CLOUD_BANDS: readonly { latitude: number; annualPct: number; janMinusJulHalfPct: number }[] = [
  { latitude: -90, annualPct: 40, janMinusJulHalfPct: 0 },
  { latitude: -75, annualPct: 55, janMinusJulHalfPct: 0 },
  { latitude: -60, annualPct: 85, janMinusJulHalfPct: 0 },
  { latitude: -45, annualPct: 75, janMinusJulHalfPct: 0 },
  { latitude: -30, annualPct: 50, janMinusJulHalfPct: -4 },
  { latitude: -15, annualPct: 50, janMinusJulHalfPct: 12 },
  { latitude: 0, annualPct: 60, janMinusJulHalfPct: 0 },
  { latitude: 15, annualPct: 45, janMinusJulHalfPct: -10 },
  { latitude: 30, annualPct: 40, janMinusJulHalfPct: 4 },
  { latitude: 45, annualPct: 60, janMinusJulHalfPct: 6 },
  { latitude: 60, annualPct: 70, janMinusJulHalfPct: 4 },
  { latitude: 75, annualPct: 70, janMinusJulHalfPct: -8 },
  { latitude: 90, annualPct: 65, janMinusJulHalfPct: -10 },
];

/** Fractional day of the year (from 0) of the January extreme of the seasonal cycle: mid-January. */
const JANUARY_EXTREME_DAY = 15;

/** Local solar hour of the cloud maximum over land: convective cloud peaks in the afternoon (Eastman & Warren 2014). */
export const CLOUDIEST_SOLAR_HOUR = 15;
/** Half the diurnal range of total cloud over land, percentage points: the few points Eastman & Warren (2014) report. */
export const CLOUD_DIURNAL_HALF_RANGE_PCT = 4;

const clampPct = (x: number) => Math.min(100, Math.max(0, x));

/** The zonal daily-mean cloud cover of a date, percent: annual mean plus the seasonal cosine, linear between bands. */
export function seasonalCloudCoverPct(at: Date, latitude: number): number {
  const lat = Math.min(90, Math.max(-90, latitude));
  let i = 0;
  while (i < CLOUD_BANDS.length - 2 && CLOUD_BANDS[i + 1].latitude < lat) i++;
  const [a, b] = [CLOUD_BANDS[i], CLOUD_BANDS[i + 1]];
  const w = (lat - a.latitude) / (b.latitude - a.latitude);
  const annual = a.annualPct + w * (b.annualPct - a.annualPct);
  const half = a.janMinusJulHalfPct + w * (b.janMinusJulHalfPct - a.janMinusJulHalfPct);
  return clampPct(annual + half * Math.cos((2 * Math.PI * (fractionalDayOfYear(at) - JANUARY_EXTREME_DAY)) / YEAR_DAYS));
}

/** Climatological total cloud cover at an instant, percent: the seasonal zonal mean and the diurnal cycle over land. */
export function climatologicalCloudCoverPct(at: Date, latitude: number, longitude: number): number {
  const hour = localSolarHour(at, longitude);
  return clampPct(seasonalCloudCoverPct(at, latitude) + CLOUD_DIURNAL_HALF_RANGE_PCT * Math.cos((2 * Math.PI * (hour - CLOUDIEST_SOLAR_HOUR)) / 24));
}

/** Kasten & Czeplak (1980): global irradiance under N eighths of cloud over the cloudless value, 1 - 0.75 (N/8)^3.4. */
export function kastenCzeplakClearSkyIndex(cloudFraction: number): number {
  return 1 - 0.75 * Math.min(1, Math.max(0, cloudFraction)) ** 3.4;
}

/** The gamma function for positive arguments (Lanczos 1964, g = 7, the coefficients of Numerical Recipes' third edition / Godfrey). */
function gamma(z: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (z < 0.5) return Math.PI / (Math.sin(Math.PI * z) * gamma(1 - z));
  const x = z - 1;
  let sum = c[0];
  for (let i = 1; i < c.length; i++) sum += c[i] / (x + i);
  const t = x + 7.5;
  return Math.sqrt(2 * Math.PI) * t ** (x + 0.5) * Math.exp(-t) * sum;
}

/** E[X^p] for X ~ Beta(m, 1 - m), whose mean is m: Gamma(m + p) / (Gamma(m) Gamma(1 + p)). */
function betaMoment(m: number, p: number): number {
  if (m <= 0) return 0;
  if (m >= 1) return 1;
  return gamma(m + p) / (gamma(m) * gamma(1 + p));
}

export interface SkyUnderCloud {
  /** Expected global irradiance over the cloudless value. */
  clearSkyIndex: number;
  /** Expected diffuse horizontal irradiance over the cloudless global irradiance. */
  diffuseOfClearGlobal: number;
}

/**
 * What the sky lets through at a climatological cloud cover. The cover of an hour is not its mean: observed cloud
 * amounts are U-shaped, mostly near clear or overcast (Falls 1974: a beta distribution), and Kasten & Czeplak's
 * relation is convex, so applying it to the mean cover would make the climatology 15-30% too bright. Both ratios
 * are therefore expectations over X ~ Beta(m, 1 - m), m the cover as a fraction:
 * - global: 1 - 0.75 E[X^3.4] (Kasten & Czeplak 1980);
 * - diffuse fraction: Kasten & Czeplak's quadratic rise with cloud, D/G = f0 + (1 - f0) X^2, from the clear-sky
 *   model's own cloudless fraction f0 (their 0.3 is Hamburg's turbid cloudless sky) to 1 under overcast.
 */
export function skyUnderCloud(cloudCoverPct: number, clearSkyDiffuseFraction: number): SkyUnderCloud {
  const m = Math.min(1, Math.max(0, cloudCoverPct / 100));
  const f0 = Math.min(1, Math.max(0, clearSkyDiffuseFraction));
  const [x2, x34, x54] = [betaMoment(m, 2), betaMoment(m, 3.4), betaMoment(m, 5.4)];
  return {
    clearSkyIndex: 1 - 0.75 * x34,
    // E[(1 - 0.75 X^3.4)(f0 + (1 - f0) X^2)]
    diffuseOfClearGlobal: f0 + (1 - f0) * x2 - 0.75 * f0 * x34 - 0.75 * (1 - f0) * x54,
  };
}

/**
 * The standard deviation of the clear-sky index over the hours of one climatological cloud cover: 0.75 sd(X^3.4), X
 * distributed as in skyUnderCloud. The hour-to-hour variation of real weather that an expected value does not show.
 */
export function clearSkyIndexSpread(cloudCoverPct: number): number {
  const m = Math.min(1, Math.max(0, cloudCoverPct / 100));
  const variance = betaMoment(m, 6.8) - betaMoment(m, 3.4) ** 2;
  return 0.75 * Math.sqrt(Math.max(0, variance));
}
