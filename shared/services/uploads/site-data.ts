/** Reading a site's standardised series and its weather back from the bucket (ARCHITECTURE 5, flow 1 writes them). */
import { parseSeries, type StandardRow } from '../../domain/ingest';
import { seriesPrefix, weatherPrefix } from '../../domain/uploads/object-keys';
import type { WeatherPoint } from '../../domain/weather/types';
import { getObjectTextIfExists, listKeys } from '../../store/bucket';

export async function readSeries(key: string): Promise<StandardRow[]> {
  const text = await getObjectTextIfExists(key);
  return text ? parseSeries(text) : [];
}

/** Month keys (`.../YYYY-MM.ext`) from `sinceMs`'s month on (to `untilMs`'s month); all when not given. */
const monthsFrom = (keys: string[], sinceMs?: number, untilMs?: number) => {
  const monthOf = (ms: number | undefined, absent: string) => (ms === undefined ? absent : new Date(ms).toISOString().slice(0, 7));
  const [since, until] = [monthOf(sinceMs, ''), monthOf(untilMs, '\uffff')];
  return keys
    .filter((k) => {
      const month = (k.split('/').pop() ?? '').slice(0, 7);
      return month >= since && month <= until;
    })
    .sort();
};

/** The site's rows in time order (months read concurrently), from `sinceMs` on and to `untilMs` when given. */
export async function readSiteSeries(customerId: string, siteId: string, sinceMs?: number, untilMs?: number): Promise<StandardRow[]> {
  const months = await Promise.all(monthsFrom(await listKeys(seriesPrefix(customerId, siteId)), sinceMs, untilMs).map(readSeries));
  return months.flat().filter((r) => (sinceMs === undefined || r.t >= sinceMs) && (untilMs === undefined || r.t <= untilMs));
}

/** The site's hourly weather in time order, from `sinceMs` on when given. */
export async function readSiteWeather(customerId: string, siteId: string, sinceMs?: number): Promise<WeatherPoint[]> {
  const months = await Promise.all(
    monthsFrom(await listKeys(weatherPrefix(customerId, siteId)), sinceMs).map(async (key) => JSON.parse((await getObjectTextIfExists(key)) ?? '[]') as WeatherPoint[]),
  );
  return months.flat().filter((p) => sinceMs === undefined || Date.parse(p.timestamp) >= sinceMs);
}
