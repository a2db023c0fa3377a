import { cleanSeries, staleIndices } from '../../../shared/domain/interpolation';
import { mulberry32 } from '../../helpers/seeded-random';

const START = Date.UTC(2024, 5, 1);
/** Days of a bell-shaped daily curve (0 at night), 15-minute steps, with seeded cloud noise in daylight. */
function solarDays(days: number, peak = 100, seed = 1): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: days * 96 }, (_, i) => {
    const hour = (i % 96) / 4;
    const sun = Math.max(0, Math.sin((Math.PI * (hour - 6)) / 12));
    return sun > 0 ? peak * sun * (0.7 + 0.3 * random()) : 0;
  });
}

describe('staleIndices', () => {
  it('flags the repeats of a held value, not the last genuine reading before them', () => {
    const y = solarDays(6);
    const a = 2 * 96 + 40; // 10:00 on day 2
    for (let i = a; i < a + 8; i++) y[i] = y[a - 1];
    expect(staleIndices(y, { stepMinutes: 15, kind: 'solar' })).toEqual(Array.from({ length: 8 }, (_, k) => a + k));
  });

  it('flags a value that drifts by less than the tolerance, and not one that moves', () => {
    const y = solarDays(6);
    const a = 3 * 96 + 44;
    for (let i = a; i < a + 6; i++) y[i] = y[a - 1] + 1e-6 * (i - a);
    expect(staleIndices(y, { stepMinutes: 15, kind: 'solar' })).toEqual(Array.from({ length: 6 }, (_, k) => a + k));
    for (let i = a; i < a + 6; i++) y[i] = y[a - 1] + 0.5 * (i - a + 1);
    expect(staleIndices(y, { stepMinutes: 15, kind: 'solar' })).toEqual([]);
  });

  it('leaves runs shorter than an hour alone', () => {
    const y = solarDays(6);
    const a = 2 * 96 + 40;
    for (let i = a; i < a + 2; i++) y[i] = y[a - 1]; // three equal values at 15 min: 45 minutes
    expect(staleIndices(y, { stepMinutes: 15, kind: 'solar' })).toEqual([]);
  });

  it('does not flag nights at zero, a clipping plateau, or a set-point the series holds again and again', () => {
    const y = solarDays(8).map((v) => Math.min(v, 80)); // clipped at 80 around every noon
    expect(staleIndices(y, { stepMinutes: 15, kind: 'solar' })).toEqual([]);
    // A curtailment to 50 for two hours on three days.
    const curtailed = y.slice();
    for (const day of [1, 3, 5]) for (let i = day * 96 + 44; i < day * 96 + 52; i++) curtailed[i] = 50;
    expect(staleIndices(curtailed, { stepMinutes: 15, kind: 'solar' })).toEqual([]);
    // Wind at rated power and at 0 in a calm.
    const wind = Array.from({ length: 600 }, (_, i) => (i < 100 ? 0 : i < 300 ? 2000 : 1000 + 500 * Math.sin(i / 7)));
    expect(staleIndices(wind, { stepMinutes: 10, kind: 'wind' })).toEqual([]);
  });

  it('flags solar held at its night floor into a morning when the neighbouring days produced, from an hour before', () => {
    const y = solarDays(8);
    const a = 4 * 96 + 20; // 05:00 on day 4, an hour before sunrise: held at 0 until 09:00
    for (let i = a; i < a + 16; i++) y[i] = 0;
    const flagged = staleIndices(y, { stepMinutes: 15, kind: 'solar' });
    // The night's zeros from the evening before are kept; the flag starts an hour before the days around produced.
    const firstOutput = 4 * 96 + 25; // the neighbours' median first exceeds the floor band at 06:15
    expect(flagged).toEqual(Array.from({ length: a + 16 - (firstOutput - 4) }, (_, k) => firstOutput - 4 + k));
    expect(flagged.every((i) => i >= a)).toBe(true);
    // A week of nights at exactly zero, a dull day that still moves, and a dusk that reaches zero 45 minutes
    // before the days around flag nothing; two hours at zero in the middle of a day do.
    const dull = solarDays(8).map((v, i) => (Math.floor(i / 96) === 4 ? 0.1 * v : v));
    expect(staleIndices(dull, { stepMinutes: 15, kind: 'solar' })).toEqual([]);
    const dusk = solarDays(8);
    for (let i = 4 * 96 + 69; i < 4 * 96 + 72; i++) dusk[i] = 0;
    expect(staleIndices(dusk, { stepMinutes: 15, kind: 'solar' })).toEqual([]);
    const outage = solarDays(8);
    for (let i = 4 * 96 + 48; i < 4 * 96 + 56; i++) outage[i] = 0;
    expect(staleIndices(outage, { stepMinutes: 15, kind: 'solar' })).toEqual(Array.from({ length: 7 }, (_, k) => 4 * 96 + 49 + k));
  });

  it('flags wind held near its floor or ceiling only where it outlasts the runs the series holds at that level', () => {
    const random = mulberry32(5);
    // 10-minute wind: calms at exactly 0, rated power with a little noise, variable output between.
    const wind = Array.from({ length: 2000 }, (_, i) => {
      const phase = Math.floor(i / 100) % 4;
      return phase === 0 ? 0 : phase === 1 ? 2000 - 5 * random() : 200 + 1500 * random();
    });
    expect(staleIndices(wind, { stepMinutes: 10, kind: 'wind' })).toEqual([]);
    // A reading of 15 kW (inside the floor band, not the floor itself) held for 4 h, and 1990 kW held for 2 h.
    const stuck = wind.slice();
    for (let i = 250; i < 274; i++) stuck[i] = 15;
    for (let i = 520; i < 532; i++) stuck[i] = 1990;
    expect(staleIndices(stuck, { stepMinutes: 10, kind: 'wind' })).toEqual([...Array.from({ length: 23 }, (_, k) => 251 + k), ...Array.from({ length: 11 }, (_, k) => 521 + k)]);
    // The same 15 kW held for 3 h elsewhere makes the 4 h run normal for this series (within LIMIT_RUN_FACTOR).
    for (let i = 1250; i < 1268; i++) stuck[i] = 15;
    expect(staleIndices(stuck, { stepMinutes: 10, kind: 'wind' }).filter((i) => i < 300 || (i >= 1250 && i < 1268))).toEqual([]);
  });

  it('flags a load held at its own minimum, since load has no physical floor', () => {
    const load = Array.from({ length: 48 * 7 }, (_, i) => 30000 + 8000 * Math.sin((2 * Math.PI * i) / 48) + 37 * (i % 5));
    const low = load.indexOf(Math.min(...load));
    for (let i = low + 1; i <= low + 4; i++) load[i] = load[low];
    expect(staleIndices(load, { stepMinutes: 30, kind: 'load' })).toEqual([low + 1, low + 2, low + 3, low + 4]);
    expect(staleIndices(load, { stepMinutes: 30, kind: 'generic' })).toEqual([]);
  });

  it('ends a run at a missing value', () => {
    const y = solarDays(6);
    const a = 2 * 96 + 40;
    for (let i = a; i < a + 6; i++) y[i] = y[a - 1];
    y[a + 2] = NaN; // two runs of 3 values: each shorter than an hour
    expect(staleIndices(y, { stepMinutes: 15, kind: 'solar' })).toEqual([]);
  });
});

describe('cleanSeries with detectStale', () => {
  it('labels stuck values `stale` and fills them like a gap, keeping other labels', () => {
    const truth = solarDays(10);
    const y = truth.slice();
    const a = 5 * 96 + 40;
    for (let i = a; i < a + 12; i++) y[i] = y[a - 1];
    y[3 * 96 + 50] = NaN;
    const out = cleanSeries({ t: y.map((_, i) => START + i * 900_000), y, stepMinutes: 15 }, { maxGapSteps: 24, detectOutliers: false, detectStale: true, seasonalAdjustment: true, kind: 'generic' });
    expect(out.staleIndices).toEqual(Array.from({ length: 12 }, (_, k) => a + k));
    expect(out.quality.slice(a - 1, a + 13)).toEqual(['original', ...new Array(12).fill('stale'), 'original']);
    expect(out.quality[3 * 96 + 50]).toBe('interpolated');
    const rmse = (v: number[]) => Math.sqrt(Array.from({ length: 12 }, (_, k) => (v[a + k] - truth[a + k]) ** 2).reduce((s, e) => s + e, 0) / 12);
    expect(rmse(out.values)).toBeLessThan(0.5 * rmse(y));
    // Without the option nothing is flagged.
    const plain = cleanSeries({ t: y.map((_, i) => START + i * 900_000), y, stepMinutes: 15 }, { maxGapSteps: 24, detectOutliers: false, seasonalAdjustment: true, kind: 'generic' });
    expect(plain.staleIndices).toEqual([]);
    expect(plain.values[a + 3]).toBe(y[a + 3]);
  });
});
