/**
 * The offline weather model: a deterministic, climatological description of a place's weather, built
 * from sun geometry and zonal climatology (climatology.ts, cloud-climatology.ts). It is not an observation or a
 * forecast of any particular day and never pretends to be: no randomness, the same query always gives the same answer.
 */
import type { WeatherPoint } from './types';
import { DEFAULT_LINKE_TURBIDITY, meanClearSky } from './clear-sky';
import { climatologicalCloudCoverPct, seasonalCloudCoverPct, skyUnderCloud } from './cloud-climatology';
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
 * - cloud cover: the zonal seasonal climatology with an afternoon maximum over land (cloud-climatology.ts);
 * - irradiance: Ineichen-Perez clear-sky GHI, DNI and DHI at the site's elevation, averaged over the step ending at
 *   the point; GHI times the clear-sky index of the step's cloud cover (Kasten & Czeplak 1980, as an expectation
 *   over the cover's distribution), DHI from their diffuse fraction, DNI the clear-sky DNI scaled as the beam part
 *   (GHI - DHI) is: so irradiance and cloud cover agree hour by hour;
 * - temperature: zonal annual mean and seasonal cycle by latitude and hemisphere, lapse rate with elevation,
 *   and a diurnal cosine peaking at 15 h local solar time with the Bristow-Campbell range of the day's clear-sky index;
 * - wind: zonal mean with a slight afternoon maximum;
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
    const dayClearSkyIndex = skyUnderCloud(seasonalCloudCoverPct(at, query.latitude), 0).clearSkyIndex;
    const temperature = dailyMean + (diurnalTemperatureRangeC(at, query.latitude, dayClearSkyIndex) / 2) * cosineOfHour(solarHour, WARMEST_SOLAR_HOUR);
    const vapourPressure = (climate.relativeHumidityPct / 100) * saturationVapourPressureHpa(dailyMean);
    const humidity = Math.min(100, Math.max(5, (100 * vapourPressure) / saturationVapourPressureHpa(temperature)));
    // The cover at the label also sets the step's irradiance (half a step earlier on average): a climatology moves
    // too slowly for the difference to matter, and this way each point's irradiance and cloud cover agree exactly.
    const cloud = climatologicalCloudCoverPct(at, query.latitude, query.longitude);
    const clear = meanClearSky(at, stepMinutes, site);
    const sky = skyUnderCloud(cloud, clear.ghi > 0 ? clear.dhi / clear.ghi : 1);
    const ghi = clear.ghi * sky.clearSkyIndex;
    const dhi = Math.min(ghi, clear.ghi * sky.diffuseOfClearGlobal);
    const clearBeam = clear.ghi - clear.dhi;
    points.push({
      timestamp: at.toISOString(),
      temperature_c: temperature,
      solar_radiation_wm2: ghi,
      wind_speed_ms: climate.windSpeedMs * (1 + WIND_DIURNAL_FRACTION * cosineOfHour(solarHour, WINDIEST_SOLAR_HOUR)),
      cloud_cover_pct: cloud,
      humidity_pct: humidity,
      pressure_hpa: basePressure + semidiurnalPressureTideHpa(solarHour, query.latitude, basePressure),
      dni_wm2: clearBeam > 0 ? clear.dni * ((ghi - dhi) / clearBeam) : 0,
      dhi_wm2: dhi,
    });
  }
  return points;
}
