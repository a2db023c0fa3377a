/**
 * The whole model chain: its conventions (night, clipping, missing data, horizon), its speed, and its accuracy on
 * a real plant, PVOD station 01 (Yao et al. 2021; ../shared/data/solar), driven by the plant's own measured
 * GHI, DHI, air temperature and wind.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { clearSkyWeather, simulatePv } from '../../../shared/domain/pv/system-model';
import type { PvStepResult, PvSystem, PvWeatherStep } from '../../../shared/domain/pv/types';
import { dayOfYear, extraterrestrialIrradiance, ineichenPerez } from '../../../shared/domain/weather/clear-sky';
import { solarPosition } from '../../../shared/domain/weather/solar-position';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** PVOD station 01 as published: 74,000 x 270 Wp modules, 40 x 500 kW inverters, 33 degrees facing south. */
const PVOD: PvSystem = { latitude: 38.18306, longitude: 117.45722, elevationM: 0, capacityKwp: 19_980, tiltDeg: 33, azimuthDeg: 180, lossesPct: 14, inverterAcKw: 20_000 };

const stepsFrom = (startIso: string, count: number, stepMinutes: number) => Array.from({ length: count }, (_, i) => Date.parse(startIso) + i * stepMinutes * MINUTE);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('simulatePv: conventions', () => {
  const starts = stepsFrom('2018-06-21T00:00:00Z', 96, 15);
  const results = simulatePv(PVOD, clearSkyWeather(PVOD, starts, 15), 15);

  it('is exactly 0 while the sun is down at the step middle, with the cells at air temperature', () => {
    const night = results.filter((r) => r.zenithDeg >= 90);
    expect(night.length).toBeGreaterThan(30);
    for (const r of night) expect([r.acKw, r.dcKw, r.poaWm2, r.effectiveIrradianceWm2, r.clearSkyGhiWm2, r.cellTempC]).toEqual([0, 0, 0, 0, 0, 20]);
    expect(results.filter((r) => r.zenithDeg < 80).every((r) => r.acKw > 0)).toBe(true);
  });

  it('evaluates the sun at the middle of each step', () => {
    const r = results[16]; // 04:00-04:15 UTC, about solar noon
    const sun = solarPosition(new Date(r.t + 7.5 * MINUTE), PVOD.latitude, PVOD.longitude);
    expect(Math.abs(r.zenithDeg - sun.zenithDeg)).toBeLessThan(0.002);
    expect(Math.abs(r.solarAzimuthDeg - sun.azimuthDeg)).toBeLessThan(0.005);
  });

  it('orders the losses: effective irradiance below the plane of array, AC below DC, hot cells on a clear noon', () => {
    const noon = results[16];
    expect(noon.effectiveIrradianceWm2).toBeLessThan(noon.poaWm2);
    expect(noon.effectiveIrradianceWm2).toBeGreaterThan(0.97 * noon.poaWm2);
    expect(noon.acKw).toBeLessThan(noon.dcKw);
    expect(noon.cellTempC).toBeGreaterThan(45);
    // PVWatts by hand from the chain's own irradiance and temperature: 19,980 x G/1000 x (1 - 0.0037 dT) x 0.86.
    const dc = 19_980 * (noon.effectiveIrradianceWm2 / 1000) * (1 - 0.0037 * (noon.cellTempC - 25)) * 0.86;
    expect(noon.dcKw).toBeCloseTo(dc, 6);
  });

  it('clips at the inverter AC rating', () => {
    const oversized = simulatePv({ ...PVOD, inverterAcKw: 10_000 }, clearSkyWeather(PVOD, starts, 15), 15);
    const peak = Math.max(...oversized.map((r) => r.acKw));
    expect(peak).toBe(10_000);
    expect(oversized.filter((r) => r.acKw === 10_000).length).toBeGreaterThan(10);
    expect(Math.max(...oversized.map((r) => r.dcKw))).toBeGreaterThan(14_000);
  });

  it('answers NaN, not 0, for a daylight step without GHI', () => {
    const weather = clearSkyWeather(PVOD, starts, 15).map((w, i) => (i === 16 ? { t: w.t, ghiWm2: NaN } : w));
    const r = simulatePv(PVOD, weather, 15);
    expect(r[16].acKw).toBeNaN();
    expect(r[15].acKw).toBeGreaterThan(0);
  });

  it('decomposes GHI alone with Erbs, within 5% of the clear-sky day energy from all three components', () => {
    const full = clearSkyWeather(PVOD, starts, 15);
    const ghiOnly = full.map((w) => ({ t: w.t, ghiWm2: w.ghiWm2 }));
    const dniOnly = full.map((w) => ({ t: w.t, ghiWm2: w.ghiWm2, dniWm2: w.dniWm2 }));
    const energy = (weather: PvWeatherStep[]) => sum(simulatePv(PVOD, weather, 15).map((r) => r.acKw));
    expect(Math.abs(energy(ghiOnly) / energy(full) - 1)).toBeLessThan(0.05);
    // With DNI, DHI follows from closure and the day is the same to rounding.
    expect(energy(dniOnly) / energy(full)).toBeCloseTo(1, 6);
  });

  it('offers Hay-Davies and Martin-Ruiz: within 3% of Perez with the physical IAM on a clear day', () => {
    const weather = clearSkyWeather(PVOD, starts, 15);
    const base = sum(results.map((r) => r.acKw));
    for (const options of [{ transposition: 'haydavies' as const }, { iam: 'martin_ruiz' as const }]) {
      const other = sum(simulatePv(PVOD, weather, 15, options).map((r) => r.acKw));
      expect(Math.abs(other / base - 1)).toBeLessThan(0.03);
      expect(other).not.toBe(base);
    }
  });

  it('turns with the array: an east-facing plane peaks before solar noon, a west-facing one after', () => {
    const weather = clearSkyWeather(PVOD, starts, 15);
    const peakStep = (azimuthDeg: number) => {
      const r = simulatePv({ ...PVOD, tiltDeg: 60, azimuthDeg }, weather, 15);
      return r.reduce((best, x, i) => (x.acKw > r[best].acKw ? i : best), 0);
    };
    // Solar noon at 117.46 E on 21 June is about 04:11 UTC, step 16.
    expect(peakStep(90)).toBeLessThan(14);
    expect(peakStep(270)).toBeGreaterThan(18);
  });
});

describe('simulatePv: horizon shading', () => {
  const starts = stepsFrom('2018-12-21T00:00:00Z', 40, 15);
  const weather = clearSkyWeather(PVOD, starts, 15);
  const open = simulatePv(PVOD, weather, 15);

  it('takes the beam away while the sun is behind the profile, and only then', () => {
    // A ridge rising to 35 degrees due south; the winter-solstice noon sun at 38.2 N stands at about 28 degrees.
    const ridge = [
      { azimuthDeg: 150, elevationDeg: 0 },
      { azimuthDeg: 180, elevationDeg: 35 },
      { azimuthDeg: 210, elevationDeg: 0 },
    ];
    const shaded = simulatePv({ ...PVOD, horizon: ridge }, weather, 15);
    const noon = 16;
    expect(shaded[noon].poaWm2).toBeLessThan(0.35 * open[noon].poaWm2);
    expect(shaded[noon].poaWm2).toBeGreaterThan(0);
    // Morning, sun in the south-east below 150 degrees azimuth: only the small loss of sky diffuse.
    const morning = shaded.findIndex((r, i) => r.solarAzimuthDeg < 140 && open[i].acKw > 2000);
    expect(shaded[morning].acKw).toBeLessThan(open[morning].acKw);
    expect(shaded[morning].acKw).toBeGreaterThan(0.98 * open[morning].acKw);
  });

  it('an empty profile changes nothing', () => {
    expect(simulatePv({ ...PVOD, horizon: [] }, weather, 15)).toEqual(open);
  });
});

describe('clearSkyWeather', () => {
  it('gives Ineichen-Perez at the middle of a 15-minute step, and the same GHI as clearSkyGhiWm2', () => {
    const starts = stepsFrom('2019-03-20T02:00:00Z', 4, 15);
    const weather = clearSkyWeather(PVOD, starts, 15);
    const results = simulatePv(PVOD, weather, 15);
    weather.forEach((w, i) => {
      const middle = new Date(starts[i] + 7.5 * MINUTE);
      const reference = ineichenPerez(solarPosition(middle, PVOD.latitude, PVOD.longitude).zenithDeg, { dniExtra: extraterrestrialIrradiance(dayOfYear(middle)) });
      expect(w.ghiWm2).toBeCloseTo(reference.ghi, 1);
      expect(w.dniWm2).toBeCloseTo(reference.dni, 1);
      expect(w.dhiWm2).toBeCloseTo(reference.dhi, 1);
      expect(results[i].clearSkyGhiWm2).toBe(w.ghiWm2);
    });
  });

  it('averages four samples over an hour, so the sunrise hour is lit though its middle is not', () => {
    const starts = stepsFrom('2019-03-20T21:00:00Z', 2, 60); // sunrise about 22:10 UTC
    const weather = clearSkyWeather(PVOD, starts, 60);
    const middles = [0, 1, 2, 3].map((k) => new Date(starts[1] + (k * 15 + 7.5) * MINUTE));
    const mean = sum(middles.map((m) => ineichenPerez(solarPosition(m, PVOD.latitude, PVOD.longitude).zenithDeg, { dniExtra: extraterrestrialIrradiance(dayOfYear(m)) }).ghi)) / 4;
    expect(weather[0].ghiWm2).toBe(0);
    expect(weather[1].ghiWm2).toBeCloseTo(mean, 1);
    expect(weather[1].ghiWm2).toBeGreaterThan(0);
  });
});

/**
 * Timed in a plain Node process: jest's sandbox runs Math's trigonometry over ten times slower than Node itself
 * (measured: 71 ms against 4 ms for the same loop), which would time the sandbox, not the model. The process's CPU
 * time is what is measured: on a machine shared with other test workers, wall time mostly measures the waiting.
 */
const SPEED_SCRIPT = `
import { clearSkyWeather, simulatePv } from './shared/domain/pv/system-model.ts';
const system = ${JSON.stringify(PVOD)};
const steps = (startIso, count) => Array.from({ length: count }, (_, i) => Date.parse(startIso) + i * 900000);
const cpuMs = (run) => { const start = process.cpuUsage(); run(); const used = process.cpuUsage(start); return (used.user + used.system) / 1000; };
const week = clearSkyWeather(system, steps('2019-05-01T00:00:00Z', 672), 15);
const first = cpuMs(() => simulatePv(system, week, 15));
const warm = Math.min(...[1, 2, 3, 4, 5, 6, 7].map(() => cpuMs(() => simulatePv(system, week, 15))));
const year = cpuMs(() => simulatePv(system, clearSkyWeather(system, steps('2019-01-01T00:00:00Z', 365 * 96), 15), 15));
console.log(JSON.stringify({ first, warm, year }));
`;

describe('simulatePv: speed', () => {
  it('runs a 7-day, 15-minute forecast (672 steps) in well under 50 ms, and a year of 15-minute steps under 1.5 s', () => {
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SPEED_SCRIPT], { encoding: 'utf8', timeout: 60_000 });
    expect(out.status).toBe(0);
    const ms = JSON.parse(out.stdout.trim().split('\n').pop()!) as { first: number; warm: number; year: number };
    // The first call compiles and integrates the tilt's diffuse IAM; a serving process has done that already.
    // Measured (CPU ms): first 40-55, then 2-5 (best of 7); the year 230-350, its clear-sky weather included.
    expect(ms.warm).toBeLessThan(25);
    expect(ms.first).toBeLessThan(200);
    expect(ms.year).toBeLessThan(1500);
  });
});

/** PVOD station 01: UTC stamps as published, and the measured weather and production at each. */
function pvodMeasured() {
  const file = path.resolve(process.env.SHARED_DATA ?? path.resolve(__dirname, '../../../../shared/data'), 'solar/pvod_station01_15min.csv');
  const rows = parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return rows.map((r) => ({
    stamp: Date.parse(r.timestamp),
    powerKw: Number(r.power_kw),
    ghi: Number(r.ghi_measured_wm2),
    dhi: Number(r.dhi_measured_wm2),
    tempAirC: Number(r.temp_air_measured_c),
    windSpeedMs: Number(r.wind_speed_measured_ms),
  }));
}

describe('simulatePv on PVOD station 01, with its measured irradiance (one year, 15 minutes)', () => {
  const rows = pvodMeasured();
  /** Weather steps whose interval starts `offsetMinutes` from the stamp (-15: the stamp ends the interval; 0: it starts it). */
  const weatherAt = (offsetMinutes: number): PvWeatherStep[] =>
    rows.map((r) => ({ t: r.stamp + offsetMinutes * MINUTE, ghiWm2: r.ghi, dhiWm2: r.dhi, tempAirC: r.tempAirC, windSpeedMs: r.windSpeedMs }));

  /** Least-squares scale of the model onto the production over daylight, and the errors after it. */
  const score = (model: number[], daylight: number[]) => {
    const k = sum(daylight.map((i) => model[i] * rows[i].powerKw)) / sum(daylight.map((i) => model[i] ** 2));
    const errors = daylight.map((i) => k * model[i] - rows[i].powerKw);
    const meanPower = sum(daylight.map((i) => rows[i].powerKw)) / daylight.length;
    return { k, rmseKw: Math.sqrt(sum(errors.map((e) => e * e)) / daylight.length), biasKw: sum(errors) / daylight.length, meanPower };
  };

  it('reads the irradiance as the mean of the 15 minutes ending at the stamp rather than starting there: clear days line up better', () => {
    // Clear days: a day's measured GHI over its clear-sky GHI at least 0.75, and one rise and one fall (total
    // variation at most 2.1 times the peak). The clear-sky curve is scaled per day (haze), then compared.
    const fit = (offsetMinutes: number) => {
      const sky = clearSkyWeather(PVOD, rows.map((r) => r.stamp + offsetMinutes * MINUTE), 15);
      const days = new Map<number, number[]>();
      rows.forEach((r, i) => {
        const day = Math.floor((r.stamp + (PVOD.longitude / 15) * 3_600_000) / DAY);
        days.set(day, [...(days.get(day) ?? []), i]);
      });
      let squares = 0;
      let count = 0;
      let clearDays = 0;
      for (const day of days.values()) {
        const measured = day.map((i) => rows[i].ghi);
        const clear = day.map((i) => sky[i].ghiWm2);
        let variation = 0;
        for (let k = 1; k < measured.length; k++) variation += Math.abs(measured[k] - measured[k - 1]);
        if (day.length < 96 || sum(measured) < 0.75 * sum(clear) || variation > 2.1 * Math.max(...measured)) continue;
        clearDays++;
        const scale = sum(measured.map((m, k) => m * clear[k])) / sum(clear.map((c) => c * c));
        measured.forEach((m, k) => {
          if (m > 0 || clear[k] > 0) [squares, count] = [squares + (scale * clear[k] - m) ** 2, count + 1];
        });
      }
      return { rmse: Math.sqrt(squares / count), clearDays };
    };
    const [ending, starting] = [fit(-15), fit(0)];
    expect(ending.clearDays).toBeGreaterThan(60);
    expect(ending.rmse).toBeLessThan(starting.rmse);
  });

  it('tracks the production: daylight RMSE under 7.5% of the AC rating after one fitted scale, which sits within 15% of 1', () => {
    const results: PvStepResult[] = simulatePv(PVOD, weatherAt(-15), 15);
    const daylight = results.map((_, i) => i).filter((i) => results[i].zenithDeg < 90 && Number.isFinite(rows[i].powerKw));
    expect(daylight.length).toBeGreaterThan(16_000);
    const model = score(results.map((r) => r.acKw), daylight);
    // Measured: k 1.107 (PVWatts' default 14% of losses is about 10 points too many for this plant), RMSE 6.7%.
    expect(model.k).toBeGreaterThan(1);
    expect(model.k).toBeLessThan(1.15);
    expect(model.rmseKw / PVOD.inverterAcKw).toBeLessThan(0.075);
    expect(Math.abs(model.biasKw / model.meanPower)).toBeLessThan(0.01);
    // Each step of the chain earns its place: horizontal irradiance alone (one scale) gives 11.3%, the plane of
    // array alone 8.6%, the model without its tilt 10.5%.
    const ghiOnly = score(rows.map((r) => r.ghi), daylight);
    const poaOnly = score(results.map((r) => r.poaWm2), daylight);
    const flat = score(simulatePv({ ...PVOD, tiltDeg: 0 }, weatherAt(-15), 15).map((r) => r.acKw), daylight);
    for (const baseline of [ghiOnly, poaOnly, flat]) expect(model.rmseKw).toBeLessThan(0.85 * baseline.rmseKw);
  });
});
