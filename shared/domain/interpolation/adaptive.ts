/**
 * `adaptive` picks per gap length what errs least when known runs of that length are hidden in the same series:
 * one method, the inverse-error weighted mean of the best three, or a weighted pair, and keeps linear unless that
 * choice beats linear on runs it did not see (a cross-validated paired test; selection.ts).
 */
import { DAY_REGRESSION_MIN_DAYS } from './day-regression';
import { fillGap } from './fill';
import { hiddenRunErrors, hiddenRuns } from './hidden-runs';
import { MIN_PROFILE_DAYS } from './seasonal-profile';
import { beatsLinear, combine, mseOf, selectOn, trialOf, type Choice } from './selection';
import type { Concrete, Context } from './types';

/** Known runs hidden per gap length when `adaptive` chooses (SERF East: 60 chose better than 24 at every gap length; 120 no better than 60). */
export const ADAPTIVE_TRIALS = 60;

function candidates(ctx: Context): Concrete[] {
  const list: Concrete[] = ['linear', 'pchip'];
  if (ctx.options.seasonalAdjustment && ctx.series.y.length >= MIN_PROFILE_DAYS * ctx.perDay) list.push('seasonal_profile');
  if (ctx.clearSky) list.push('clear_sky_ratio');
  if (list.includes('seasonal_profile')) list.push('blend');
  if (ctx.series.y.length >= 3 * ctx.perDay) list.push('analog_days');
  if (ctx.series.y.length > DAY_REGRESSION_MIN_DAYS * ctx.perDay) list.push('day_regression');
  if (ctx.envelope) list.push('envelope_kriging');
  if (ctx.irradiance) list.push('irradiance');
  return list;
}

/**
 * The choice for each gap length of `y` (remembered per length): among the candidates, or the one method the
 * options name. Each hidden run is put back in `y` before the next.
 */
export function adaptiveChooser(y: number[], ctx: Context, spread: number): (length: number) => Choice<Concrete> {
  const { options } = ctx;
  const choice = new Map<number, Choice<Concrete>>();
  return (length: number): Choice<Concrete> => {
    let best = choice.get(length);
    if (best) return best;
    // Solar: hidden runs in daylight only, where the methods differ (at night every fill is right).
    const daylight = ctx.clearSky?.map((c) => c > 0);
    const starts = hiddenRuns(y, length, ADAPTIVE_TRIALS, 7 + length, daylight && daylight.some(Boolean) ? daylight : undefined);
    const methods = options.method && options.method !== 'adaptive' ? [options.method] : candidates(ctx);
    const trials = starts.map((a) => {
      const b = a + length - 1;
      const truth = y.slice(a, b + 1);
      for (let i = a; i <= b; i++) y[i] = NaN;
      const fills = methods.map((m) => fillGap(m, y, a, b, ctx));
      truth.forEach((v, k) => (y[a + k] = v));
      return trialOf(truth, fills);
    });
    best = selectOn(trials, methods, spread);
    if (best.method !== 'linear' && methods.includes('linear') && !beatsLinear(trials, methods, spread)) {
      const linear = methods.map((m) => (m === 'linear' ? 1 : 0));
      best = { method: 'linear', weights: linear, methods, rmse: Math.sqrt(mseOf(trials, linear)) };
    }
    choice.set(length, best);
    return best;
  };
}

/** The gap [a, b] filled as `chosen` says: by its method, or by the weighted mean of its candidates' fills. */
export function fillChosen(chosen: Choice<Concrete>, y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  return chosen.method === 'combination' ? combine(chosen.methods.map((m, j) => (chosen.weights[j] > 0 ? fillGap(m, y, a, b, ctx) : null)), chosen.weights) : fillGap(chosen.method, y, a, b, ctx);
}

/** The validation RMSE of a fallback method at a gap length (NaN-safe). */
export function fallbackRmse(method: Concrete, y: number[], length: number, ctx: Context, spread: number): number {
  const e = hiddenRunErrors(y, hiddenRuns(y, length, ADAPTIVE_TRIALS, 7 + length), length, (a, b) => fillGap(method, y, a, b, ctx));
  return e.n ? Math.sqrt(e.se / e.n) : spread;
}
