import { cleanSeries, flagValues, labelQuality } from '../../../shared/domain/interpolation';

const START = Date.UTC(2026, 5, 1);

/** Two days of a load-like 15-minute series that never repeats itself: a daily wave and a faster wiggle. */
function load(): number[] {
  return Array.from({ length: 192 }, (_, i) => 20 + 8 * Math.sin((2 * Math.PI * i) / 96) + 0.5 * Math.sin(1.7 * i));
}
const series = (y: number[]) => ({ t: y.map((_, i) => START + i * 900_000), y, stepMinutes: 15 });

describe('labelQuality', () => {
  it('labels a gap missing, a stuck run stale after its first value, a spike an outlier, the rest original', () => {
    // Prepare
    const y = load();
    for (let i = 40; i <= 42; i++) y[i] = NaN;
    for (let i = 101; i <= 107; i++) y[i] = y[100];
    y[150] = 80;

    // Act
    const { quality, counts } = labelQuality(series(y), { kind: 'generic' });

    // Assess
    const at = (label: string) => quality.flatMap((q, i) => (q === label ? [i] : []));
    expect(at('missing')).toEqual([40, 41, 42]);
    expect(at('stale')).toEqual([101, 102, 103, 104, 105, 106, 107]);
    expect(at('outlier')).toEqual([150]);
    expect(counts).toEqual({ original: 181, missing: 3, outlier: 1, stale: 7 });
  });

  it('flags nothing in a clean series, and counts every label even when none carries it', () => {
    expect(labelQuality(series(load()), { kind: 'generic' }).counts).toEqual({ original: 192, missing: 0, outlier: 0, stale: 0 });
  });

});

describe('flagValues', () => {
  it('flags exactly what the cleaning replaces', () => {
    const y = load();
    for (let i = 101; i <= 107; i++) y[i] = y[100];
    y[150] = 80;
    const flagged = flagValues(series(y), { kind: 'generic', detectOutliers: true, detectStale: true });
    const cleaned = cleanSeries(series(y), { kind: 'generic', detectOutliers: true, detectStale: true, maxGapSteps: 8, seasonalAdjustment: false });
    expect({ stale: flagged.staleIndices, outliers: flagged.outlierIndices }).toEqual({ stale: cleaned.staleIndices, outliers: cleaned.outlierIndices });
    expect(flagged.y.filter(Number.isNaN)).toHaveLength(8);
  });
});
