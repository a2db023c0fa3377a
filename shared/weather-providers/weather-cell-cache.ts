/**
 * Open-Meteo through a cache of 0.1-degree cells and UTC days (ARCHITECTURE 9: "responses cached per 0.1 degree cell
 * and hour"): a query is answered for its cell's centre, a day at a time, so one day's forecast for a thousand sites
 * in one city costs one upstream call. Days already cached are read from the store; the missing ones are fetched in
 * contiguous runs, and complete days are stored with a time to live that fits their product.
 */
import type { WeatherPoint } from '../domain/weather/types';
import { log } from '../logger';
import { readWeatherDays, writeWeatherDay } from '../store/weather-cache-repo';
import { lastArchiveDay, type OpenMeteoProvider } from './open-meteo';
import { WeatherUnavailable, type WeatherProvider, type WeatherQuery } from './provider';
import { DAY_MS, HOUR_MS } from '../domain/time';

/** Cell size, degrees: Open-Meteo's finest global models are about 0.1 degree (ICON-D2 2 km, IFS 9 km), so finer cells would ask again for the same grid point. */
export const CELL_DEGREES = 0.1;
/** A forecast changes with every model run (hourly for the rapid-update models): forecast days are kept an hour from their fetch. */
export const FORECAST_CACHE_MS = HOUR_MS;
/** The archive's reanalysis is final once published: archive days are kept 30 days. */
export const ARCHIVE_CACHE_MS = 30 * DAY_MS;

/** Where cached days live; the analytics table by default (shared/store/weather-cache-repo.ts). */
export interface WeatherDayStore {
  read(mode: string, cell: string, days: readonly string[]): Promise<Map<string, WeatherPoint[]>>;
  write(mode: string, cell: string, day: string, points: readonly WeatherPoint[], expiresAtMs: number): Promise<void>;
}

export const DYNAMO_WEATHER_DAYS: WeatherDayStore = { read: (mode, cell, days) => readWeatherDays(mode, cell, days), write: writeWeatherDay };

export interface WeatherCell {
  /** The key: `52.5,13.4`. */
  key: string;
  /** The cell's centre, where the upstream is asked. */
  latitude: number;
  longitude: number;
}

/** The 0.1-degree cell of a place: coordinates rounded to one decimal, longitude wrapped into [-180, 180). */
export function weatherCell(latitude: number, longitude: number): WeatherCell {
  const perDegree = Math.round(1 / CELL_DEGREES);
  const round = (x: number) => Math.round(x * perDegree) / perDegree + 0; // + 0 turns -0 into 0
  const lat = Math.min(90, Math.max(-90, round(latitude)));
  let lon = round(((((longitude + 180) % 360) + 360) % 360) - 180);
  if (lon === 180) lon = -180;
  return { key: `${lat.toFixed(1)},${lon.toFixed(1)}`, latitude: lat, longitude: lon };
}

const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The UTC days that [start, end) touches. */
function utcDays(start: number, end: number): string[] {
  const days: string[] = [];
  for (let t = Math.floor(start / DAY_MS) * DAY_MS; t < end; t += DAY_MS) days.push(isoDay(t));
  return days;
}

/** Consecutive days grouped: ['06-01','06-02','06-05'] -> [['06-01','06-02'],['06-05']]. */
function runs(days: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const day of days) {
    const last = out.at(-1);
    if (last && dayStart(day) - dayStart(last.at(-1)!) === DAY_MS) last.push(day);
    else out.push([day]);
  }
  return out;
}

/**
 * Upstream fetches of this process, under way or finished in the last FETCH_REUSE_MS, so simultaneous misses on one
 * cell share one call: a request whose cache read began before another's fetch stored the days can miss them in the
 * store and still find that fetch here (20 simultaneous requests under load made two calls before).
 */
const fetches = new Map<string, { result: Promise<Map<string, WeatherPoint[]>>; finished?: number }>();
/** How long a finished fetch is kept for requests whose cache read began before it finished (a read takes milliseconds). */
const FETCH_REUSE_MS = 30_000;
/** Orders cache reads and finished fetches exactly (two in the same millisecond included). */
let sequence = 0;

export class CachedOpenMeteo implements WeatherProvider {
  readonly name = 'open-meteo';

  constructor(
    private readonly upstream: OpenMeteoProvider,
    /** null: no cache, every query goes upstream (still for the cell's centre). */
    private readonly store: WeatherDayStore | null,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Hourly points for the query's cell over [start, end): from the cache where it has them, else from Open-Meteo. */
  async hourly(query: WeatherQuery): Promise<WeatherPoint[]> {
    return this.answer(query, true);
  }

  /** The same, from the cache alone: null when any day of the range is not cached (nothing is asked upstream). */
  async cachedOnly(query: WeatherQuery): Promise<WeatherPoint[] | null> {
    return this.answer(query, false).catch((err: unknown) => {
      if (err instanceof NotCached) return null;
      throw err;
    });
  }

  private async answer(query: WeatherQuery, fetchMissing: boolean): Promise<WeatherPoint[]> {
    const [start, end] = [query.start.getTime(), query.end.getTime()];
    if (!(end > start)) return [];
    const cell = weatherCell(query.latitude, query.longitude);
    const mode = query.mode ?? 'history';
    const days = utcDays(start, end);
    const readAt = ++sequence;
    const byDay = await this.read(mode, cell.key, days);
    const missing = days.filter((d) => !byDay.has(d));
    if (missing.length && !fetchMissing) throw new NotCached();
    const fetched = await Promise.all(runs(missing).map((run) => this.fetchRun(mode, cell, run, readAt)));
    for (const got of fetched) for (const [day, points] of got) byDay.set(day, points);
    const points = days.flatMap((d) => byDay.get(d) ?? []).filter((p) => {
      const t = Date.parse(p.timestamp);
      return t >= start && t < end;
    });
    if (!points.length) throw new WeatherUnavailable(`Open-Meteo has no complete hourly data for ${days[0]}..${days.at(-1)}`);
    return points;
  }

  private async read(mode: string, cell: string, days: readonly string[]): Promise<Map<string, WeatherPoint[]>> {
    if (!this.store) return new Map();
    try {
      return await this.store.read(mode, cell, days);
    } catch (err) {
      // A cache that cannot be read costs an upstream call, not the answer.
      log.warn('weather cache read failed', { cell, mode, err });
      return new Map();
    }
  }

  /** The run's days from a fetch under way, or finished after `readAt` (this request's store read began), else a new one. */
  private fetchRun(mode: 'forecast' | 'history', cell: WeatherCell, run: string[], readAt: number): Promise<Map<string, WeatherPoint[]>> {
    const key = `${mode}|${cell.key}|${run[0]}|${run.at(-1)}`;
    const known = fetches.get(key);
    if (known && (known.finished === undefined || known.finished > readAt)) return known.result;
    const entry: { result: Promise<Map<string, WeatherPoint[]>>; finished?: number } = { result: this.fetchAndStore(mode, cell, run) };
    fetches.set(key, entry);
    const settle = () => {
      entry.finished = ++sequence;
      setTimeout(() => fetches.get(key) === entry && fetches.delete(key), FETCH_REUSE_MS).unref();
    };
    // A failed fetch is not reused: the next request asks again.
    entry.result.then(settle, () => fetches.get(key) === entry && fetches.delete(key));
    return entry.result;
  }

  private async fetchAndStore(mode: 'forecast' | 'history', cell: WeatherCell, run: string[]): Promise<Map<string, WeatherPoint[]>> {
    const start = new Date(dayStart(run[0]));
    const end = new Date(dayStart(run.at(-1)!) + DAY_MS);
    const points = await this.upstream.hourly({ latitude: cell.latitude, longitude: cell.longitude, start, end, mode });
    const byDay = new Map<string, WeatherPoint[]>();
    for (const p of points) {
      const day = p.timestamp.slice(0, 10);
      byDay.set(day, [...(byDay.get(day) ?? []), p]);
    }
    if (this.store) {
      const fetchedAt = this.now();
      const archiveLast = lastArchiveDay(fetchedAt);
      // Only whole days are kept: a day with hours missing (the archive not there yet) is asked again next time.
      const complete = [...byDay].filter(([, dayPoints]) => dayPoints.length === 24);
      await Promise.all(
        complete.map(([day, dayPoints]) => {
          const ttl = mode === 'history' && day <= archiveLast ? ARCHIVE_CACHE_MS : FORECAST_CACHE_MS;
          return this.store!.write(mode, cell.key, day, dayPoints, fetchedAt.getTime() + ttl).catch((err: unknown) => log.warn('weather cache write failed', { cell: cell.key, mode, day, err }));
        }),
      );
    }
    return byDay;
  }
}

class NotCached extends Error {}
