/** Known runs hidden in the series and filled, scored against the hidden truth: how fills are chosen and measured. */
import { mulberry32 } from '../seeded-random';
import { known } from './types';

/** Runs of `length` known values with known edges, at seeded positions (daylight only when asked). */
export function hiddenRuns(y: readonly number[], length: number, count: number, seed: number, daylight?: readonly boolean[]): number[] {
  const random = mulberry32(seed);
  const starts = new Set<number>();
  for (let attempt = 0; attempt < count * 30 && starts.size < count; attempt++) {
    const a = 1 + Math.floor(random() * (y.length - length - 2));
    let ok = a >= 1 && a + length < y.length && known(y[a - 1]) && known(y[a + length]);
    for (let i = a; ok && i < a + length; i++) ok = known(y[i]) && (!daylight || daylight[i]);
    if (ok) starts.add(a);
  }
  return [...starts];
}

/** Hides each known run (restoring it after), fills it with `fill`, and sums the errors against the hidden truth. */
export function hiddenRunErrors(y: number[], starts: readonly number[], length: number, fill: (a: number, b: number) => number[] | null | undefined): { se: number; ae: number; n: number } {
  let se = 0;
  let ae = 0;
  let n = 0;
  for (const a of starts) {
    const b = a + length - 1;
    const truth = y.slice(a, b + 1);
    for (let i = a; i <= b; i++) y[i] = NaN;
    const filled = fill(a, b);
    truth.forEach((v, k) => (y[a + k] = v));
    filled?.forEach((v, k) => {
      se += (v - truth[k]) ** 2;
      ae += Math.abs(v - truth[k]);
      n++;
    });
  }
  return { se, ae, n };
}
