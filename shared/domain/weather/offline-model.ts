/**
 * The offline weather model: a deterministic, climatological description of a place's weather, built
 * from sun geometry and zonal climatology (climatology.ts). It is not an observation or a forecast of
 * any particular day and never pretends to be: no randomness, the same query always gives the same answer.
 */
import type { WeatherPoint } from './types';
import { DEFAULT_LINKE_TURBIDITY, meanClearSkyGhi } from './clear-sky';
import {
  dailyMeanTemperatureC,
  diurnalTemperatureRangeC,
  localSolarHour,
  saturationVapourPressureHpa,
  semidiurnalPressureTideHpa,
  standardPressureHpa,
  WARMEST_SOLAR_HOUR,
  WIND_DIURNAL_FRACTION,
  WINDIEST_SOLAR_HOUR,
  zonalClimate,
} from './climatology';

/** The name the offline model reports as its source. */
export const OFFLINE_MODEL_NAME = 'offline-climatology';

export interface OfflineWeatherQuery {
  latitude: number;
  longitude: number;
  /** metres above sea level. @default 0 */
  elevationM?: number;
  start: Date;
  /** Exclusive. */
  end: Date;
  /** @default 60 */
  stepMinutes?: number;
  /** @default DEFAULT_LINKE_TURBIDITY */
  linkeTurbidity?: number;
}

const cosineOfHour = (hour: number, peakHour: number) => Math.cos((2 * Math.PI * (hour - peakHour)) / 24);

/**
 * Climatological weather for a place and time range: one point per step at whole multiples of the step
 * (UTC) from `start` (inclusive) to `end` (exclusive).
 * - temperature: zonal annual mean and seasonal cycle by latitude and hemisphere, lapse rate with elevation,
 *   and a diurnal cosine peaking at 15 h local solar time with the Bristow-Campbell range;
 * - solar radiation: Ineichen-Perez clear-sky GHI, averaged over the step ending at the point, times the
 *   zonal clear-sky index;
 * - wind: zonal mean with a slight afternoon maximum; cloud cover: zonal mean;
 * - humidity: the zonal mean at the daily mean temperature, with vapour pressure held over the day, so it
 *   falls as the air warms; pressure: standard atmosphere at the elevation plus the S2 tide.
 */
export function offlineWeather(query: OfflineWeatherQuery): WeatherPoint[] {
  const stepMinutes = query.stepMinutes ?? 60;
  if (!(stepMinutes > 0)) throw new RangeError('stepMinutes must be positive');
  const stepMs = stepMinutes * 60_000;
  const elevationM = query.elevationM ?? 0;
  const site = { latitude: query.latitude, longitude: query.longitude, elevationM, linkeTurbidity: query.linkeTurbidity ?? DEFAULT_LINKE_TURBIDITY };
  const climate = zonalClimate(query.latitude);
  const basePressure = standardPressureHpa(elevationM);

  const points: WeatherPoint[] = [];
  for (let t = Math.ceil(query.start.getTime() / stepMs) * stepMs; t < query.end.getTime(); t += stepMs) {
    const at = new Date(t);
    const solarHour = localSolarHour(at, query.longitude);
    const dailyMean = dailyMeanTemperatureC(at, query.latitude, elevationM);
    const temperature = dailyMean + (diurnalTemperatureRangeC(at, query.latitude) / 2) * cosineOfHour(solarHour, WARMEST_SOLAR_HOUR);
    const vapourPressure = (climate.relativeHumidityPct / 100) * saturationVapourPressureHpa(dailyMean);
    const humidity = Math.min(100, Math.max(5, (100 * vapourPressure) / saturationVapourPressureHpa(temperature)));
    points.push({
      timestamp: at.toISOString(),
      temperature_c: temperature,
      solar_radiation_wm2: meanClearSkyGhi(at, stepMinutes, site) * climate.clearSkyIndex,
      wind_speed_ms: climate.windSpeedMs * (1 + WIND_DIURNAL_FRACTION * cosineOfHour(solarHour, WINDIEST_SOLAR_HOUR)),
      cloud_cover_pct: climate.cloudCoverPct,
      humidity_pct: humidity,
      pressure_hpa: basePressure + semidiurnalPressureTideHpa(solarHour, query.latitude, basePressure),
    });
  }
  return points;
}
