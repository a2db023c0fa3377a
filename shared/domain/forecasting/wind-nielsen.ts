/**
 * Nielsen's reference for short-term wind power (Nielsen, Joensen, Madsen, Landberg & Giebel 1998, "A new
 * reference for wind power forecasting", Wind Energy 1:23-34, eq. 5): the forecast k steps ahead blends the
 * last observation and the history's mean, P(t+k) = a_k P(t) + (1 - a_k) mean, a_k the lag-k
 * autocorrelation of the history. It is the MSE-optimal mix of persistence and climatology under that
 * correlation, so it tends to persistence at short leads and to climatology at long ones.
 */
import { finiteMean } from './baselines';
import { clampPower, ratedPower } from './wind-bounds';
import { type FitContext, type FittedModel, type ForecastMember, type RegularSeries, stepsPerDay } from './types';

/** Lag-`lag` autocorrelation of `y` about `mean`, over the pairs both finite, clipped to [0, 1]. */
export function autocorrelation(y: readonly number[], mean: number, lag: number): number {
  let cross = 0;
  let variance = 0;
  for (let i = 0; i < y.length; i++) {
    const d = y[i] - mean;
    if (!Number.isFinite(d)) continue;
    variance += d * d;
    const ahead = i + lag < y.length ? y[i + lag] - mean : NaN;
    if (Number.isFinite(ahead)) cross += d * ahead;
  }
  return variance > 0 ? Math.min(1, Math.max(0, cross / variance)) : 0;
}

export function fitNielsen(history: RegularSeries, context: FitContext): FittedModel {
  const { y } = history;
  let lastIndex = y.length - 1;
  while (lastIndex >= 0 && !Number.isFinite(y[lastIndex])) lastIndex--;
  const mean = finiteMean(y) || 0;
  const last = lastIndex >= 0 ? y[lastIndex] : mean;
  const rated = ratedPower(y, context);
  const weights = new Map<number, number>();
  return {
    predict(steps: number): number[] {
      return Array.from({ length: steps }, (_, k) => {
        // The lead counts from the last observation, which may be older than the last step.
        const lag = y.length + k - lastIndex;
        let a = weights.get(lag);
        if (a === undefined) {
          a = autocorrelation(y, mean, lag);
          weights.set(lag, a);
        }
        return clampPower(a * last + (1 - a) * mean, rated);
      });
    },
  };
}

/** Nielsen's persistence-climatology blend (Nielsen et al. 1998). */
export const nielsenBlendMember: ForecastMember = {
  name: 'nielsen_blend',
  supports: (kind) => kind === 'wind',
  minHistory: (stepMinutes) => stepsPerDay(stepMinutes),
  fit: fitNielsen,
};
