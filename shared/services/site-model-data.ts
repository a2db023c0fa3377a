/**
 * A site's data as the forecasting engine takes it: the standardised power as a regular series, the
 * hourly weather held over each hour's steps as exogenous variables, and the site's place.
 */
import { inferKind } from '../domain/forecasting/kind';
import { regularise } from '../domain/forecasting/regularise';
import type { Exogenous, FitContext, RegularSeries } from '../domain/forecasting/types';
import type { WeatherPoint } from '../domain/weather/types';
import type { SiteRecord } from '../store/sites-repo';
import { readSiteSeries, readSiteWeather } from './site-data';

const HOUR_MS = 3_600_000;

/** Weather variables by the names the members read (solar: ghi_wm2; load: temperature_c; wind: wind_speed_ms). */
export function weatherExogenous(times: readonly number[], points: readonly WeatherPoint[]): Exogenous | undefined {
  if (!points.length) return undefined;
  const byHour = new Map(points.map((p) => [Math.floor(Date.parse(p.timestamp) / HOUR_MS), p]));
  const at = (t: number) => byHour.get(Math.floor(t / HOUR_MS));
  return {
    temperature_c: times.map((t) => at(t)?.temperature_c ?? NaN),
    ghi_wm2: times.map((t) => at(t)?.solar_radiation_wm2 ?? NaN),
    wind_speed_ms: times.map((t) => at(t)?.wind_speed_ms ?? NaN),
  };
}

export interface SiteModelData {
  series: RegularSeries;
  context: FitContext;
  weather: WeatherPoint[];
}

/**
 * The site's series from `sinceMs` on (all when not given), with weather when asked.
 * @throws ForecastInputError when the rows do not make a regular series (the caller says what that means for it)
 */
export async function loadSiteModelData(site: SiteRecord, options: { sinceMs?: number; weather: boolean }): Promise<SiteModelData> {
  const rows = await readSiteSeries(site.customer_id, site.site_id, options.sinceMs);
  const series = regularise(rows.filter((r) => r.power_kw !== null).map((r) => ({ t: r.t, value: r.power_kw as number })));
  const weather = options.weather ? await readSiteWeather(site.customer_id, site.site_id, options.sinceMs) : [];
  const history = weatherExogenous(series.t, weather);
  return {
    series,
    weather,
    context: { kind: inferKind(series), latitude: site.latitude, longitude: site.longitude, timezone: site.timezone, ...(history ? { history } : {}) },
  };
}
