/**
 * Detection precision and recall on injected faults, across seasons and latitudes (issue 21).
 *
 * Series, 30 days each, two seasons per site:
 *  - real: PVOD station 01 (20 MW, Hebei, 38.18 N; December and July) and SERF East (5.4 kW, Golden CO, 39.74 N;
 *    July, and September to October as autumn: the file has no winter), their measured output as published;
 *  - synthetic, where no measured output exists at that latitude: clear-sky output of a 10 kW array (Ineichen &
 *    Perez GHI x 0.85 kW per kW/m2, capped at the rating) times a measured clear-sky index: at Berlin (52.52 N,
 *    hourly) Elia's Belgian solar fleet (50.8 N, hourly, 2019: the only measured clouds at that latitude here; a
 *    fleet average, smoother than one roof), at Nairobi (1.29 S) and Sydney (33.87 S, 15 minutes) PVOD's measured
 *    GHI over clear sky from the same season of its year (for Sydney the opposite calendar month).
 * Faults injected on distinct days (TRIALS seeds per series): a dead inverter (zero for 2-4 whole days), trips
 * (zero for 1.5-4 h around noon), stuck readings (a morning value of at least 5% of the rating held 2-6 h),
 * spikes (one step reading 1.15x the rating, 09:00-10:30 or 13:30-15:00 solar time) and a derate (output limited
 * to half the day's clear-sky peak, 09:00-15:00 solar time, 3 days, regulated within 0.1% of the rating; counted
 * only where the limit bit). Scored per alarm: recall is the share of injected faults that an anomaly of the
 * family's kinds overlaps; precision the share of such anomalies that overlap a fault of the family. Critical
 * anomalies overlapping no injected fault are counted apart (cloudy hours flagged critical).
 * PVOD's own faults count with the injected ones: its outages (zero output for 45 minutes or more under a
 * measured GHI of 200 W/m2 or more: 2018-12-27 03:15-05:45 UTC, and a late start 2018-12-26 01:30-02:15 UTC) as
 * trips, its stuck logger (one non-zero value for two hours or more: 15,522.01 kW from 2018-12-08 06:00 UTC into
 * the next day) as a stuck value.
 */
import { clearSkyProfile } from '../shared/domain/forecasting/solar';
import { detectAnomalies, type Anomaly, type AnomalyKind, type OutputSeries } from '../shared/domain/operations/detection';
import { mulberry32 } from '../shared/domain/seeded-random';
import { numbers, parseTime, readCsv, readCsvColumns, SERF_EAST_SITE } from './shared-data';
import { DAY_MS, HOUR_MS } from '../shared/domain/time';

const DAYS = 30;
const TRIALS = 3;
const MAX_INDEX = 1.3;

type Injection = 'outage' | 'trip' | 'stuck' | 'spike' | 'derate';
type Season = 'winter' | 'summer' | 'autumn';
interface Site {
  name: string;
  latitude: number;
  longitude: number;
}
interface Case {
  site: string;
  season: Season;
  data: string;
  series: OutputSeries;
  capacityKw: number;
  latitude: number;
  longitude: number;
  /** Faults the measured series itself holds (counted with the injected ones). */
  known?: Fault[];
}
interface Fault {
  kind: Injection;
  start: number;
  end: number;
}

/** The kinds an injected fault is found as. */
const FOUND_AS: Record<Injection, readonly AnomalyKind[]> = {
  outage: ['zero_output'],
  trip: ['zero_output'],
  stuck: ['flatline'],
  spike: ['spike', 'impossible_value'],
  derate: ['clipping', 'underperformance'],
};
/** Families scored for precision: the injections that share kinds are scored together. */
const FAMILIES: Record<string, readonly Injection[]> = { 'zero output (outage + trip)': ['outage', 'trip'], 'stuck value': ['stuck'], spike: ['spike'], derate: ['derate'] };

const BERLIN: Site = { name: 'Berlin 52.5N (synthetic, Belgian clouds)', latitude: 52.52, longitude: 13.405 };
const NAIROBI: Site = { name: 'Nairobi 1.3S (synthetic, PVOD clouds)', latitude: -1.29, longitude: 36.82 };
const SYDNEY: Site = { name: 'Sydney 33.9S (synthetic, PVOD clouds)', latitude: -33.87, longitude: 151.21 };
const PVOD = { latitude: 38.18306, longitude: 117.45722, capacityKw: 20_000 };
const BRUSSELS = { latitude: 50.85, longitude: 4.35 };

const solarHour = (t: number, longitude: number) => ((((t + (longitude / 15) * HOUR_MS) % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
const clearSky = (t: readonly number[], stepMinutes: number, site: { latitude: number; longitude: number }) => clearSkyProfile(t, stepMinutes, { ...site, estimated: false }, 'instant');

/** A clear-sky index by day and solar hour (NaN at night), from a measured series and its clear sky. */
interface IndexSource {
  /** Index at day k of the source window and solar hour h (nearest measured hour of that day). */
  at: (day: number, hour: number) => number;
}

function indexSource(t: readonly number[], ratio: readonly number[], longitude: number, from: number): IndexSource {
  const days = new Map<number, { hour: number; k: number }[]>();
  t.forEach((x, i) => {
    if (x < from || x >= from + DAYS * DAY_MS || !Number.isFinite(ratio[i])) return;
    const day = Math.floor((x - from) / DAY_MS);
    const list = days.get(day) ?? days.set(day, []).get(day)!;
    list.push({ hour: solarHour(x, longitude), k: Math.min(MAX_INDEX, Math.max(0, ratio[i])) });
  });
  return {
    at: (day, hour) => {
      const list = days.get(day % DAYS) ?? [];
      let best = { d: Infinity, k: 1 };
      for (const p of list) if (Math.abs(p.hour - hour) < best.d) best = { d: Math.abs(p.hour - hour), k: p.k };
      return best.k;
    },
  };
}

let pvodRows: Record<string, string[]> | undefined;
const pvod = () => (pvodRows ??= readCsvColumns('solar/pvod_station01_15min.csv'));

/** PVOD's measured GHI over Ineichen clear sky, for the 30 days from `from`. */
function pvodIndex(from: number): IndexSource {
  const rows = pvod();
  const t = rows.timestamp.map((s) => Date.parse(s));
  const ghi = numbers(rows.ghi_measured_wm2);
  const clear = clearSky(t, 15, PVOD);
  return indexSource(t, t.map((_, i) => (clear[i] > 50 ? ghi[i] / clear[i] : NaN)), PVOD.longitude, from);
}

/** Elia's Belgian solar fleet: output per capacity over clear sky at Brussels, scaled so a clear noon is 1 (the month's 95th percentile). */
function eliaIndex(from: number): IndexSource {
  const rows = readCsvColumns('prices/belgium_belpex_elia_2015_2020_hourly.csv');
  const t = rows.timestamp.map((s) => Date.parse(s));
  const keep = t.map((x) => x >= from && x < from + DAYS * DAY_MS);
  const tt = t.filter((_, i) => keep[i]);
  const share = numbers(rows.solar_actual_mw).map((v, i) => v / Number(rows.solar_capacity_mw[i])).filter((_, i) => keep[i]);
  // The hour's mean output against the clear sky at its middle.
  const clear = clearSky(tt.map((x) => x + HOUR_MS / 2), 60, BRUSSELS);
  const raw = tt.map((_, i) => (clear[i] > 50 ? share[i] / clear[i] : NaN));
  const sorted = raw.filter(Number.isFinite).sort((a, b) => a - b);
  const scale = sorted[Math.floor(0.95 * (sorted.length - 1))];
  return indexSource(tt.map((x) => x + HOUR_MS / 2), raw.map((r) => r / scale), BRUSSELS.longitude, from);
}

/** A 10 kW array's output at a site: clear sky x the index source at the same solar hour, at most the rating, rounded to watts. */
function synthetic(site: Site, season: Season, start: number, stepMinutes: number, index: IndexSource): Case {
  const capacityKw = 10;
  const t = Array.from({ length: (DAYS * 24 * 60) / stepMinutes }, (_, i) => start + i * stepMinutes * 60_000);
  const clear = clearSky(t, stepMinutes, site);
  const powerKw = t.map((x, i) => {
    if (clear[i] === 0) return -0.002; // self-consumption at night
    const day = Math.floor((x - start) / DAY_MS);
    // Cloud enhancement can lift the array above clear sky, never the inverter above its rating.
    return Math.round(Math.min(capacityKw, ((0.85 * capacityKw * clear[i]) / 1000) * index.at(day, solarHour(x, site.longitude))) * 1000) / 1000;
  });
  return { site: site.name, season, data: 'synthetic', series: { t, powerKw, stepMinutes }, capacityKw, latitude: site.latitude, longitude: site.longitude };
}

function pvodCase(season: Season, start: number): Case {
  const rows = pvod();
  const t = rows.timestamp.map((s) => Date.parse(s));
  const power = numbers(rows.power_kw);
  const keep = t.map((x) => x >= start && x < start + DAYS * DAY_MS);
  // The plant's own outages: no output for 45 minutes or more while its pyranometer read at least 200 W/m2.
  const ghi = numbers(rows.ghi_measured_wm2);
  const known: Fault[] = [];
  let from = -1;
  for (let i = 0; i <= t.length; i++) {
    const dark = i < t.length && keep[i] && power[i] <= 0 && ghi[i] >= 200;
    if (dark && from < 0) from = i;
    if (dark || from < 0) continue;
    if (i - from >= 3) known.push({ kind: 'trip', start: t[from], end: t[i - 1] });
    from = -1;
  }
  // ...and its stuck logger: one non-zero value repeated for two hours or more (15,522.01 kW from 2018-12-08 06:00 UTC, through the night).
  for (let i = 1, start = 0; i <= t.length; i++) {
    if (i < t.length && keep[i] && power[i] === power[start] && power[i] > 0) continue;
    if (i - start >= 8 && keep[start] && power[start] > 0) known.push({ kind: 'stuck', start: t[start + 1], end: t[i - 1] });
    start = i;
  }
  return { site: 'PVOD station 01, Hebei 38.2N (real)', season, data: 'real', series: { t: t.filter((_, i) => keep[i]), powerKw: power.filter((_, i) => keep[i]), stepMinutes: 15 }, ...PVOD, known };
}

function serfCase(season: Season, start: number): Case {
  const rows = readCsv('solar/serf_east_15min_ac_power.csv');
  const t = rows.map((r) => parseTime(r[0]));
  const keep = t.map((x) => x >= start && x < start + DAYS * DAY_MS);
  return { site: 'SERF East, Golden 39.7N (real)', season, data: 'real', series: { t: t.filter((_, i) => keep[i]), powerKw: rows.map((r) => Number(r[1]) / 1000).filter((_, i) => keep[i]), stepMinutes: 15 }, capacityKw: 5.4, ...SERF_EAST_SITE };
}

/** Faults injected into a copy of the series on distinct days; the injected intervals. */
function inject(c: Case, seed: number): { series: OutputSeries; faults: Fault[] } {
  const random = mulberry32(seed);
  const { t, stepMinutes } = c.series;
  const y = [...c.series.powerKw];
  const clear = clearSky(t, stepMinutes, c).map((g) => Math.min(c.capacityKw, (0.85 * c.capacityKw * g) / 1000));
  const steps = (from: number, to: number) => t.map((_, i) => i).filter((i) => t[i] >= from && t[i] < to);
  const peakOf = (day: number) => Math.max(0, ...steps(t[0] + day * DAY_MS, t[0] + (day + 1) * DAY_MS).map((i) => clear[i]));
  /** Epoch ms of solar hour h (0-24) of the `day`th solar day that starts after the series does. */
  const at = (day: number, h: number) => {
    const base = t[0] + day * DAY_MS;
    return base + (((24 - solarHour(base, c.longitude)) % 24) + h) * HOUR_MS;
  };
  const free = Array.from({ length: DAYS - 5 }, (_, k) => k + 2);
  const take = () => free.splice(Math.floor(random() * free.length), 1)[0];
  const faults: Fault[] = [];
  // A dead inverter: 2-4 whole days at zero.
  const outageDays = 2 + Math.floor(random() * 3);
  const first = take();
  for (let d = 1; d < outageDays; d++) if (free.includes(first + d)) free.splice(free.indexOf(first + d), 1);
  const outage = steps(at(first, 0), at(first + outageDays - 1, 24)).filter((i) => clear[i] > 0);
  for (const i of outage) y[i] = 0;
  faults.push({ kind: 'outage', start: t[outage[0]], end: t[outage[outage.length - 1]] });
  for (let k = 0; k < 2; k++) {
    const day = take();
    const from = at(day, 10 + random() * 1.5);
    const idx = steps(from, from + (1.5 + random() * 2.5) * HOUR_MS);
    for (const i of idx) y[i] = 0;
    faults.push({ kind: 'trip', start: t[idx[0]], end: t[idx[idx.length - 1]] });
  }
  for (let k = 0; k < 2; k++) {
    const day = take();
    // Held at the first reading of the morning that is at least 5% of the rating: a reading stuck at zero is zero output.
    const start = at(day, 8.5 + random() * 2);
    const first = steps(start, at(day, 14)).find((i) => y[i] >= 0.05 * c.capacityKw) ?? steps(start, Infinity)[0];
    const idx = steps(t[first], t[first] + (2 + random() * 4) * HOUR_MS);
    for (const i of idx) y[i] = y[idx[0]];
    faults.push({ kind: 'stuck', start: t[idx[1]], end: t[idx[idx.length - 1]] });
  }
  for (let k = 0; k < 4; k++) {
    const day = take();
    // Mid-morning or mid-afternoon: at noon on a summer day a reading near the rating is what a bright sky gives.
    const [i] = steps(at(day, random() < 0.5 ? 9 + 1.5 * random() : 13.5 + 1.5 * random()), Infinity);
    y[i] = 1.15 * c.capacityKw;
    faults.push({ kind: 'spike', start: t[i], end: t[i] });
  }
  const derateFrom = take();
  for (const d of [1, 2]) if (free.includes(derateFrom + d)) free.splice(free.indexOf(derateFrom + d), 1);
  const bit: number[] = [];
  for (let d = derateFrom; d < Math.min(DAYS, derateFrom + 3); d++) {
    const limit = 0.5 * peakOf(d);
    for (const i of steps(at(d, 9), at(d, 15))) {
      // An inverter regulating to a limit moves around it by a few tenths of a per cent of its rating.
      if (y[i] > limit) [y[i], bit[bit.length]] = [limit + 0.002 * c.capacityKw * (random() - 0.5), i];
    }
  }
  // The limit bites only under sun: a derate hidden by clouds is no fault the data can show.
  if (bit.length) faults.push({ kind: 'derate', start: t[bit[0]], end: t[bit[bit.length - 1]] });
  return { series: { ...c.series, powerKw: y.map((v) => Math.round(v * 1e4) / 1e4) }, faults };
}

const overlaps = (a: Anomaly, f: Fault) => a.start <= f.end && a.end >= f.start;

interface Tally {
  injected: number;
  found: number;
  alarms: number;
  trueAlarms: number;
}
const emptyTally = (): Tally => ({ injected: 0, found: 0, alarms: 0, trueAlarms: 0 });
const ratio = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 1000 : null);

/** Precision and recall per fault family, season and site; and critical anomalies outside the injected faults. */
export async function benchInjectedFaults() {
  const cases: Case[] = [
    pvodCase('winter', Date.UTC(2018, 11, 1)),
    pvodCase('summer', Date.UTC(2018, 6, 1)),
    serfCase('summer', Date.UTC(2016, 6, 2, 7)),
    serfCase('autumn', Date.UTC(2016, 8, 10, 7)),
    synthetic(BERLIN, 'winter', Date.UTC(2026, 10, 1), 60, eliaIndex(Date.UTC(2019, 10, 1))),
    synthetic(BERLIN, 'summer', Date.UTC(2026, 5, 1), 60, eliaIndex(Date.UTC(2019, 5, 1))),
    synthetic(NAIROBI, 'winter', Date.UTC(2026, 6, 1), 15, pvodIndex(Date.UTC(2018, 6, 1))),
    synthetic(NAIROBI, 'summer', Date.UTC(2026, 0, 1), 15, pvodIndex(Date.UTC(2018, 11, 1))),
    synthetic(SYDNEY, 'winter', Date.UTC(2026, 6, 1), 15, pvodIndex(Date.UTC(2018, 11, 1))),
    synthetic(SYDNEY, 'summer', Date.UTC(2026, 0, 1), 15, pvodIndex(Date.UTC(2018, 6, 1))),
  ];
  const recall = new Map<string, Tally>();
  const precision = new Map<string, Tally>();
  const bump = (map: Map<string, Tally>, key: string, f: (t: Tally) => void) => f(map.get(key) ?? map.set(key, emptyTally()).get(key)!);
  const perCase: Record<string, unknown>[] = [];
  let criticalOutside = 0;
  const criticalKinds = new Map<string, Tally>();
  let criticalOnClean = 0;
  const started = performance.now();
  for (const c of cases) {
    const asset = { capacityKw: c.capacityKw, latitude: c.latitude, longitude: c.longitude };
    const clean = detectAnomalies(c.series, asset);
    const cleanCritical = clean.anomalies.filter((a) => a.severity === 'critical' && !(c.known ?? []).some((f) => overlaps(a, f))).length;
    criticalOnClean += cleanCritical;
    const row: Record<string, unknown> = { site: c.site, season: c.season, step_minutes: c.series.stepMinutes, critical_on_clean_series: cleanCritical };
    for (let trial = 0; trial < TRIALS; trial++) {
      const injected = inject(c, 1000 * trial + c.series.t.length + Math.round(c.latitude));
      const series = injected.series;
      const faults = [...injected.faults, ...(c.known ?? [])];
      const { anomalies } = detectAnomalies(series, asset);
      for (const f of faults) {
        const found = anomalies.some((a) => FOUND_AS[f.kind].includes(a.kind) && overlaps(a, f));
        for (const key of [`${f.kind}|${c.season}`, `${f.kind}|${c.season}|${c.site}`]) bump(recall, key, (t) => ((t.injected += 1), (t.found += found ? 1 : 0)));
      }
      for (const [family, injections] of Object.entries(FAMILIES)) {
        const kinds = new Set(injections.flatMap((k) => FOUND_AS[k]));
        for (const a of anomalies.filter((x) => kinds.has(x.kind))) {
          const hit = faults.some((f) => injections.includes(f.kind) && overlaps(a, f));
          for (const key of [`${family}|${c.season}`, `${family}|${c.season}|${c.site}`]) bump(precision, key, (t) => ((t.alarms += 1), (t.trueAlarms += hit ? 1 : 0)));
        }
      }
      const outside = anomalies.filter((a) => a.severity === 'critical' && !faults.some((f) => overlaps(a, f)));
      criticalOutside += outside.length;
      for (const a of outside) bump(criticalKinds, a.kind, (t) => (t.alarms += 1));
    }
    perCase.push(row);
  }
  const table = (keyOf: (season: Season, site?: string) => string[]) => {
    const rows: Record<string, unknown>[] = [];
    for (const season of ['winter', 'summer', 'autumn'] as const) {
      for (const [family, injections] of Object.entries(FAMILIES)) {
        const p = precision.get(keyOf(season).map((k) => `${family}|${k}`)[0]) ?? emptyTally();
        const r = injections.map((inj) => recall.get(`${inj}|${keyOf(season)[0]}`) ?? emptyTally());
        rows.push({
          family,
          season,
          precision: ratio(p.trueAlarms, p.alarms),
          alarms: p.alarms,
          ...Object.fromEntries(injections.map((inj, k) => [`recall_${inj}`, ratio(r[k].found, r[k].injected)])),
          injected: r.reduce((s, t) => s + t.injected, 0),
        });
      }
    }
    return rows;
  };
  const bySeason = table((season) => [season]);
  const bySite = cases.map((c) => ({
    site: c.site,
    season: c.season,
    ...Object.fromEntries(
      (['outage', 'trip', 'stuck', 'spike', 'derate'] as const).map((inj) => {
        const r = recall.get(`${inj}|${c.season}|${c.site}`) ?? emptyTally();
        return [`recall_${inj}`, ratio(r.found, r.injected)];
      }),
    ),
    ...Object.fromEntries(
      Object.keys(FAMILIES).map((family) => {
        const p = precision.get(`${family}|${c.season}|${c.site}`) ?? emptyTally();
        return [`precision_${family.split(' ')[0]}`, ratio(p.trueAlarms, p.alarms)];
      }),
    ),
  }));
  return {
    method: 'faults injected into 30-day series (real PVOD and SERF East; synthetic clear sky x measured clouds at Berlin, Nairobi, Sydney), ' + `${TRIALS} seeds each; scored per alarm (bench/operations-faults.ts)`,
    seconds: Math.round(performance.now() - started) / 1000,
    by_family_and_season: bySeason,
    by_site: bySite,
    critical_anomalies_outside_injected_faults: criticalOutside,
    critical_outside_by_kind: Object.fromEntries([...criticalKinds].map(([k, t]) => [k, t.alarms])),
    critical_anomalies_on_clean_series: criticalOnClean,
    clean_series: perCase,
  };
}

/** The by-season table as Markdown. */
export function faultTableMarkdown(rows: readonly Record<string, unknown>[]): string {
  const cell = (v: unknown) => (v === undefined || v === null ? '-' : String(v));
  const lines = ['| family | season | precision | alarms | recall (outage / trip / stuck / spike / derate) | injected |', '|---|---|---|---|---|---|'];
  for (const r of rows) {
    const recalls = Object.entries(r).filter(([k]) => k.startsWith('recall_')).map(([k, v]) => `${k.slice(7)} ${cell(v)}`).join(', ');
    lines.push(`| ${r.family} | ${r.season} | ${cell(r.precision)} | ${r.alarms} | ${recalls} | ${r.injected} |`);
  }
  return lines.join('\n');
}
