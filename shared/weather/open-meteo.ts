/**
 * The Open-Meteo adapter (https://open-meteo.com/en/docs): the forecast API for recent and coming days, the
 * historical archive (ERA5-based reanalysis) for the past. Every failure becomes WeatherUnavailable with
 * a message that says what happened; nothing is retried or invented.
 */
import { z } from 'zod';
import type { WeatherPoint } from '../domain/weather/types';
import { log } from '../http/logger';
import { WeatherUnavailable, type WeatherProvider, type WeatherQuery } from './provider';

/** The hourly variables requested, in WeatherPoint order. */
export const OPEN_METEO_HOURLY = ['temperature_2m', 'shortwave_radiation', 'wind_speed_10m', 'cloud_cover', 'relative_humidity_2m', 'surface_pressure'] as const;

/** Days the archive lags behind today (its reanalysis arrives with a delay); later days come from the forecast API. */
export const ARCHIVE_DELAY_DAYS = 5;

export interface OpenMeteoOptions {
  forecastUrl: string;
  archiveUrl: string;
  /** Per request. */
  timeoutMs: number;
  /** Today's date source, for choosing archive or forecast. @default () => new Date() */
  now?: () => Date;
}

const Series = z.array(z.number().nullable());
const OpenMeteoHourly = z.object({
  utc_offset_seconds: z.number().optional(),
  hourly: z.object({
    time: z.array(z.string()),
    temperature_2m: Series,
    shortwave_radiation: Series,
    wind_speed_10m: Series,
    cloud_cover: Series,
    relative_humidity_2m: Series,
    surface_pressure: Series,
  }),
});
type OpenMeteoBody = z.infer<typeof OpenMeteoHourly>;

const OpenMeteoError = z.object({ error: z.literal(true), reason: z.string().optional() });

const DAY_MS = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const addDays = (day: string, n: number) => isoDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);

interface Segment {
  url: string;
  from: string;
  to: string;
}

export class OpenMeteoProvider implements WeatherProvider {
  readonly name = 'open-meteo';

  constructor(private readonly options: OpenMeteoOptions) {}

  async hourly(query: WeatherQuery): Promise<WeatherPoint[]> {
    const [start, end] = [query.start.getTime(), query.end.getTime()];
    if (!(end > start)) return [];
    const segments = this.plan(isoDay(start), isoDay(end - 1), query.mode ?? 'history');
    const bodies = await Promise.all(segments.map((s) => this.fetchSegment(s, query)));
    const byTime = new Map<number, WeatherPoint>();
    for (const body of bodies) for (const p of toPoints(body)) byTime.set(Date.parse(p.timestamp), p);
    const points = [...byTime.entries()].filter(([t]) => t >= start && t < end).sort(([a], [b]) => a - b).map(([, p]) => p);
    if (!points.length) throw new WeatherUnavailable(`Open-Meteo has no complete hourly data for ${isoDay(start)}..${isoDay(end - 1)}`);
    return points;
  }

  /** UTC days to ask for, and where: the archive up to its delay, the forecast API after it. */
  private plan(first: string, last: string, mode: 'forecast' | 'history'): Segment[] {
    const { forecastUrl, archiveUrl } = this.options;
    if (mode === 'forecast') return [{ url: forecastUrl, from: first, to: last }];
    const archiveLast = addDays(isoDay((this.options.now?.() ?? new Date()).getTime()), -ARCHIVE_DELAY_DAYS);
    if (last <= archiveLast) return [{ url: archiveUrl, from: first, to: last }];
    if (first > archiveLast) return [{ url: forecastUrl, from: first, to: last }];
    return [
      { url: archiveUrl, from: first, to: archiveLast },
      { url: forecastUrl, from: addDays(archiveLast, 1), to: last },
    ];
  }

  private async fetchSegment(segment: Segment, query: WeatherQuery): Promise<OpenMeteoBody> {
    const params = new URLSearchParams({
      latitude: String(query.latitude),
      longitude: String(query.longitude),
      hourly: OPEN_METEO_HOURLY.join(','),
      timezone: 'GMT',
      wind_speed_unit: 'ms',
      start_date: segment.from,
      end_date: segment.to,
    });
    const { timeoutMs } = this.options;
    try {
      const res = await fetch(`${segment.url}?${params}`, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      const text = await res.text();
      const body = parseJson(text);
      const refusal = OpenMeteoError.safeParse(body);
      if (refusal.success) throw new WeatherUnavailable(`Open-Meteo refused the request: ${refusal.data.reason ?? 'no reason given'}`);
      if (!res.ok) throw new WeatherUnavailable(`Open-Meteo answered HTTP ${res.status}`);
      if (body === undefined) throw new WeatherUnavailable('Open-Meteo answered with a body that is not JSON');
      const parsed = OpenMeteoHourly.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new WeatherUnavailable(`Open-Meteo answered in an unexpected format (${issue.path.join('.') || 'body'}: ${issue.message})`);
      }
      return parsed.data;
    } catch (err) {
      const failure = asUnavailable(err, timeoutMs);
      log.warn('weather provider failed', { provider: this.name, host: new URL(segment.url).host, from: segment.from, to: segment.to, reason: failure.message, err });
      throw failure;
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asUnavailable(err: unknown, timeoutMs: number): WeatherUnavailable {
  if (err instanceof WeatherUnavailable) return err;
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new WeatherUnavailable(`Open-Meteo did not answer within ${timeoutMs} ms`);
  return new WeatherUnavailable('Open-Meteo could not be reached');
}

/** Rows with every variable present; Open-Meteo marks missing values with null (for example days the archive has not reached). */
function toPoints(body: OpenMeteoBody): WeatherPoint[] {
  const h = body.hourly;
  const offsetMs = (body.utc_offset_seconds ?? 0) * 1000;
  const n = h.time.length;
  const columns = [h.temperature_2m, h.shortwave_radiation, h.wind_speed_10m, h.cloud_cover, h.relative_humidity_2m, h.surface_pressure];
  if (columns.some((c) => c.length !== n)) throw new WeatherUnavailable('Open-Meteo answered in an unexpected format (hourly arrays of different lengths)');
  const points: WeatherPoint[] = [];
  for (let i = 0; i < n; i++) {
    // ISO 8601 local time without offset ("2024-06-20T00:00"); with timezone=GMT the offset is 0.
    const local = Date.parse(`${h.time[i]}Z`);
    if (Number.isNaN(local)) throw new WeatherUnavailable(`Open-Meteo answered in an unexpected format (hourly.time[${i}]: ${JSON.stringify(h.time[i])})`);
    const values = columns.map((c) => c[i]);
    if (values.some((v) => v === null)) continue;
    const [temperature, radiation, wind, cloud, humidity, pressure] = values as number[];
    points.push({
      timestamp: new Date(local - offsetMs).toISOString(),
      temperature_c: temperature,
      solar_radiation_wm2: radiation,
      wind_speed_ms: wind,
      cloud_cover_pct: cloud,
      humidity_pct: humidity,
      pressure_hpa: pressure,
    });
  }
  return points;
}
