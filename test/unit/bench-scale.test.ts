import { geometricMean, nowcastVerdicts, reuseVerdict, SCALE_TARGETS, shapeProblem, stlfVerdict, verdicts, type PartOutcome } from '../../bench/scale/index';
import { medianRise } from '../../bench/scale/dispatch-memory';
import { median, pairedMape, type StlfRow } from '../../bench/scale/load-vs-stlf';
import type { ForecastMember } from '../../shared/domain/forecasting/types';
import { clearFoldCache, FOLD_CACHE_SIZE, validateMember } from '../../shared/domain/forecasting/validation';

const outcome = (part: PartOutcome['part'], value: unknown, notMeasured?: string): PartOutcome => ({ part, value, ...(notMeasured ? { notMeasured } : {}), seconds: 1, loadAverage: { before: 1, after: 1 } });

const stlfRow = (timeRatio: number | null, mapeRatio: number | null): StlfRow => ({
  set: 'taylor england-wales demand',
  role: 'REPORT',
  stepMinutes: 30,
  horizonSteps: 48,
  origins: 14,
  historyDays: [28, 55],
  engineMs: { mean: 100, median: 100 },
  repeatMs: { mean: 5, median: 5, identical: true },
  nextDayMs: { mean: 100, median: 100, identical: true },
  stlfMs: timeRatio === null ? null : { mean: 100 / timeRatio, median: 100 / timeRatio },
  timeRatio,
  engineMape: 1,
  stlfMape: mapeRatio === null ? null : 1 / mapeRatio,
  mapeRatio,
  mapeRatioInterval: mapeRatio === null ? null : [mapeRatio - 0.01, mapeRatio + 0.01],
  steps: 672,
});

describe('pairedMape', () => {
  it('scores both forecasts over the same steps, skipping zero actuals and origins either one lacks', () => {
    // Prepare: origin 0 scored (its zero actual skipped), origin 1 dropped for b's missing forecast.
    const actuals = [
      [100, 0, 200],
      [50, 50, 50],
    ];
    const a = [[110, 5, 180], [50, 50, 50]];
    const b = [[100, 5, 220], null];
    // Act
    const scored = pairedMape(actuals, a, b);
    // Assess: a: (10% + 10%) / 2; b: (0% + 10%) / 2.
    expect(scored.steps).toBe(2);
    expect(scored.a).toBeCloseTo(10, 10);
    expect(scored.b).toBeCloseTo(5, 10);
    expect(scored.perOrigin.a).toHaveLength(1);
    expect(scored.perOrigin.a[0]).toBeCloseTo(0.2, 12);
    expect(scored.perOrigin.b[0]).toBeCloseTo(0.1, 12);
  });

  it('gives NaN with no step in common', () => {
    expect(pairedMape([[1, 2]], [null], [[1, 2]]).a).toBeNaN();
  });
});

describe('median and geometricMean', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('averages ratios so that 0.5 and 2 cancel', () => {
    expect(geometricMean([0.5, 2])).toBeCloseTo(1, 12);
    expect(geometricMean([2, 8, -1, NaN])).toBeCloseTo(4, 12);
  });
});

describe('nowcastVerdicts', () => {
  it('judges every longer history against the shortest by the 1.5 times target', () => {
    const rows = nowcastVerdicts([
      { history: '1 day', ms: 100 },
      { history: '1 year', ms: 140 },
      { history: '10 years', ms: 160 },
    ]);
    expect(rows.map((r) => [r.ratio, r.verdict])).toEqual([
      ['1.40', 'PASS'],
      ['1.60', 'FAIL'],
    ]);
  });
});

describe('stlfVerdict', () => {
  it('passes only when the engine is both no slower and no less accurate than stlf (a MAPE ratio whose interval holds 1 is equal)', () => {
    expect(stlfVerdict(stlfRow(0.9, 0.99)).verdict).toBe('PASS');
    expect(stlfVerdict(stlfRow(0.9, 1.005)).verdict).toBe('PASS');
    expect(stlfVerdict(stlfRow(1.2, 0.9)).verdict).toBe('FAIL');
    expect(stlfVerdict(stlfRow(0.5, 1.05)).verdict).toBe('FAIL');
    expect(stlfVerdict(stlfRow(null, null)).verdict).toBe('NOT MEASURED');
  });
});

describe('shapeProblem', () => {
  it('accepts the answers the helpers promised and names what is missing otherwise', () => {
    expect(shapeProblem('dispatch', { rssBeforeMb: 200, rssAfterMb: 201, solves: 10, secondsPerSolve: 3, extra: 'kept' })).toBeNull();
    expect(shapeProblem('api', { p50Ms: 3, p99Ms: 'fast' })).toMatch(/missing numeric p99Ms, trainingSeconds/);
    expect(shapeProblem('nowcast', [{ history: '1 day', ms: 10 }])).toBeNull();
    expect(shapeProblem('nowcast', [])).toMatch(/non-empty array/);
  });
});

describe('verdicts', () => {
  it('reports a missing part as not measured with its reason, and judges the others', () => {
    // Prepare
    const outcomes = [
      outcome('nowcast', null, 'bench/scale/ingestion.ts does not exist (helper 20A)'),
      outcome('training', { seconds: 50, peakRssMb: 2048, points: 1_000_000 }),
      outcome('api', { p50Ms: 4, p99Ms: 60, trainingSeconds: 20 }),
      outcome('dispatch', { rssBeforeMb: 200, rssAfterMb: 220, solves: 10, secondsPerSolve: 4, rssAfterEachMb: [202, 204, 206], retainedMbPerSolve: SCALE_TARGETS.dispatchRetainedMbPerSolve + 0.1 }),
    ];
    // Act
    const rows = verdicts(outcomes, { rInstalled: false, rows: [] });
    // Assess
    expect(rows.map((r) => r.verdict)).toEqual(['NOT MEASURED', 'FAIL', 'PASS', 'FAIL', 'NOT MEASURED']);
    expect(rows[0].figure).toBe('not measured: bench/scale/ingestion.ts does not exist (helper 20A)');
    expect(rows[1].ratio).toBe('2.00 of the memory');
    expect(rows[4].figure).toMatch(/Rscript/);
  });
});

describe('what each dispatch solve leaves behind', () => {
  it('is the median rise between solves: a leak rises at each, a one-time step does not count', () => {
    expect(medianRise([206, 208, 237, 238, 238, 238, 238, 238, 238, 238])).toBeCloseTo(0, 10);
    expect(medianRise([200, 205, 210, 215, 221])).toBeCloseTo(5, 10);
  });
});

describe('the fold cache of validateMember (issue 20, item 4)', () => {
  const t0 = Date.parse('2024-01-01T00:00:00Z');
  const series = (length: number, scale = 1) => {
    const y = Array.from({ length }, (_, i) => scale * (i % 24) + i / 100);
    return { t: y.map((_, i) => t0 + i * 3_600_000), y, stepMinutes: 60 };
  };
  const counting = () => {
    const fits: number[] = [];
    const member: ForecastMember = {
      name: 'counting_mean',
      supports: () => true,
      minHistory: () => 24,
      fit: (history) => {
        fits.push(history.y.length);
        const mean = history.y.reduce((s, v) => s + v, 0) / history.y.length;
        return { predict: (steps) => new Array(steps).fill(mean) };
      },
    };
    return { member, fits };
  };

  beforeEach(() => clearFoldCache());

  it('answers a repeated validation from the cache with the same record', () => {
    // Prepare
    const { member, fits } = counting();
    const options = { horizonSteps: 24, folds: 3 };
    // Act
    const first = validateMember(series(24 * 6), member, { kind: 'generic' }, options);
    const again = validateMember(series(24 * 6), member, { kind: 'generic' }, options);
    // Assess: three fits, not six, and the same forecasts, residuals and metrics.
    expect(fits).toEqual([120, 96, 72]);
    expect(again.predictions).toEqual(first.predictions);
    expect(again.residualsByLead).toEqual(first.residualsByLead);
    expect(again.metrics).toEqual(first.metrics);
  });

  it('refits only the new fold when the history grows by a day from the same start', () => {
    const { member, fits } = counting();
    validateMember(series(24 * 6), member, { kind: 'generic' }, { horizonSteps: 24, folds: 3 });
    validateMember(series(24 * 7), member, { kind: 'generic' }, { horizonSteps: 24, folds: 3 });
    expect(fits).toEqual([120, 96, 72, 144]);
  });

  it('refits when anything the fit reads differs: values, exogenous variables, context or the member object', () => {
    const { member, fits } = counting();
    const options = { horizonSteps: 24, folds: 1 };
    validateMember(series(24 * 3), member, { kind: 'generic' }, options);
    validateMember(series(24 * 3, 2), member, { kind: 'generic' }, options);
    validateMember(series(24 * 3), member, { kind: 'generic', history: { temperature_c: new Array(72).fill(1) } }, options);
    validateMember(series(24 * 3), member, { kind: 'generic', country: 'GB' }, options);
    const other = counting();
    validateMember(series(24 * 3), other.member, { kind: 'generic' }, options);
    expect(fits).toHaveLength(4);
    expect(other.fits).toHaveLength(1);
  });

  it('does not cache a fit whose context holds what a key cannot capture (a function)', () => {
    const { member, fits } = counting();
    const context = { kind: 'generic' as const, options: { weigh: () => 1 } };
    validateMember(series(48), member, context, { horizonSteps: 24, folds: 1 });
    validateMember(series(48), member, context, { horizonSteps: 24, folds: 1 });
    expect(fits).toHaveLength(2);
  });

  it('keeps at most FOLD_CACHE_SIZE folds', () => {
    const { member, fits } = counting();
    // One more single-fold validation than the cache holds, each on a distinct series: the first is evicted.
    for (let k = 0; k <= FOLD_CACHE_SIZE; k++) validateMember(series(48, 1 + k), member, { kind: 'generic' }, { horizonSteps: 24, folds: 1 });
    validateMember(series(48, 1), member, { kind: 'generic' }, { horizonSteps: 24, folds: 1 });
    validateMember(series(48, 1 + FOLD_CACHE_SIZE), member, { kind: 'generic' }, { horizonSteps: 24, folds: 1 });
    expect(fits).toHaveLength(FOLD_CACHE_SIZE + 2);
  });
});

describe('reuseVerdict', () => {
  it('gives the repeated request as a share of the cold one, and fails if a repeated forecast differed', () => {
    const fast = { ...stlfRow(2, 1), repeatMs: { mean: 10, median: 10, identical: true } };
    expect(reuseVerdict([fast])).toMatchObject({ ratio: 'repeated / cold 0.100', verdict: 'PASS' });
    expect(reuseVerdict([fast, { ...fast, repeatMs: { ...fast.repeatMs, identical: false } }])?.verdict).toBe('FAIL');
  });
});
