/**
 * A first schedule for the deferrable loads, handed to HiGHS as the MIP's starting incumbent: each load runs
 * in the cheapest contiguous block of its window that delivers its energy (at least its minimum run). With the
 * on/off choices fixed the rest is an LP, so HiGHS has a feasible schedule at once; without one a year with
 * hundreds of windows spent its whole time limit looking for a first one.
 */
import { hoursPerInterval, type DeferrableLoad, type DispatchProblem } from './problem';

/** The cheapest block [from, to) of `load`'s window, by the import price of the energy it draws; undefined when no block fits. */
function cheapestBlock(load: DeferrableLoad, price: readonly number[], dt: number): { from: number; to: number } | undefined {
  const window: number[] = [];
  load.share.forEach((s, t) => s > 0 && window.push(t));
  const fixedPower = load.minPowerKw >= load.powerKw;
  const most = load.energyKwh + load.powerKw * dt;
  let best: { from: number; to: number; cost: number } | undefined;
  for (let i = 0; i < window.length; i++) {
    let energy = 0;
    let cost = 0;
    for (let j = i; j < window.length && window[j] === window[i] + (j - i); j++) {
      const kwh = load.powerKw * load.share[window[j]] * dt;
      energy += kwh;
      cost += kwh * price[window[j]];
      const length = j - i + 1;
      if (energy + 1e-9 < load.energyKwh || length < load.minRunIntervals) continue;
      // At fixed power a longer block would deliver more than the energy row allows.
      if (fixedPower && energy > most) break;
      if (!best || cost < best.cost) best = { from: window[i], to: window[j] + 1, cost };
      break;
    }
  }
  return best && { from: best.from, to: best.to };
}

/** Each deferrable load's on/off by interval in its cheapest block (loads with no fitting block are left out). */
export function deferrableStart(p: DispatchProblem): Record<string, number[]> {
  const dt = hoursPerInterval(p);
  const out: Record<string, number[]> = {};
  for (const load of p.flexibleLoads?.deferrable ?? []) {
    const block = cheapestBlock(load, p.importPrice, dt);
    if (block) out[load.id] = load.share.map((_, t) => (t >= block.from && t < block.to ? 1 : 0));
  }
  return out;
}
