import { daylightMask, intervalHits, localMidnightOrigins, pooledRmse, PERSISTENCE_MAX_INDEX, reportStart, smartPersistence, squaredErrors } from '../../bench/pv/evaluate';
import { feedRows } from '../../bench/pv/feed';
import { centroidShiftMinutes, directColumnEvidence, labelFromShift } from '../../bench/pv/labelling';
import { openMeteoBody } from '../../bench/pv/open-meteo-stand-in';
import { windowStarts } from '../../bench/pv/specs';
import { OPEN_METEO_HOURLY } from '../../shared/weather-providers/open-meteo';

const MIN = 60_000;
const HOUR = 3_600_000;

describe('localMidnightOrigins', () => {
  it('gives one origin a day at local standard-time midnight', () => {
    // Two days of 15-minute steps from 2016-07-01 00:00 at UTC-7 (07:00Z).
    const start = Date.UTC(2016, 6, 1, 7);
    const t = Array.from({ length: 2 * 96 }, (_, i) => start + i * 15 * MIN);
    expect(localMidnightOrigins(t, 15, -7)).toEqual([0, 96]);
  });

  it('takes the step whose middle is midnight on a grid offset from the hour', () => {
    // PVOD: steps start at 23:52:30 local (UTC+8); the step starting there holds midnight at its middle.
    const start = Date.UTC(2018, 5, 30, 15, 52, 30);
    const t = Array.from({ length: 3 * 96 }, (_, i) => start + i * 15 * MIN);
    expect(localMidnightOrigins(t, 15, 8)).toEqual([0, 96, 192]);
    expect(reportStart([0, 96, 192], 2, t.length)).toBe(192);
    expect(reportStart([0, 96, 192], 3, t.length)).toBe(t.length);
  });
});

describe('daylightMask', () => {
  it('keeps steps with the sun up or power measured, and drops the rest', () => {
    // The equinox at 0 N 0 E: the sun rises about 06:00 UTC and sets about 18:00.
    const day = Date.UTC(2024, 2, 20);
    const t = [2, 5.5, 12, 20].map((h) => day + h * HOUR);
    const measured = [0, 0, 3, 0.2];
    expect(daylightMask(t, 15, measured, { latitude: 0, longitude: 0 })).toEqual([false, false, true, true]);
    expect(daylightMask(t, 15, [-0.01, 0, 0, 0], { latitude: 0, longitude: 0 })).toEqual([false, false, true, false]);
  });
});

describe('smartPersistence', () => {
  // A tiny day of 4 steps: yesterday's clear-sky output and power, then today's clear-sky output.
  const clear = [0, 2, 4, 2, 0, 3, 5, 1];
  const measured = [0, 1, 4, 0.1, NaN, NaN, NaN, NaN];

  it("carries each step's clear-sky index from the day before onto today's clear-sky output", () => {
    // Indices 0.5, 1 and 0.05 at steps 1-3 (all above 10% of yesterday's peak of 4).
    const forecast = smartPersistence(measured, clear, 4, 4, 4);
    expect(forecast[0]).toBe(0);
    expect(forecast[1]).toBeCloseTo(1.5, 12);
    expect(forecast[2]).toBeCloseTo(5, 12);
    expect(forecast[3]).toBeCloseTo(0.05, 12);
  });

  it("falls back to yesterday's energy index where a step's own is undefined or the clear sky was small", () => {
    const dim = [0, 0.2, 4, 2, 0, 3, 5, 1];
    const gaps = [0, 0.5, 4, NaN, NaN, NaN, NaN, NaN];
    const forecast = smartPersistence(gaps, dim, 4, 4, 4);
    // Energy index over steps with clear sky and a measurement: (0.5 + 4) / (0.2 + 4) = 1.0714...
    const dayIndex = 4.5 / 4.2;
    expect(forecast[1]).toBeCloseTo(dayIndex * 3, 12); // 0.2 < 10% of the peak 4
    expect(forecast[2]).toBeCloseTo(5, 12);
    expect(forecast[3]).toBeCloseTo(dayIndex * 1, 12); // no measurement yesterday
  });

  it('bounds the index and gives NaN without a day before', () => {
    const forecast = smartPersistence([0, 9, 4, 2, NaN, NaN, NaN, NaN], clear, 4, 4, 4);
    expect(forecast[1]).toBeCloseTo(PERSISTENCE_MAX_INDEX * 3, 12);
    expect(smartPersistence(measured, clear, 2, 4, 4).every(Number.isNaN)).toBe(true);
  });
});

describe('scores', () => {
  it('pools squared errors over kept, finite steps', () => {
    const a = squaredErrors([1, 2, 3, NaN], [1, 4, 0, 1], [true, true, false, true]);
    expect(a).toEqual({ sse: 4, n: 2 });
    const b = squaredErrors([0], [3], [true]);
    expect(pooledRmse([a, b])).toBeCloseTo(Math.sqrt(13 / 3), 12);
    expect(pooledRmse([])).toBeNaN();
  });

  it('counts interval hits over kept steps', () => {
    expect(intervalHits([0, 1, 2, 0], [2, 3, 4, 1], [1, 5, 2, 9], [true, true, true, false])).toEqual({ inside: 2, n: 3 });
  });
});

describe('labelling', () => {
  it('measures the shift of a production-weighted centroid against a reference', () => {
    // A symmetric day centred on 12:00 UTC, and the same shape sampled 7.5 minutes late.
    const t = Array.from({ length: 96 }, (_, i) => Date.UTC(2020, 5, 1) + i * 15 * MIN);
    const bump = (x: number) => Math.max(0, Math.cos(((x - Date.UTC(2020, 5, 1, 12)) / (6 * HOUR)) * (Math.PI / 2)));
    const reference = t.map(bump);
    const late = t.map((x) => bump(x - 7.5 * MIN));
    expect(centroidShiftMinutes(t, late, reference, 0)).toBeCloseTo(7.5, 1);
    expect(centroidShiftMinutes(t, reference, reference, 0)).toBeCloseTo(0, 9);
    expect(labelFromShift(7.1)).toBe('end');
    expect(labelFromShift(-1.5)).toBe('middle');
    expect(labelFromShift(-5)).toBe('start');
  });

  it('turns a feed into interval-end rows by its labelling, with DHI from the direct horizontal', () => {
    const stamp = Date.UTC(2018, 6, 1, 4);
    const feed = [{ stamp, ghiWm2: 800, directHorizontalWm2: 650, tempAirC: 30, windSpeedMs: 2 }];
    expect(feedRows(feed, 'start')[0]).toEqual({ end: stamp + 15 * MIN, ghiWm2: 800, tempAirC: 30, windSpeedMs: 2 });
    expect(feedRows(feed, 'middle')[0].end).toBe(stamp + 7.5 * MIN);
    expect(feedRows(feed, 'end', 'dhi = ghi - direct horizontal')[0]).toEqual({ end: stamp, ghiWm2: 800, dhiWm2: 150, tempAirC: 30, windSpeedMs: 2 });
  });
});

describe('directColumnEvidence', () => {
  // The equinox at 0 N 0 E: the sun near the zenith at 12:00 UTC, about 75 degrees down at 17:00.
  const day = Date.UTC(2024, 2, 20);
  const stamps = [11.5, 12, 12.5, 16.8, 17, 17.2].map((h) => day + h * HOUR);
  const cosZ = (t: number) => Math.max(0.05, Math.cos((((t - day) / HOUR - 12) / 12) * Math.PI));

  it('tells direct on the horizontal (never above GHI, a steady share of it) from direct normal', () => {
    const horizontal = stamps.map((stamp) => ({ stamp, ghiWm2: 600, directHorizontalWm2: 480 }));
    expect(directColumnEvidence(horizontal, { latitude: 0, longitude: 0 })).toMatchObject({ rows: 6, shareAboveGhi: 0, verdict: 'direct horizontal' });
    const normal = stamps.map((stamp) => ({ stamp, ghiWm2: 600, directHorizontalWm2: 480 / cosZ(stamp) }));
    const evidence = directColumnEvidence(normal, { latitude: 0, longitude: 0 })!;
    expect(evidence.verdict).toBe('direct normal');
    expect(evidence.ratioLowSun).toBeGreaterThan(2 * evidence.ratioHighSun);
  });
});

describe('spec-inference windows', () => {
  it('spreads windows from the first to the last possible start', () => {
    expect(windowStarts(100, 30, 3)).toEqual([0, 35, 70]);
    expect(windowStarts(20, 30, 3)).toEqual([]);
  });
});

describe('the Open-Meteo stand-in', () => {
  it("answers in Open-Meteo's hourly format, dark at night and sunny at noon", () => {
    const body = openMeteoBody(38.18, 117.46, '2024-06-20', '2024-06-21') as { hourly: Record<string, (string | number)[]> };
    expect(body.hourly.time).toHaveLength(48);
    expect(body.hourly.time[0]).toBe('2024-06-20T00:00');
    for (const name of OPEN_METEO_HOURLY) expect(body.hourly[name]).toHaveLength(48);
    // Hebei: 16:00 UTC is midnight local; the hour ending 05:00 UTC is around solar noon (about 04:10 UTC).
    expect(body.hourly.shortwave_radiation[16]).toBe(0);
    expect(body.hourly.shortwave_radiation[5]).toBeGreaterThan(700);
  });
});

