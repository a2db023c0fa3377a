// Builds examples/data/ (the README walkthrough's sample site) from the real data in ../shared/data.
// Run: node --import tsx bin/build-example-data.ts [path/to/shared/data]. The output is committed, so users
// and CI never need ../shared; this script documents exactly how it was made.
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse';
import { isoUtc } from '../shared/domain/ingest/iso';
import { DAY_MS, HOUR_MS } from '../shared/domain/time';

const DATA = resolve(process.argv[2] ?? join(import.meta.dirname, '../../shared/data'));
const OUT = join(import.meta.dirname, '../examples/data');

// PVOD station01 (20 MW) scaled to a 10 kW roof; moved by whole calendar years so each hour keeps its sun.
const PV_SCALE = 10 / 20_000;
const PV_YEARS = 7;
// GEFCom2012 zone 1, scaled to a site whose mean load is 20 kW; moved by whole weeks so weekdays stay weekdays,
// and from the source's local clock (labelled UTC) to the PV site's (UTC+8), so people use power by day there too.
const LOAD_ZONE = 'load_zone01_kw';
const LOAD_MEAN_KW = 20;
const LOAD_SHIFT_MS = 992 * 7 * DAY_MS - 8 * HOUR_MS;
// Belgian day-ahead prices: the 8 weeks before 2020-06-14, moved by whole weeks to end where the site's data ends.
const PRICE_WEEKS = 313;
const PRICE_DAYS = 56;

async function rows(file: string): Promise<Record<string, string>[]> {
  const out: Record<string, string>[] = [];
  for await (const row of createReadStream(join(DATA, file)).pipe(parse({ columns: true }))) out.push(row as Record<string, string>);
  return out;
}

function shiftYears(ms: number, years: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
}

async function main(): Promise<void> {
  // Hourly means of the quarter-hours, each labelled with its hour's start (as the source labels its rows).
  const hourly = new Map<number, number[]>();
  for (const row of await rows('solar/pvod_station01_15min.csv')) {
    const hour = Math.floor(Date.parse(row.timestamp) / HOUR_MS) * HOUR_MS;
    const list = hourly.get(hour) ?? [];
    list.push(Number(row.power_kw));
    hourly.set(hour, list);
  }
  const pv = [...hourly].filter(([, v]) => v.length === 4).map(([t, v]) => [shiftYears(t, PV_YEARS), (v.reduce((a, b) => a + b, 0) / 4) * PV_SCALE] as const);
  const first = pv[0][0];
  const last = pv[pv.length - 1][0];

  const shift = LOAD_SHIFT_MS;
  const load = (await rows('load/gefcom2012_load_temperature_hourly.csv'))
    .map((row) => [Date.parse(row.timestamp) + shift, row[LOAD_ZONE] === '' ? NaN : Number(row[LOAD_ZONE])] as const)
    .filter(([t, v]) => t >= first && t <= last && Number.isFinite(v));
  const mean = load.reduce((a, [, v]) => a + v, 0) / load.length;

  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'pv_hourly.csv'), `timestamp,power_kw\n${pv.map(([t, v]) => `${isoUtc(t)},${v.toFixed(3)}`).join('\n')}\n`);
  writeFileSync(join(OUT, 'load_hourly.csv'), `timestamp,power_kw\n${load.map(([t, v]) => `${isoUtc(t)},${((v * LOAD_MEAN_KW) / mean).toFixed(3)}`).join('\n')}\n`);
  const priceShift = PRICE_WEEKS * 7 * DAY_MS;
  const priceEnd = Date.parse('2020-06-13T22:00:00Z');
  const prices = (await rows('prices/belgium_belpex_elia_2015_2020_hourly.csv'))
    .map((row) => [Date.parse(row.timestamp), row.price_eur_mwh === '' ? NaN : Number(row.price_eur_mwh)] as const)
    .filter(([t, v]) => t > priceEnd - PRICE_DAYS * DAY_MS && t <= priceEnd && Number.isFinite(v));
  writeFileSync(join(OUT, 'prices_hourly.csv'), `timestamp,price_eur_mwh\n${prices.map(([t, v]) => `${isoUtc(t + priceShift)},${v}`).join('\n')}\n`);
  console.log(JSON.stringify({ pv_rows: pv.length, load_rows: load.length, from: isoUtc(first), to: isoUtc(last), load_source_from: isoUtc(load[0][0] - shift), price_rows: prices.length, prices_to: isoUtc(priceEnd + priceShift) }));
}

await main();
