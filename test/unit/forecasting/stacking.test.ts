import { seasonalNaiveMember, smartPersistenceMember } from '../../../shared/domain/forecasting/baselines';
import { combineForecasts, ensembleValidation, meanWeights } from '../../../shared/domain/forecasting/ensemble';
import type { PointMetrics } from '../../../shared/domain/forecasting/metrics';
import { leadBlocks, projectToSimplex, simplexLeastSquares, stackMembers } from '../../../shared/domain/forecasting/stacking';
import type { ForecastMember } from '../../../shared/domain/forecasting/types';
import { validateMember, type MemberValidation } from '../../../shared/domain/forecasting/validation';
import { mulberry32 } from '../../../shared/domain/seeded-random';

const metrics = (rmse: number): PointMetrics => ({ rmse, mae: rmse, mape: NaN, smape: NaN, mase: NaN, r2: NaN });
const record = (member: string, predictions: number[][], actuals: number[][]): MemberValidation => ({
  member,
  origins: predictions.map((_, i) => 1000 - i),
  predictions,
  actuals,
  residualsByLead: [],
  metrics: metrics(NaN),
  meanMs: 1,
});
const sse = (a: number[][], p: number[][]) => a.flat().reduce((s, x, i) => s + (x - p.flat()[i]) ** 2, 0);

describe('simplex least squares', () => {
  it('projects onto the simplex', () => {
    expect(projectToSimplex([0.5, 0.5])).toEqual([0.5, 0.5]);
    expect(projectToSimplex([2, 0])).toEqual([1, 0]);
    const w = projectToSimplex([0.9, 0.6, -1]);
    expect(w[0]).toBeCloseTo(0.65, 12);
    expect(w[1]).toBeCloseTo(0.35, 12);
    expect(w[2]).toBe(0);
  });

  it('finds the convex weights that reproduce a target mixed from two forecasts', () => {
    const rand = mulberry32(3);
    const x = Array.from({ length: 200 }, () => [rand(), rand()]);
    const a = x.map(([p, q]) => 0.3 * p + 0.7 * q);
    const gram = [0, 1].map((i) => [0, 1].map((j) => x.reduce((s, r) => s + r[i] * r[j], 0)));
    const b = [0, 1].map((i) => x.reduce((s, r, k) => s + r[i] * a[k], 0));

    const w = simplexLeastSquares(gram, b);

    expect(w[0]).toBeCloseTo(0.3, 3);
    expect(w[1]).toBeCloseTo(0.7, 3);
  });

  it('reaches the minimum over the simplex when it lies on an edge (a grid over the simplex finds none lower)', () => {
    const rand = mulberry32(11);
    // Four members: two good and correlated, one biased, one noise; the target leans on the first two.
    const x = Array.from({ length: 300 }, () => {
      const base = rand();
      return [base + 0.05 * rand(), base + 0.1 * rand(), base + 0.5, rand()];
    });
    const a = x.map((r) => 0.6 * r[0] + 0.4 * r[1] + 0.02 * (rand() - 0.5));
    const k = 4;
    const gram = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => x.reduce((s, r) => s + r[i] * r[j], 0)));
    const b = Array.from({ length: k }, (_, i) => x.reduce((s, r, n) => s + r[i] * a[n], 0));
    const objective = (w: number[]) => x.reduce((s, r, n) => s + (a[n] - r.reduce((f, v, i) => f + w[i] * v, 0)) ** 2, 0);

    const w = simplexLeastSquares(gram, b);

    expect(w.every((v) => v >= 0)).toBe(true);
    expect(w.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    expect(w[2]).toBeLessThan(0.01);
    let best = Infinity;
    const step = 0.05;
    for (let p = 0; p <= 1 + 1e-9; p += step)
      for (let q = 0; p + q <= 1 + 1e-9; q += step)
        for (let r = 0; p + q + r <= 1 + 1e-9; r += step) best = Math.min(best, objective([p, q, r, Math.max(0, 1 - p - q - r)]));
    expect(objective(w)).toBeLessThanOrEqual(best * (1 + 1e-6));
  });

  it('projects vectors with ties and several negative entries', () => {
    for (const v of projectToSimplex([0.4, 0.4, 0.4])) expect(v).toBeCloseTo(1 / 3, 12);
    const w = projectToSimplex([3, -2, 3, -1]);
    expect(w).toEqual([0.5, 0, 0.5, 0]);
  });
});

describe('lead blocks', () => {
  it('cuts a day-ahead hourly horizon at 6, 12 and 24 hours when the first hours hold too few points', () => {
    expect(leadBlocks(48, 60, 14)).toEqual([[0, 6], [6, 12], [12, 24], [24, 48]]);
  });

  it('keeps the first hour apart when it holds enough points (10-minute steps)', () => {
    expect(leadBlocks(36, 10, 14)).toEqual([[0, 6], [6, 18], [18, 36]]);
  });
});

describe('stackMembers', () => {
  it('never does worse on the validation folds than the best member', () => {
    const rand = mulberry32(11);
    for (let trial = 0; trial < 20; trial++) {
      const actuals = Array.from({ length: 8 }, () => Array.from({ length: 24 }, () => 10 * rand()));
      const members = ['a', 'b', 'c'].map((name, m) => record(name, actuals.map((day) => day.map((v) => v + (m + 1) * (rand() - 0.4 + 0.2 * m))), actuals));

      const stacking = stackMembers(members, 24, 60);

      const best = Math.min(...members.map((m) => sse(actuals, m.predictions)));
      expect(sse(actuals, stacking.predictions)).toBeLessThanOrEqual(best * (1 + 1e-9));
    }
  });

  it('takes the member that is better on each block: persistence early, the profile later', () => {
    const rand = mulberry32(5);
    const actuals = Array.from({ length: 14 }, () => Array.from({ length: 24 }, () => 100 * rand()));
    const early = record('early', actuals.map((day) => day.map((v, j) => v + (j < 6 ? 1 : 30) * (rand() - 0.5))), actuals);
    const late = record('late', actuals.map((day) => day.map((v, j) => v + (j < 6 ? 30 : 1) * (rand() - 0.5))), actuals);

    const { combination } = stackMembers([early, late], 24, 60);

    expect(combination[0].weights.early).toBeGreaterThan(0.9);
    expect(combination[combination.length - 1].weights.late).toBeGreaterThan(0.9);
  });

  it('gives a member that only adds noise no weight', () => {
    const rand = mulberry32(9);
    const actuals = Array.from({ length: 14 }, () => Array.from({ length: 24 }, () => 50 + 10 * rand()));
    const good = record('good', actuals.map((day) => day.map((v) => v + (rand() - 0.5))), actuals);
    const noisy = record('noisy', actuals.map((day) => day.map((v) => v + 40 * (rand() - 0.5))), actuals);

    const { combination } = stackMembers([good, noisy], 24, 60);

    combination.forEach((block) => expect(block.weights.noisy).toBeLessThan(0.05));
    expect(meanWeights(combination, 24).good).toBeGreaterThan(0.95);
  });

  it('builds the ensemble record from out-of-fold forecasts: its residuals are those a new day would see', () => {
    const rand = mulberry32(2);
    const actuals = Array.from({ length: 6 }, () => Array.from({ length: 24 }, () => 10 * rand()));
    const a = record('a', actuals.map((day) => day.map((v) => v + rand() - 0.5)), actuals);
    const b = record('b', actuals.map((day) => day.map((v) => v + 2 * (rand() - 0.5))), actuals);
    const stacking = stackMembers([a, b], 24, 60);

    const ensemble = ensembleValidation(stacking, [0, 1, 2, 3], 1, 2);

    expect(ensemble.residualsByLead[3]).toEqual(stacking.outOfFold.map((p, f) => actuals[f][3] - p[3]));
    expect(ensemble.predictions).toBe(stacking.predictions);
  });

  it('with few folds, calibrates on the member each fold would have picked without it, not on the pick made with it', () => {
    // Six folds (fewer than the stacking needs): a errs by 1.5 on every fold; b by 1, except by 4 on fold 0.
    const actuals = Array.from({ length: 6 }, (_, f) => Array.from({ length: 24 }, (_, j) => 10 + f + j));
    const a = record('a', actuals.map((day) => day.map((v) => v + 1.5)), actuals);
    const b = record('b', actuals.map((day, f) => day.map((v) => v + (f === 0 ? 4 : 1))), actuals);

    const stacking = stackMembers([a, b], 24, 60);

    // On all six folds a errs less (13.5 against 21 per point squared, summed); without fold 0, b does.
    expect(stacking.combination.every((block) => block.weights.a === 1)).toBe(true);
    expect(stacking.predictions[0]).toEqual(a.predictions[0]);
    expect(stacking.outOfFold[0]).toEqual(b.predictions[0]);
    expect(stacking.outOfFold[1]).toEqual(a.predictions[1]);
  });

  it('with an anchor and few folds, takes the anchor though another member was better on the folds', () => {
    // Seven folds: the anchor errs by 2 everywhere, the other by 1.
    const actuals = Array.from({ length: 7 }, (_, f) => Array.from({ length: 24 }, (_, j) => 10 + f + j));
    const anchor = record('anchor', actuals.map((day) => day.map((v) => v + 2)), actuals);
    const other = record('other', actuals.map((day) => day.map((v) => v - 1)), actuals);

    const free = stackMembers([anchor, other], 24, 60);
    const anchored = stackMembers([anchor, other], 24, 60, { anchor: ['anchor'] });

    expect(meanWeights(free.combination, 24).other).toBe(1);
    expect(meanWeights(anchored.combination, 24).anchor).toBe(1);
    expect(anchored.outOfFold).toEqual(anchor.predictions);
  });

  it('anchors on the first named member that takes part', () => {
    const actuals = Array.from({ length: 7 }, (_, f) => Array.from({ length: 24 }, (_, j) => 10 + f + j));
    const second = record('second', actuals.map((day) => day.map((v) => v + 2)), actuals);
    const other = record('other', actuals.map((day) => day.map((v) => v - 1)), actuals);

    const { combination } = stackMembers([second, other], 24, 60, { anchor: ['absent', 'second'] });

    expect(meanWeights(combination, 24).second).toBe(1);
  });

  it('with an anchor and enough folds, lets the folds pull the weights away from it where they hold', () => {
    // Fourteen folds: the other member is exact, the anchor off by a day-to-day random level.
    const rand = mulberry32(4);
    const actuals = Array.from({ length: 14 }, (_, f) => Array.from({ length: 24 }, (_, j) => 50 + f + 5 * Math.sin(j / 4)));
    const anchor = record('anchor', actuals.map((day) => { const level = 10 * (rand() - 0.5); return day.map((v) => v + level); }), actuals);
    const other = record('other', actuals.map((day) => [...day]), actuals);

    const { combination, lambdas } = stackMembers([anchor, other], 24, 60, { anchor: ['anchor'], byLead: false });

    expect(combination).toHaveLength(1);
    expect(lambdas).toEqual([1]);
    expect(combination[0].weights.other).toBeGreaterThan(0.99);
  });

  it('chooses the shrinkage by absolute error when asked: a few large misses do not buy a member weight', () => {
    // The anchor is exact but on one hour of each fold, where it misses by 60; the other is off by 3 everywhere.
    // Squared error prefers blending in the other member (its misses are small); absolute error does not.
    const actuals = Array.from({ length: 14 }, (_, f) => Array.from({ length: 24 }, (_, j) => 40 + f + j));
    const anchor = record('anchor', actuals.map((day, f) => day.map((v, j) => v + (j === f % 24 ? 60 : 0))), actuals);
    const other = record('other', actuals.map((day) => day.map((v, j) => v + (j % 2 ? 3 : -3))), actuals);

    const squared = stackMembers([anchor, other], 24, 60, { anchor: ['anchor'], byLead: false });
    const absolute = stackMembers([anchor, other], 24, 60, { anchor: ['anchor'], byLead: false, loss: 'absolute' });

    expect(squared.combination[0].weights.other).toBeGreaterThan(0.5);
    expect(absolute.combination[0].weights.anchor).toBe(1);
  });

  it('with relative errors, weighs a miss at a low level as the percentage it is (load is judged by its MAPE)', () => {
    // Half the leads at 1000, half at 10. 'peak' is exact at 1000 and 50% over at 10; 'base' is 2% over at 1000 and
    // exact at 10. In kilowatts the peaks' misses rule (weights ~ 400 : 25 for 'peak'), in percent the lows' do.
    const actuals = Array.from({ length: 14 }, () => Array.from({ length: 24 }, (_, j) => (j % 2 ? 1000 : 10)));
    const peak = record('peak', actuals.map((day) => day.map((v) => (v === 10 ? 15 : v))), actuals);
    const base = record('base', actuals.map((day) => day.map((v) => (v === 1000 ? 1020 : v))), actuals);

    const squared = stackMembers([peak, base], 24, 60, { byLead: false }).combination[0].weights;
    const relative = stackMembers([peak, base], 24, 60, { byLead: false, relative: true }).combination[0].weights;

    expect(squared.peak).toBeGreaterThan(0.8);
    expect(relative.base).toBeGreaterThan(0.9);
  });

  it('trims by the relative error when errors are relative', () => {
    // 'far' misses the low leads by more than they are (about 1.2 x the best's error in kilowatts), 'good' is 2% over
    // everywhere (40 times fewer percent).
    const actuals = Array.from({ length: 14 }, (_, f) => Array.from({ length: 24 }, (_, j) => (j % 2 ? 1000 : 10) + f));
    const good = record('good', actuals.map((day) => day.map((v) => v * 1.02)), actuals);
    const far = record('far', actuals.map((day) => day.map((v) => (v < 100 ? v * 1.3 + 20 : v))), actuals);
    const trimmed = (relative: boolean) => stackMembers([good, far], 24, 60, { trim: 3, relative }).combination.every((block) => block.weights.far === 0);

    expect(trimmed(false)).toBe(false);
    expect(trimmed(true)).toBe(true);
  });

  it('with trimming, leaves out members far worse than the best, though together they cancel on the folds', () => {
    // Two members off by +-6 (the sign flipping by fold) average to the actuals exactly; the good one errs by about 1.
    const rand = mulberry32(8);
    const actuals = Array.from({ length: 14 }, (_, f) => Array.from({ length: 24 }, (_, j) => 30 + f + j));
    const sign = actuals.map(() => (rand() < 0.5 ? -1 : 1));
    const good = record('good', actuals.map((day) => day.map((v) => v + 2 * (rand() - 0.5) * 2)), actuals);
    const high = record('high', actuals.map((day, f) => day.map((v) => v + 6 * sign[f])), actuals);
    const low = record('low', actuals.map((day, f) => day.map((v) => v - 6 * sign[f])), actuals);

    const free = meanWeights(stackMembers([good, high, low], 24, 60).combination, 24);
    const trimmed = meanWeights(stackMembers([good, high, low], 24, 60, { trim: 2 }).combination, 24);
    // On seven folds the anchor is taken alone: it must have taken part.
    const week = (v: MemberValidation) => ({ ...v, origins: v.origins.slice(0, 7), predictions: v.predictions.slice(0, 7), actuals: v.actuals.slice(0, 7) });
    const anchored = meanWeights(stackMembers([good, high, low].map(week), 24, 60, { trim: 2, anchor: ['high'] }).combination, 24);

    expect(free.high + free.low).toBeGreaterThan(0.8);
    expect(trimmed).toEqual({ good: 1, high: 0, low: 0 });
    expect(anchored).toEqual({ good: 0, high: 1, low: 0 });
  });

  it('with the one-standard-error rule, moves off the anchor only as far as the folds\' noise allows', () => {
    // Fourteen folds. The anchor misses by 8 on three of them and by 1 on the others; the other member is exact on
    // those three and misses by 1.6, the same way, on the rest: better on average, but its whole gain is in three
    // folds. Then an exact member: a gain on every fold, which moves the weights at least halfway.
    const rand = mulberry32(21);
    const actuals = Array.from({ length: 14 }, (_, f) => Array.from({ length: 24 }, (_, j) => 60 + f + j));
    const sign = actuals.map(() => (rand() < 0.5 ? -1 : 1));
    const rare = (f: number) => f % 5 === 0;
    const anchor = record('anchor', actuals.map((day, f) => day.map((v) => v + (rare(f) ? 8 : sign[f]))), actuals);
    const close = record('close', actuals.map((day, f) => day.map((v) => v + (rare(f) ? 0 : 1.6 * sign[f]))), actuals);
    const exact = record('exact', actuals.map((day) => [...day]), actuals);
    const options = { anchor: ['anchor'], byLead: false } as const;

    const noisy = stackMembers([anchor, close], 24, 60, options);
    const ruled = stackMembers([anchor, close], 24, 60, { ...options, oneStandardError: true });
    const clear = stackMembers([anchor, exact], 24, 60, { ...options, oneStandardError: true });

    expect(noisy.lambdas[0]).toBeGreaterThan(0);
    expect(ruled.lambdas[0]).toBeLessThan(noisy.lambdas[0]);
    expect(ruled.combination[0].weights.anchor).toBeGreaterThan(noisy.combination[0].weights.anchor);
    expect(clear.lambdas[0]).toBeGreaterThanOrEqual(0.5);
    expect(clear.combination[0].weights.exact).toBeGreaterThanOrEqual(0.5);
  });

  it('favours the better member on real validation of a noisy daily pattern', () => {
    let seed = 7;
    const noise = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647 - 0.5;
    const t0 = Date.parse('2024-01-01T00:00:00Z');
    const y = Array.from({ length: 21 * 24 }, (_, i) => 10 + 5 * Math.sin((2 * Math.PI * i) / 24) + 2 * noise());
    // The same as seasonal naive, always 1 too high.
    const biased: ForecastMember = { ...seasonalNaiveMember, name: 'biased', fit: (h, c) => ({ predict: (s) => seasonalNaiveMember.fit(h, c).predict(s).map((v) => v + 1) }) };
    const series = { t: y.map((_, i) => t0 + i * 3_600_000), y, stepMinutes: 60 };
    const validations = [seasonalNaiveMember, smartPersistenceMember, biased].map((m) => validateMember(series, m, { kind: 'generic' }, { horizonSteps: 24, folds: 10 }));

    const weights = meanWeights(stackMembers(validations, 24, 60).combination, 24);

    // Yesterday's value carries yesterday's noise too (error variance 2 sigma^2); a 7-day mean much less.
    expect(weights.smart_persistence).toBeGreaterThan(weights.seasonal_naive);
    expect(weights.biased).toBeLessThan(0.1);
    expect(weights.smart_persistence + weights.seasonal_naive + weights.biased).toBeCloseTo(1, 9);
  });
});

describe('combineForecasts', () => {
  it('leaves out a NaN forecast and renormalises', () => {
    expect(combineForecasts({ a: [1, NaN], b: [3, 5] }, { a: 0.5, b: 0.5 }, 2)).toEqual([2, 5]);
  });

  it('applies each block its own weights, the last block beyond the end', () => {
    const combination = [
      { fromLead: 0, toLead: 1, weights: { a: 1, b: 0 } },
      { fromLead: 1, toLead: 2, weights: { a: 0, b: 1 } },
    ];
    expect(combineForecasts({ a: [1, 1, 1], b: [2, 2, 2] }, combination, 3)).toEqual([1, 2, 2]);
  });
});
