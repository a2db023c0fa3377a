/**
 * Climatology by latitude: the slowly varying background the offline weather model is built on.
 * A zonal climatology knows nothing of continents, coasts or mountains (Berlin gets the mean of its
 * latitude circle, Siberia included); it is the honest default where no weather service is reachable.
 */
import { DAY_MS } from '../time';
import { DEG } from '../angles';

const YEAR_DAYS = 365.25;

/** The climate of a latitude circle. */
export interface ZonalClimate {
  /** Annual mean air temperature at sea level, degrees C. */
  annualMeanTempC: number;
  /**
   * Half the annual range of daily mean temperature, degrees C, signed: positive in the northern
   * hemisphere (warmest about 19 July), negative in the southern (warmest about 17 January).
   */
  seasonalHalfRangeC: number;
  /** Mean wind speed at 10 m over land, m/s. */
  windSpeedMs: number;
  /** Mean relative humidity at 2 m, percent. */
  relativeHumidityPct: number;
}

// Rounded zonal annual means of the present climate, at band centres, interpolated linearly in latitude:
// temperature and its seasonal range in the spirit of Peixoto & Oort (1992, ch. 7), land winds and humidity of the
// same zones. Cloud and the irradiance it lets through are in cloud-climatology.ts.
// Approximate by construction: a climatological background, not a record of any year.
const BANDS: readonly (ZonalClimate & { latitude: number })[] = [
  { latitude: -90, annualMeanTempC: -45, seasonalHalfRangeC: -14, windSpeedMs: 5, relativeHumidityPct: 70 },
  { latitude: -75, annualMeanTempC: -25, seasonalHalfRangeC: -12, windSpeedMs: 7, relativeHumidityPct: 75 },
  { latitude: -60, annualMeanTempC: -2, seasonalHalfRangeC: -4, windSpeedMs: 9, relativeHumidityPct: 85 },
  { latitude: -45, annualMeanTempC: 8, seasonalHalfRangeC: -4, windSpeedMs: 7, relativeHumidityPct: 78 },
  { latitude: -30, annualMeanTempC: 17, seasonalHalfRangeC: -5, windSpeedMs: 5, relativeHumidityPct: 65 },
  { latitude: -15, annualMeanTempC: 23, seasonalHalfRangeC: -3, windSpeedMs: 4, relativeHumidityPct: 70 },
  { latitude: 0, annualMeanTempC: 26, seasonalHalfRangeC: 0, windSpeedMs: 3, relativeHumidityPct: 80 },
  { latitude: 15, annualMeanTempC: 26, seasonalHalfRangeC: 3, windSpeedMs: 4, relativeHumidityPct: 65 },
  { latitude: 30, annualMeanTempC: 20, seasonalHalfRangeC: 8, windSpeedMs: 4, relativeHumidityPct: 55 },
  { latitude: 45, annualMeanTempC: 11, seasonalHalfRangeC: 11, windSpeedMs: 4.5, relativeHumidityPct: 70 },
  { latitude: 60, annualMeanTempC: 1, seasonalHalfRangeC: 14, windSpeedMs: 5, relativeHumidityPct: 78 },
  { latitude: 75, annualMeanTempC: -12, seasonalHalfRangeC: 16, windSpeedMs: 5.5, relativeHumidityPct: 85 },
  { latitude: 90, annualMeanTempC: -18, seasonalHalfRangeC: 16, windSpeedMs: 5, relativeHumidityPct: 85 },
];

/** The zonal climate at a latitude (degrees, -90..90). */
export function zonalClimate(latitude: number): ZonalClimate {
  const lat = Math.min(90, Math.max(-90, latitude));
  let i = 0;
  while (i < BANDS.length - 2 && BANDS[i + 1].latitude < lat) i++;
  const [a, b] = [BANDS[i], BANDS[i + 1]];
  const w = (lat - a.latitude) / (b.latitude - a.latitude);
  const mix = (k: keyof ZonalClimate) => a[k] + w * (b[k] - a[k]);
  return {
    annualMeanTempC: mix('annualMeanTempC'),
    seasonalHalfRangeC: mix('seasonalHalfRangeC'),
    windSpeedMs: mix('windSpeedMs'),
    relativeHumidityPct: mix('relativeHumidityPct'),
  };
}

/** Days since 1 January 00:00 UTC of the instant's year, fractional (0 at the start of the year). */
export function fractionalDayOfYear(at: Date): number {
  return (at.getTime() - Date.UTC(at.getUTCFullYear(), 0, 1)) / DAY_MS;
}

/** Spencer's (1971) day angle, radians, for a fractional day of the year. */
const dayAngle = (dayOfYear0: number) => (2 * Math.PI * dayOfYear0) / 365;

/** Solar declination, degrees (Spencer 1971 Fourier series; error under 0.04 degrees). */
export function solarDeclinationDeg(at: Date): number {
  const g = dayAngle(fractionalDayOfYear(at));
  const rad =
    0.006918 - 0.399912 * Math.cos(g) + 0.070257 * Math.sin(g) - 0.006758 * Math.cos(2 * g) + 0.000907 * Math.sin(2 * g) - 0.002697 * Math.cos(3 * g) + 0.00148 * Math.sin(3 * g);
  return rad / DEG;
}

/** Equation of time, minutes (apparent minus mean solar time; Spencer 1971 as given by Iqbal 1983). */
export function equationOfTimeMinutes(at: Date): number {
  const g = dayAngle(fractionalDayOfYear(at));
  return 229.18 * (0.000075 + 0.001868 * Math.cos(g) - 0.032077 * Math.sin(g) - 0.014615 * Math.cos(2 * g) - 0.040849 * Math.sin(2 * g));
}

/** Local apparent solar time, hours in [0, 24): 12 is solar noon. */
export function localSolarHour(at: Date, longitude: number): number {
  const utcHours = (at.getTime() % DAY_MS) / 3_600_000;
  const h = utcHours + longitude / 15 + equationOfTimeMinutes(at) / 60;
  return ((h % 24) + 24) % 24;
}

/**
 * Daily mean extraterrestrial irradiance on a horizontal surface, W/m2 (Duffie & Beckman 2013, eq. 1.10.3,
 * divided by the length of the day); 0 in polar night.
 */
export function dailyExtraterrestrialHorizontal(at: Date, latitude: number, solarConstant = 1366.1): number {
  const g = dayAngle(fractionalDayOfYear(at));
  const e0 = 1.00011 + 0.034221 * Math.cos(g) + 0.00128 * Math.sin(g) + 0.000719 * Math.cos(2 * g) + 0.000077 * Math.sin(2 * g);
  const phi = latitude * DEG;
  const delta = solarDeclinationDeg(at) * DEG;
  const ws = Math.acos(Math.min(1, Math.max(-1, -Math.tan(phi) * Math.tan(delta)))); // sunset hour angle
  return Math.max(0, ((solarConstant * e0) / Math.PI) * (Math.cos(phi) * Math.cos(delta) * Math.sin(ws) + ws * Math.sin(phi) * Math.sin(delta)));
}

/** Day of the year (fractional) on which the northern hemisphere is warmest: about a month after the solstice. */
export const NORTHERN_WARMEST_DAY = 200;

/** Temperature fall with height in the ICAO standard atmosphere, K per metre. */
export const LAPSE_RATE_K_PER_M = 0.0065;

/** Climatological daily mean temperature, degrees C: the zonal annual mean, its seasonal cycle and the lapse rate. */
export function dailyMeanTemperatureC(at: Date, latitude: number, elevationM = 0): number {
  const climate = zonalClimate(latitude);
  const season = Math.cos((2 * Math.PI * (fractionalDayOfYear(at) - NORTHERN_WARMEST_DAY)) / YEAR_DAYS);
  return climate.annualMeanTempC + climate.seasonalHalfRangeC * season - LAPSE_RATE_K_PER_M * elevationM;
}

// Bristow & Campbell (1984): daily transmittance tau = A [1 - exp(-B dT^C)]. With tau = clear-sky index x A
// (A is the clear-day transmittance), the diurnal range follows from the index. A = 0.7 and C = 2.4 as in the
// paper; B = 0.008 is a mid-latitude value within the range fitted there.
const BRISTOW_CAMPBELL_B = 0.008;
const BRISTOW_CAMPBELL_C = 2.4;
/** Daily insolation (W/m2) at which diurnal heating is at full strength; less sun, less range (bounded below). */
const FULL_RANGE_INSOLATION_WM2 = 400;

/** Climatological diurnal temperature range (max - min), K, for the day's mean clear-sky index (cloud-climatology.ts). */
export function diurnalTemperatureRangeC(at: Date, latitude: number, clearSkyIndex: number): number {
  const k = Math.min(0.95, Math.max(0.05, clearSkyIndex));
  const range = (-Math.log(1 - k) / BRISTOW_CAMPBELL_B) ** (1 / BRISTOW_CAMPBELL_C);
  const insolation = Math.min(1, Math.max(0.25, dailyExtraterrestrialHorizontal(at, latitude) / FULL_RANGE_INSOLATION_WM2));
  return range * insolation;
}

/** Local solar hour of the daily temperature maximum: mid-afternoon, 2-3 h after noon (cf. Parton & Logan 1981). */
export const WARMEST_SOLAR_HOUR = 15;
/** Local solar hour of the daily wind maximum over land (afternoon mixing; Dai & Deser 1999). */
export const WINDIEST_SOLAR_HOUR = 14;
/** Half the relative diurnal swing of wind speed over land. */
export const WIND_DIURNAL_FRACTION = 0.15;

/** Saturation vapour pressure over water, hPa (Magnus form of Alduchov & Eskridge 1996). */
export function saturationVapourPressureHpa(tempC: number): number {
  return 6.1094 * Math.exp((17.625 * tempC) / (tempC + 243.04));
}

/** Surface pressure at an elevation in the ICAO standard atmosphere, hPa. */
export function standardPressureHpa(elevationM: number): number {
  return 1013.25 * (1 - 2.25577e-5 * elevationM) ** 5.25588;
}

/**
 * The semidiurnal solar pressure tide S2, hPa: 1.16 cos^3(lat) sin(2t + 158 deg), t the local solar time as
 * an angle (Haurwitz 1956; Chapman & Lindzen 1970), scaled with the surface pressure. Peaks near 10 and 22 h.
 */
export function semidiurnalPressureTideHpa(solarHour: number, latitude: number, surfacePressureHpa: number): number {
  const t = solarHour * 15 * DEG;
  return 1.16 * Math.cos(latitude * DEG) ** 3 * Math.sin(2 * t + 158 * DEG) * (surfacePressureHpa / 1013.25);
}
