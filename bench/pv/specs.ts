/**
 * Specs inferred from 30 days of measured power alone (shared/domain/pv/infer-specs.ts, after pvanalytics'
 * orientation fit) on several windows of each set, against the published ones: tilt and azimuth errors, and the
 * capacity error where the capacity is published.
 */
import { DAY_MS } from '../../shared/domain/time';
import { inferPvSystem, type InferredSpecs } from '../../shared/domain/pv/infer-specs';
import { STEP_MINUTES, type PvBenchSet } from './data';

export const INFERENCE_WINDOW_DAYS = 30;
/** Windows per set: the first 30 days, the middle 30 and the last 30. */
export const INFERENCE_WINDOWS = 3;

export interface InferenceWindow {
  from: string;
  to: string;
  inferred?: InferredSpecs;
  error?: string;
  tiltErrorDeg?: number;
  /** Inferred minus known, wrapped into [-180, 180). */
  azimuthErrorDeg?: number;
  /** (inferred - known) / known, percent; undefined where the capacity is not published. */
  capacityErrorPct?: number;
  inverterErrorPct?: number;
  ms: number;
}

const wrap180 = (deg: number) => ((((deg + 180) % 360) + 360) % 360) - 180;

/** Start indices of `count` windows of `days` days spread from the first to the last possible. */
export function windowStarts(length: number, stepsPerWindow: number, count: number): number[] {
  const last = length - stepsPerWindow;
  if (last < 0) return [];
  if (count <= 1) return [0];
  return Array.from({ length: count }, (_, k) => Math.round((k * last) / (count - 1)));
}

/** Inference on each window of a set, compared with what the set publishes. */
export function inferOnWindows(set: PvBenchSet): InferenceWindow[] {
  const perWindow = (INFERENCE_WINDOW_DAYS * DAY_MS) / (STEP_MINUTES * 60_000);
  return windowStarts(set.t.length, perWindow, INFERENCE_WINDOWS).map((start) => {
    const t = set.t.slice(start, start + perWindow);
    const kw = set.kw.slice(start, start + perWindow);
    const window: InferenceWindow = { from: new Date(t[0]).toISOString(), to: new Date(t[t.length - 1] + STEP_MINUTES * 60_000).toISOString(), ms: 0 };
    const started = performance.now();
    try {
      const inferred = inferPvSystem({ t, kw, stepMinutes: STEP_MINUTES }, set.place);
      window.inferred = inferred;
      window.tiltErrorDeg = inferred.system.tiltDeg - set.known.tiltDeg;
      window.azimuthErrorDeg = wrap180(inferred.system.azimuthDeg - set.known.azimuthDeg);
      if (set.known.capacityKwp) window.capacityErrorPct = (100 * (inferred.system.capacityKwp - set.known.capacityKwp)) / set.known.capacityKwp;
      if (set.known.inverterAcKw) window.inverterErrorPct = (100 * (inferred.system.inverterAcKw - set.known.inverterAcKw)) / set.known.inverterAcKw;
    } catch (error) {
      window.error = (error as Error).message;
    }
    window.ms = performance.now() - started;
    return window;
  });
}
