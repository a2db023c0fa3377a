/**
 * A site's data as the forecasting engine takes it: the standardised power as a regular series, the
 * hourly weather on its grid as exogenous variables (domain/weather/hourly-on-grid.ts), and the site's place.
 */
import { inferKind } from '../domain/forecasting/kind';
import { regularise } from '../domain/forecasting/regularise';
import type { Exogenous, FitContext, RegularSeries } from '../domain/forecasting/types';
import { weatherOnGrid } from '../domain/weather/hourly-on-grid';
import type { WeatherPoint } from '../domain/weather/types';
import type { SiteRecord } from '../store/sites-repo';
import { readSiteSeries, readSiteWeather } from './site-data';

/** Weather variables by the names the members read (solar: ghi_wm2; load: temperature_c; wind: wind_speed_ms). */
export function weatherExogenous(times: readonly number[], points: readonly WeatherPoint[]): Exogenous | undefined {
  return points.length ? weatherOnGrid(times, points) : undefined;
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
