/** Synthetic wind series for the wind member tests: a latent AR(1) wind speed and its turbine's output. */
import type { RegularSeries } from '../../shared/domain/forecasting/types';
import { gaussian } from '../helpers/seeded-random';

export const RATED_KW = 2000;
export const STEP_MINUTES = 10;
/** Cubic from cut-in 3 m/s to rated 12 m/s, flat at rated above. */
export const turbineCurve = (v: number) => (v < 3 ? 0 : v >= 12 ? RATED_KW : RATED_KW * ((v - 3) / 9) ** 3);

/** An AR(1) series x[i] = mean + phi (x[i-1] - mean) + sigma e[i], seeded. */
export function ar1(length: number, phi: number, mean: number, sigma: number, seed: number): number[] {
  const e = gaussian(seed);
  const x = [mean];
  for (let i = 1; i < length; i++) x.push(mean + phi * (x[i - 1] - mean) + sigma * e());
  return x;
}

/** Hourly speeds with momentum, an AR(2) about 8 m/s (x[i] - 8 = 1.6 (x[i-1] - 8) - 0.7 (x[i-2] - 8) + e): a rise goes on rising for hours. */
function ar2Hourly(length: number, seed: number): number[] {
  const e = gaussian(seed);
  const x = [8, 8];
  for (let i = 2; i < length; i++) x.push(8 + 1.6 * (x[i - 1] - 8) - 0.7 * (x[i - 2] - 8) + 0.5 * e());
  return x;
}

/**
 * `days` of output of a turbine under an AR(1) speed (mean 8 m/s, sd 2.5 m/s, lag-1 hour correlation 0.89:
 * half-decorrelated in about 6 hours; with `momentum`, hourly ar2Hourly), 1% noise; the speeds alongside. Steps of
 * 10 minutes unless given.
 */
export function turbine(days: number, seed = 7, stepMinutes = STEP_MINUTES, momentum = false): { history: RegularSeries; speed: number[] } {
  const n = (days * 1440) / stepMinutes;
  const phi = 0.89 ** (stepMinutes / 60);
  const speed = (momentum ? ar2Hourly(n, seed) : ar1(n, phi, 8, 2.5 * Math.sqrt(1 - phi ** 2), seed)).map((v) => Math.max(0, v));
  const noise = gaussian(seed + 1);
  const y = speed.map((v) => Math.min(RATED_KW, Math.max(0, turbineCurve(v) + 0.01 * RATED_KW * noise())));
  const t = y.map((_, i) => Date.UTC(2024, 0, 1) + i * stepMinutes * 60_000);
  return { history: { t, y, stepMinutes }, speed };
}

export const rmse = (errors: number[]) => Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / errors.length);
