/**
 * The Open-Meteo adapter (https://open-meteo.com/en/docs): the forecast API for recent and coming days, the
 * historical archive (ERA5-based reanalysis) for the past. Every failure becomes WeatherUnavailable with
 * a message that says what happened (WeatherRateLimited when the call budget is spent); nothing is retried or
 * invented.
 */
import * as z from 'zod';
import type { WeatherPoint } from '../domain/weather/types';
import { log } from '../logger';
import { openMeteoCallWeight, type CallBudget } from './call-budget';
import { WeatherRateLimited, WeatherUnavailable, type WeatherProvider, type WeatherQuery } from './provider';
import { DAY_MS } from '../domain/time';

/**
 * The hourly variables requested: WeatherPoint's six, then direct normal and diffuse horizontal irradiance. The three
 * irradiances are means over the preceding hour (Open-Meteo's docs), as WeatherPoint defines them.
 */
export const OPEN_METEO_HOURLY = [
  'temperature_2m',
  'shortwave_radiation',
  'wind_speed_10m',
  'cloud_cover',
  'relative_humidity_2m',
  'surface_pressure',
  'direct_normal_irradiance',
  'diffuse_radiation',
] as const;

/** Days the archive lags behind today (its reanalysis arrives with a delay); later days come from the forecast API. */
export const ARCHIVE_DELAY_DAYS = 5;

export interface OpenMeteoOptions {
  forecastUrl: string;
  archiveUrl: string;
  /** Per request. */
  timeoutMs: number;
  /** Today's date source, for choosing archive or forecast. @default () => new Date() */
  now?: () => Date;
  /** Upstream calls this process may still make; without one, no limit is kept. */
  budget?: CallBudget;
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
    // Optional so that an answer without them still serves the six variables every caller needs.
    direct_normal_irradiance: Series.optional(),
    diffuse_radiation: Series.optional(),
  }),
});
type OpenMeteoBody = z.infer<typeof OpenMeteoHourly>;

const OpenMeteoError = z.object({ error: z.literal(true), reason: z.string().optional() });

const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const addDays = (day: string, n: number) => isoDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
const daysBetween = (first: string, last: string) => (Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY_MS + 1;

/** The last UTC day the archive serves in history mode on a given date; later days come from the forecast API. */
export function lastArchiveDay(today: Date): string {
  return addDays(isoDay(today.getTime()), -ARCHIVE_DELAY_DAYS);
}

/** The answer to the health probe: one variable for one day is enough to know the service answers in its format. */
const ProbeAnswer = z.object({ hourly: z.object({ time: z.array(z.string()).min(1), temperature_2m: Series }) });

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
    const archiveLast = lastArchiveDay(this.options.now?.() ?? new Date());
    if (last <= archiveLast) return [{ url: archiveUrl, from: first, to: last }];
    if (first > archiveLast) return [{ url: forecastUrl, from: first, to: last }];
    return [
      { url: archiveUrl, from: first, to: archiveLast },
      { url: forecastUrl, from: addDays(archiveLast, 1), to: last },
    ];
  }

  /**
   * Whether Open-Meteo answers now, in its format: today's temperature at 0 N 0 E from the forecast API, one call of
   * the budget, within `timeoutMs`. Resolves when it does; rejects with WeatherUnavailable or WeatherRateLimited.
   */
  async probe(timeoutMs: number): Promise<void> {
    const today = isoDay((this.options.now?.() ?? new Date()).getTime());
    const params = new URLSearchParams({ latitude: '0', longitude: '0', hourly: 'temperature_2m', timezone: 'GMT', start_date: today, end_date: today });
    await this.request(`${this.options.forecastUrl}?${params}`, ProbeAnswer, timeoutMs, 1);
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
    const weight = openMeteoCallWeight(OPEN_METEO_HOURLY.length, daysBetween(segment.from, segment.to));
    try {
      return await this.request(`${segment.url}?${params}`, OpenMeteoHourly, this.options.timeoutMs, weight);
    } catch (err) {
      log.warn('weather provider failed', { provider: this.name, host: new URL(segment.url).host, from: segment.from, to: segment.to, reason: (err as Error).message, err });
      throw err;
    }
  }

  /** One GET within the budget and the time-out, its body checked against `schema`; every failure named. */
  private async request<T>(url: string, schema: z.ZodType<T>, timeoutMs: number, weight: number): Promise<T> {
    const refused = this.options.budget?.take(weight);
    if (refused) {
      throw new WeatherRateLimited(`Open-Meteo call budget spent for this ${refused.window} (free-tier limits, shared/weather-providers/call-budget.ts)`, refused.retryAfterMs / 1000);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      const text = await res.text();
      const body = parseJson(text);
      const refusal = OpenMeteoError.safeParse(body);
      if (res.status === 429) throw new WeatherRateLimited(`Open-Meteo refused the request as over its rate limit: ${refusal.success ? (refusal.data.reason ?? 'no reason given') : 'HTTP 429'}`, 60);
      if (refusal.success) throw new WeatherUnavailable(`Open-Meteo refused the request: ${refusal.data.reason ?? 'no reason given'}`, { outage: res.status >= 500 });
      if (!res.ok) throw new WeatherUnavailable(`Open-Meteo answered HTTP ${res.status}`, { outage: res.status >= 500 });
      if (body === undefined) throw new WeatherUnavailable('Open-Meteo answered with a body that is not JSON');
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new WeatherUnavailable(`Open-Meteo answered in an unexpected format (${issue.path.join('.') || 'body'}: ${issue.message})`);
      }
      return parsed.data;
    } catch (err) {
      throw asUnavailable(err, timeoutMs);
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

function asUnavailable(err: unknown, timeoutMs: number): WeatherUnavailable | WeatherRateLimited {
  if (err instanceof WeatherUnavailable || err instanceof WeatherRateLimited) return err;
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new WeatherUnavailable(`Open-Meteo did not answer within ${timeoutMs} ms`, { outage: true });
  return new WeatherUnavailable('Open-Meteo could not be reached', { outage: true });
}

/**
 * Rows with every one of the six core variables present; Open-Meteo marks missing values with null (for example days
 * the archive has not reached). DNI and DHI are added where both are present.
 */
function toPoints(body: OpenMeteoBody): WeatherPoint[] {
  const h = body.hourly;
  const offsetMs = (body.utc_offset_seconds ?? 0) * 1000;
  const n = h.time.length;
  const columns = [h.temperature_2m, h.shortwave_radiation, h.wind_speed_10m, h.cloud_cover, h.relative_humidity_2m, h.surface_pressure];
  const [dni, dhi] = [h.direct_normal_irradiance, h.diffuse_radiation];
  if ([...columns, ...(dni ? [dni] : []), ...(dhi ? [dhi] : [])].some((c) => c.length !== n)) {
    throw new WeatherUnavailable('Open-Meteo answered in an unexpected format (hourly arrays of different lengths)');
  }
  const points: WeatherPoint[] = [];
  for (let i = 0; i < n; i++) {
    // ISO 8601 local time without offset ("2024-06-20T00:00"); with timezone=GMT the offset is 0.
    const local = Date.parse(`${h.time[i]}Z`);
    if (Number.isNaN(local)) throw new WeatherUnavailable(`Open-Meteo answered in an unexpected format (hourly.time[${i}]: ${JSON.stringify(h.time[i])})`);
    const values = columns.map((c) => c[i]);
    if (values.some((v) => v === null)) continue;
    const [temperature, radiation, wind, cloud, humidity, pressure] = values as number[];
    const point: WeatherPoint = {
      timestamp: new Date(local - offsetMs).toISOString(),
      temperature_c: temperature,
      solar_radiation_wm2: radiation,
      wind_speed_ms: wind,
      cloud_cover_pct: cloud,
      humidity_pct: humidity,
      pressure_hpa: pressure,
    };
    const [beam, diffuse] = [dni?.[i], dhi?.[i]];
    if (typeof beam === 'number' && typeof diffuse === 'number') Object.assign(point, { dni_wm2: beam, dhi_wm2: diffuse });
    points.push(point);
  }
  return points;
}
