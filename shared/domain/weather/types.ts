/** The unit of weather exchanged between providers, services and the ingestion pipeline. */

/**
 * One weather observation, forecast or model value.
 * Instantaneous values at `timestamp`, except the irradiances (`solar_radiation_wm2`, `dni_wm2`, `dhi_wm2`), which
 * are means over the step that ends at `timestamp` (Open-Meteo's convention for `shortwave_radiation`,
 * `direct_normal_irradiance` and `diffuse_radiation`; the offline model follows it).
 */
export interface WeatherPoint {
  /** ISO 8601 in UTC with `Z`. */
  timestamp: string;
  /** Air temperature at 2 m, degrees Celsius. */
  temperature_c: number;
  /** Global horizontal irradiance, W/m2. */
  solar_radiation_wm2: number;
  /** Wind speed at 10 m, m/s. */
  wind_speed_ms: number;
  /** Total cloud cover, percent (0-100). */
  cloud_cover_pct: number;
  /** Relative humidity at 2 m, percent (0-100). */
  humidity_pct: number;
  /** Surface (station-level) pressure, hPa. */
  pressure_hpa: number;
  /** Direct normal irradiance, W/m2, where the source gives it. */
  dni_wm2?: number;
  /** Diffuse horizontal irradiance, W/m2, where the source gives it. */
  dhi_wm2?: number;
}
