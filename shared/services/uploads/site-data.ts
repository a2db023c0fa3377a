/** Reading a site's standardised series and its weather back from the bucket (ARCHITECTURE 5, flow 1 writes them). */
import { parseSeries, type StandardRow } from '../../domain/ingest';
import { seriesPrefix, weatherPrefix } from '../../domain/uploads/object-keys';
import type { WeatherPoint } from '../../domain/weather/types';
import { getObjectTextIfExists, listKeys } from '../../store/bucket';

export async function readSeries(key: string): Promise<StandardRow[]> {
  const text = await getObjectTextIfExists(key);
  return text ? parseSeries(text) : [];
}

/** Month keys (`.../YYYY-MM.ext`) from `sinceMs`'s month on; all when not given. */
const monthsFrom = (keys: string[], sinceMs?: number) => {
  const since = sinceMs === undefined ? '' : new Date(sinceMs).toISOString().slice(0, 7);
  return keys.filter((k) => (k.split('/').pop() ?? '').slice(0, 7) >= since).sort();
};

/** The site's rows in time order (months read concurrently), from `sinceMs` on when given. */
export async function readSiteSeries(customerId: string, siteId: string, sinceMs?: number): Promise<StandardRow[]> {
  const months = await Promise.all(monthsFrom(await listKeys(seriesPrefix(customerId, siteId)), sinceMs).map(readSeries));
  return months.flat().filter((r) => sinceMs === undefined || r.t >= sinceMs);
}

/** The site's hourly weather in time order, from `sinceMs` on when given. */
export async function readSiteWeather(customerId: string, siteId: string, sinceMs?: number): Promise<WeatherPoint[]> {
  const months = await Promise.all(
    monthsFrom(await listKeys(weatherPrefix(customerId, siteId)), sinceMs).map(async (key) => JSON.parse((await getObjectTextIfExists(key)) ?? '[]') as WeatherPoint[]),
  );
  return months.flat().filter((p) => sinceMs === undefined || Date.parse(p.timestamp) >= sinceMs);
}
