/**
 * A site's data as the forecasting engine takes it: the standardised power as a regular series, the
 * hourly weather on its grid as exogenous variables (domain/weather/hourly-on-grid.ts), the site's place, and for a
 * solar site its PV system specs (set or inferred, shared/services/pv/pv-sites.ts), which the `pv_physical` member reads.
 */
import { log } from '../../logger';
import { inferKind } from '../../domain/forecasting/kind';
import { resolveLocation } from '../../domain/locations';
import { PV_SYSTEM_OPTION } from '../../domain/forecasting/pv-physical';
import { regularise } from '../../domain/forecasting/regularise';
import { modelStepMinutes, resampleMean } from '../../domain/training/window';
import type { Exogenous, FitContext, RegularSeries } from '../../domain/forecasting/types';
import { weatherOnGrid } from '../../domain/weather/hourly-on-grid';
import type { WeatherPoint } from '../../domain/weather/types';
import type { SiteRecord } from '../../store/sites-repo';
import { sitePvSystem, toPvSystem } from '../pv/pv-sites';
import { readSiteSeries, readSiteWeather } from '../uploads/site-data';

/** Weather variables by the names the members read (solar: ghi_wm2; load: temperature_c; wind: wind_speed_ms). */
export function weatherExogenous(times: readonly number[], points: readonly WeatherPoint[]): Exogenous | undefined {
  return points.length ? weatherOnGrid(times, points) : undefined;
}

export interface SiteModelData {
  series: RegularSeries;
  context: FitContext;
  weather: WeatherPoint[];
  /** Where the PV specs in `context.options.pvSystem` come from; absent when there are none. */
  pvSystemSource?: 'set' | 'inferred';
}

/**
 * The PV specs of a solar site, set or inferred; undefined when it has none and none can be inferred. Inference
 * failing (too few clear days) leaves the forecast to the statistical members, never fails it.
 */
async function solarSiteSpecs(site: SiteRecord): Promise<Awaited<ReturnType<typeof sitePvSystem>>> {
  try {
    return await sitePvSystem(site);
  } catch (err) {
    log.info('no PV specs for the site: pv_physical left out', { customer_id: site.customer_id, site_id: site.site_id, reason: (err as Error).message });
    return undefined;
  }
}

export interface SiteModelDataOptions {
  /** First instant read (only the store's months from it on are read); all the history when not given. */
  sinceMs?: number;
  weather: boolean;
  /**
   * The step the series is averaged to (domain/training/window.ts): 'model' for the step the members fit on
   * (training), a number for a trained model's own step (serving); the stored step when not given.
   */
  stepMinutes?: number | 'model';
}

/**
 * The site's series from `sinceMs` on (all when not given), at the step asked for, with weather when asked; a
 * solar site's PV specs ride in `context.options.pvSystem`.
 * @throws ForecastInputError when the rows do not make a regular series or cannot be averaged to the step asked
 *   for (the caller says what that means for it)
 */
export async function loadSiteModelData(site: SiteRecord, options: SiteModelDataOptions): Promise<SiteModelData> {
  const rows = await readSiteSeries(site.customer_id, site.site_id, options.sinceMs);
  const stored = regularise(rows.filter((r) => r.power_kw !== null).map((r) => ({ t: r.t, value: r.power_kw as number })));
  const step = options.stepMinutes === 'model' ? modelStepMinutes(stored.stepMinutes) : (options.stepMinutes ?? stored.stepMinutes);
  const series = resampleMean(stored, step);
  const weather = options.weather ? await readSiteWeather(site.customer_id, site.site_id, options.sinceMs) : [];
  const history = weatherExogenous(series.t, weather);
  const kind = inferKind(series);
  const specs = kind === 'solar' ? await solarSiteSpecs(site) : undefined;
  return {
    series,
    weather,
    context: {
      kind,
      latitude: site.latitude,
      longitude: site.longitude,
      timezone: site.timezone,
      // Public holidays of the site's country (load): from its stated location, so sites stored before need nothing new.
      country: site.location ? resolveLocation(site.location)?.countryCode : undefined,
      ...(history ? { history } : {}),
      ...(specs ? { options: { [PV_SYSTEM_OPTION]: toPvSystem(specs.system) } } : {}),
    },
    ...(specs ? { pvSystemSource: specs.source } : {}),
  };
}
