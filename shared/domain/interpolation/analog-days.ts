/** `analog_days`: the mean of the other days of the series most alike just before and after the gap. */
import { movedTo, skyFrame } from './clear-sky-ratio';
import { edgesKnown, known, type Context } from './types';

/** Analog days: how many of the most similar other days fill a gap. */
export const ANALOG_NEIGHBOURS = 15;
/** Analog days: minutes of known values either side of a gap that describe its day (60 measured better than 120-240). */
export const ANALOG_CONTEXT_MINUTES = 60;
/** Analog days: e-folding time, minutes, of the edge residual into the gap (a cloud state persists about this long; 30 measured best of 15-90). */
export const ANALOG_EDGE_DECAY_MINUTES = 30;

/**
 * Analog days (k nearest neighbours, Lorenz 1969 analogues): the other days of the series most alike at the same
 * clock times just before and after the gap, each brought to the gap day's clear sky, averaged with weights
 * 1 / distance over the gap; the residual at the two edges is interpolated across it (as in the seasonal profile).
 */
export function analogFill(y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  const left = a - 1;
  const right = b + 1;
  if (!edgesKnown(y, a, b)) return null;
  const { perDay } = ctx;
  const sky = skyFrame(ctx);
  const moved = (i: number, j: number) => movedTo(y, sky, i, j);
  const w = Math.max(1, Math.round(ANALOG_CONTEXT_MINUTES / ctx.series.stepMinutes));
  const context: number[] = [];
  for (let i = left - w + 1; i <= left; i++) if (i >= 0 && known(y[i])) context.push(i);
  for (let i = right; i < right + w; i++) if (i < y.length && known(y[i])) context.push(i);
  const found: { shift: number; distance: number }[] = [];
  for (let shift = -Math.floor(left / perDay) * perDay; left + shift >= 0 && right + shift < y.length; shift += perDay) {
    if (shift === 0) continue;
    let ok = true;
    for (let i = left; ok && i <= right; i++) ok = known(y[i + shift]);
    if (!ok) continue;
    let se = 0;
    let n = 0;
    for (const i of context) {
      const j = i + shift;
      if (j < 0 || j >= y.length || !known(y[j])) continue;
      se += (y[i] - moved(i, j)) ** 2;
      n++;
    }
    if (n * 2 < context.length) continue;
    found.push({ shift, distance: Math.sqrt(se / n) });
  }
  if (!found.length) return null;
  found.sort((p, q) => p.distance - q.distance);
  const nearest = found.slice(0, ANALOG_NEIGHBOURS);
  const eps = 1e-9;
  const weights = nearest.map((f) => 1 / (f.distance + eps));
  const total = weights.reduce((s, v) => s + v, 0);
  const analog = (i: number) => nearest.reduce((s, f, k) => s + weights[k] * moved(i, i + f.shift), 0) / total;
  const r0 = y[left] - analog(left);
  const r1 = y[right] - analog(right);
  const out: number[] = [];
  const tau = ANALOG_EDGE_DECAY_MINUTES / ctx.series.stepMinutes;
  for (let i = a; i <= b; i++) out.push(analog(i) + r0 * Math.exp(-(i - left) / tau) + r1 * Math.exp(-(right - i) / tau));
  return out;
}
