/**
 * Benchmark input for CSV ingestion: one year (2023) of 5-minute data from an 8 kW rooftop system in
 * Berlin, written the way Huawei FusionSolar exports an inverter's history with a few signals chosen
 * (see `shared/domain/ingest/manufacturers.ts`): one header row, commas, `YYYY-MM-DD HH:mm:ss` local
 * wall-clock time with summer-time rows suffixed " DST" (so the repeated autumn hour is told apart by
 * its marker), the mean "Active power(kW)", the "Daily energy(kWh)" counter that resets at midnight,
 * and the "Internal temperature(℃)". One header row of the same width as the data keeps the file
 * readable by a bare csv-parse (the benchmark's baseline) and under the 6 MB request limit.
 *
 * The values are synthetic but physical: solar elevation from the NOAA low-precision equations, a
 * clear-sky shape scaled by a seeded day-to-day and intra-day cloudiness, so every run gives the same
 * 105,120 rows (365 days x 288 intervals; the DST days have 276 and 300 local rows).
 */
import { mulberry32 } from '../shared/domain/seeded-random';
import { DEG } from '../shared/domain/angles';

/** Standardise the generated file with these options. */
export const YEAR_OF_5_MINUTE_OPTIONS = { timezone: 'Europe/Berlin', capacityKw: 8 } as const;

const YEAR = 2023;
const CAPACITY_KW = YEAR_OF_5_MINUTE_OPTIONS.capacityKw;
const LATITUDE = 52.52;
const LONGITUDE = 13.4;

/** EU summer time: from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October. */
function lastSundayAt1Utc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

/** Sine of the solar elevation (NOAA low-precision solar position). */
function sinElevation(utcMs: number): number {
  const day = (utcMs - Date.UTC(YEAR, 0, 1)) / 86_400_000;
  const gamma = (2 * Math.PI * day) / 365;
  const decl =
    0.006918 - 0.399912 * Math.cos(gamma) + 0.070257 * Math.sin(gamma) - 0.006758 * Math.cos(2 * gamma) + 0.000907 * Math.sin(2 * gamma);
  const eqTime = 229.18 * (0.000075 + 0.001868 * Math.cos(gamma) - 0.032077 * Math.sin(gamma) - 0.014615 * Math.cos(2 * gamma) - 0.040849 * Math.sin(2 * gamma));
  const minutesUtc = (utcMs % 86_400_000) / 60_000;
  const hourAngle = ((minutesUtc + eqTime + 4 * LONGITUDE) / 4 - 180) * DEG;
  return Math.sin(LATITUDE * DEG) * Math.sin(decl) + Math.cos(LATITUDE * DEG) * Math.cos(decl) * Math.cos(hourAngle);
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** The whole year as one CSV string (about 4.5 MB, CRLF line ends as Windows-side exports write them). */
export const yearOf5MinuteCsv = (): string => yearCsv(5);

/** The same year at another step (15 or 60 minutes for the training bench), the cloudiness drawn per step. */
export function yearCsv(stepMinutes: number): string {
  const STEP_MS = stepMinutes * 60_000;
  const random = mulberry32(20230101);
  const dstStart = lastSundayAt1Utc(YEAR, 2);
  const dstEnd = lastSundayAt1Utc(YEAR, 9);
  const lines = ['Start Time,Active power(kW),Daily energy(kWh),Internal temperature(℃)'];
  const start = Date.UTC(YEAR, 0, 1) - 3_600_000; // local midnight, CET
  const end = Date.UTC(YEAR + 1, 0, 1) - 3_600_000;
  let dailyKwh = 0;
  let dayClearness = 1;
  let cloud = 1;
  for (let t = start; t < end; t += STEP_MS) {
    const summer = t >= dstStart && t < dstEnd;
    const local = new Date(t + (summer ? 7_200_000 : 3_600_000));
    if (local.getUTCHours() === 0 && local.getUTCMinutes() === 0) {
      dayClearness = 0.25 + 0.75 * random();
      dailyKwh = 0;
    }
    // Intra-day cloudiness: an AR(1) walk around the day's clearness, clipped to [0.05, 1].
    cloud = Math.min(1, Math.max(0.05, cloud + 0.3 * (dayClearness - cloud) + 0.15 * (random() - 0.5)));
    const s = sinElevation(t);
    const powerKw = s > 0 ? Math.round(CAPACITY_KW * 0.9 * Math.pow(s, 1.15) * cloud * 1000) / 1000 : 0;
    dailyKwh += (powerKw * stepMinutes) / 60;
    // Inverter heat sink: ambient by season plus self-heating with load.
    const seasonC = 10 - 9 * Math.cos((2 * Math.PI * (local.getUTCMonth() + 0.5)) / 12);
    const temperatureC = Math.round((seasonC + 4 * powerKw) * 10) / 10;
    const stamp = `${local.getUTCFullYear()}-${pad2(local.getUTCMonth() + 1)}-${pad2(local.getUTCDate())} ${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}:00${summer ? ' DST' : ''}`;
    lines.push(`${stamp},${powerKw.toFixed(3)},${dailyKwh.toFixed(3)},${temperatureC.toFixed(1)}`);
  }
  return lines.join('\r\n') + '\r\n';
}

/** Feeds a text as an upload would arrive: Buffers of `bytes` each (64 KB by default). */
export async function* inChunks(text: string, bytes = 64 * 1024): AsyncGenerator<Buffer> {
  const all = Buffer.from(text, 'utf8');
  for (let i = 0; i < all.length; i += bytes) yield all.subarray(i, i + bytes);
}
