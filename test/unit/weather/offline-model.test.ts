import {
  dailyMeanTemperatureC,
  equationOfTimeMinutes,
  localSolarHour,
  saturationVapourPressureHpa,
  solarDeclinationDeg,
  standardPressureHpa,
  zonalClimate,
} from '../../../shared/domain/weather/climatology';
import { meanClearSky } from '../../../shared/domain/weather/clear-sky';
import { skyUnderCloud } from '../../../shared/domain/weather/cloud-climatology';
import { offlineWeather } from '../../../shared/domain/weather/offline-model';
import { solarPosition } from '../../../shared/domain/weather/solar-position';
import type { WeatherPoint } from '../../../shared/domain/weather/types';

const BERLIN = { latitude: 52.52, longitude: 13.405 };
const CAPE_TOWN = { latitude: -33.9249, longitude: 18.4241 };

const localHour = (ts: string, timeZone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(new Date(ts)));
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const day = (place: { latitude: number; longitude: number }, date: string, elevationM = 0): WeatherPoint[] =>
  offlineWeather({ ...place, elevationM, start: new Date(`${date}T00:00:00Z`), end: new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000) });

describe('offline weather model: grid and determinism', () => {
  it('gives one point per whole UTC hour in [start, end), timestamps in UTC with Z', () => {
    const points = offlineWeather({ ...BERLIN, start: new Date('2024-06-19T22:30:00Z'), end: new Date('2024-06-20T03:00:00Z') });
    expect(points.map((p) => p.timestamp)).toEqual(['2024-06-19T23:00:00.000Z', '2024-06-20T00:00:00.000Z', '2024-06-20T01:00:00.000Z', '2024-06-20T02:00:00.000Z']);
  });

  it('is deterministic: the same query gives the same numbers', () => {
    expect(day(BERLIN, '2024-06-20')).toEqual(day(BERLIN, '2024-06-20'));
  });
});

describe('offline weather model: day and night', () => {
  const june = offlineWeather({ ...BERLIN, start: new Date('2024-06-19T22:00:00Z'), end: new Date('2024-06-21T22:00:00Z') });

  it('has no sun at Berlin night hours and sun around noon in June', () => {
    const at = (hours: number[]) => june.filter((p) => hours.includes(localHour(p.timestamp, 'Europe/Berlin')));
    expect(at([23, 0, 1, 2]).every((p) => p.solar_radiation_wm2 === 0)).toBe(true);
    expect(at([11, 12, 13, 14]).every((p) => p.solar_radiation_wm2 > 300)).toBe(true);
  });

  it('peaks irradiance at the hour ending just after solar noon (13:07 CEST) and temperature in mid-afternoon', () => {
    const first = june.slice(0, 24);
    const brightest = first.reduce((a, b) => (b.solar_radiation_wm2 > a.solar_radiation_wm2 ? b : a));
    expect([13, 14]).toContain(localHour(brightest.timestamp, 'Europe/Berlin'));
    const warmest = first.reduce((a, b) => (b.temperature_c > a.temperature_c ? b : a));
    const solarHour = localSolarHour(new Date(warmest.timestamp), BERLIN.longitude);
    expect(solarHour).toBeGreaterThan(14);
    expect(solarHour).toBeLessThan(16);
  });

  it('keeps relative humidity highest when it is coolest and within 5-100%', () => {
    const first = june.slice(0, 24);
    const coolest = first.reduce((a, b) => (b.temperature_c < a.temperature_c ? b : a));
    expect(coolest.humidity_pct).toBe(Math.max(...first.map((p) => p.humidity_pct)));
    const humidity = june.map((p) => p.humidity_pct);
    expect(Math.min(...humidity)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...humidity)).toBeLessThanOrEqual(100);
  });

  it('blows harder in the afternoon than at night, slightly', () => {
    const first = june.slice(0, 24);
    const [min, max] = [Math.min(...first.map((p) => p.wind_speed_ms)), Math.max(...first.map((p) => p.wind_speed_ms))];
    expect(min).toBeGreaterThan(0);
    expect(max / min).toBeCloseTo(1.15 / 0.85, 1);
  });

  it('has no sun at all in polar night (Tromso, December solstice)', () => {
    expect(day({ latitude: 69.6496, longitude: 18.956 }, '2024-12-21').every((p) => p.solar_radiation_wm2 === 0)).toBe(true);
  });
});

describe('offline weather model: seasons by hemisphere', () => {
  it('is warmer and sunnier in July than January in Berlin, and the other way round in Cape Town', () => {
    const stats = (place: typeof BERLIN, date: string) => {
      const points = day(place, date);
      return { t: mean(points.map((p) => p.temperature_c)), sun: mean(points.map((p) => p.solar_radiation_wm2)) };
    };
    const [berlinJan, berlinJul] = [stats(BERLIN, '2024-01-20'), stats(BERLIN, '2024-07-20')];
    const [capeJan, capeJul] = [stats(CAPE_TOWN, '2024-01-20'), stats(CAPE_TOWN, '2024-07-20')];
    expect(berlinJul.t - berlinJan.t).toBeGreaterThan(20);
    expect(berlinJul.sun).toBeGreaterThan(3 * berlinJan.sun);
    expect(capeJan.t - capeJul.t).toBeGreaterThan(8);
    expect(capeJan.sun).toBeGreaterThan(2 * capeJul.sun);
  });

  it('has its daily mean at the zonal annual mean plus the seasonal half-range on the warmest day, less the lapse rate', () => {
    const climate = zonalClimate(BERLIN.latitude);
    expect(dailyMeanTemperatureC(new Date(Date.UTC(2024, 0, 1) + 200 * 86_400_000), BERLIN.latitude)).toBeCloseTo(climate.annualMeanTempC + climate.seasonalHalfRangeC, 6);
    expect(dailyMeanTemperatureC(new Date('2024-07-19T00:00:00Z'), BERLIN.latitude, 1000) - dailyMeanTemperatureC(new Date('2024-07-19T00:00:00Z'), BERLIN.latitude)).toBeCloseTo(-6.5, 6);
    // The diurnal cosine averages out over a day: the 24-hour mean equals the daily mean.
    const points = offlineWeather({ ...BERLIN, start: new Date('2024-07-19T00:00:00Z'), end: new Date('2024-07-20T00:00:00Z') });
    expect(mean(points.map((p) => p.temperature_c))).toBeCloseTo(dailyMeanTemperatureC(new Date('2024-07-19T12:00:00Z'), BERLIN.latitude), 1);
  });

  it('interpolates the zonal climate between bands and is continuous across the equator', () => {
    expect(zonalClimate(52.5).annualMeanTempC).toBeCloseTo(11 + (7.5 / 15) * (1 - 11), 9);
    expect(Math.abs(zonalClimate(0.01).seasonalHalfRangeC - zonalClimate(-0.01).seasonalHalfRangeC)).toBeLessThan(0.01);
    expect(zonalClimate(95)).toEqual(zonalClimate(90));
  });
});

describe('offline weather model: clouds and the irradiance they let through', () => {
  const june = day(BERLIN, '2024-06-20', 34);

  it('has cloud cover varying by hour and by month', () => {
    const cover = june.map((p) => p.cloud_cover_pct);
    expect(Math.max(...cover) - Math.min(...cover)).toBeGreaterThan(6);
    const january = day(BERLIN, '2024-01-20', 34);
    expect(mean(january.map((p) => p.cloud_cover_pct))).toBeGreaterThan(mean(cover) + 8);
  });

  it('makes each hour’s irradiance the clear sky times the clear-sky index of its cloud cover (Kasten & Czeplak)', () => {
    let daylight = 0;
    for (const p of june) {
      const clear = meanClearSky(new Date(p.timestamp), 60, { ...BERLIN, elevationM: 34 });
      if (!(clear.ghi > 0)) {
        expect(p).toMatchObject({ solar_radiation_wm2: 0, dni_wm2: 0, dhi_wm2: 0 });
        continue;
      }
      daylight++;
      const sky = skyUnderCloud(p.cloud_cover_pct, clear.dhi / clear.ghi);
      expect(p.solar_radiation_wm2 / clear.ghi).toBeCloseTo(sky.clearSkyIndex, 9);
      expect(p.dhi_wm2! / clear.ghi).toBeCloseTo(sky.diffuseOfClearGlobal, 9);
    }
    expect(daylight).toBeGreaterThan(15);
  });

  it('closes GHI = DHI + DNI cos(zenith) within 3% in the midday hours', () => {
    for (const p of june.filter((x) => x.solar_radiation_wm2 > 300)) {
      const zenith = solarPosition(new Date(Date.parse(p.timestamp) - 1_800_000), BERLIN.latitude, BERLIN.longitude, 34).zenithDeg;
      const closure = p.dhi_wm2! + p.dni_wm2! * Math.cos((zenith * Math.PI) / 180);
      expect(Math.abs(closure - p.solar_radiation_wm2) / p.solar_radiation_wm2).toBeLessThan(0.03);
    }
  });

  it('is brighter on a mountain than at sea level under the same sky', () => {
    const high = day(BERLIN, '2024-06-20', 2000);
    const sum = (points: WeatherPoint[]) => points.reduce((s, p) => s + p.solar_radiation_wm2, 0);
    expect(sum(high)).toBeGreaterThan(sum(june) * 1.03);
  });
});

describe('offline weather model: pressure', () => {
  it('follows the standard atmosphere with elevation, within the S2 tide', () => {
    expect(standardPressureHpa(0)).toBeCloseTo(1013.25, 6);
    expect(standardPressureHpa(1000)).toBeCloseTo(898.75, 1); // ICAO standard atmosphere table: 898.76 hPa
    for (const p of day(BERLIN, '2024-06-20', 1000)) expect(Math.abs(p.pressure_hpa - 898.75)).toBeLessThan(1.16);
  });

  it('has the semidiurnal tide: maxima near 10 and 22 h local solar time, amplitude 1.16 cos^3(latitude)', () => {
    const equator = day({ latitude: 0, longitude: 0 }, '2024-03-20');
    const highest = equator.reduce((a, b) => (b.pressure_hpa > a.pressure_hpa ? b : a));
    expect([9, 10, 21, 22]).toContain(Math.round(localSolarHour(new Date(highest.timestamp), 0)));
    expect(highest.pressure_hpa - 1013.25).toBeGreaterThan(1.1);
    expect(highest.pressure_hpa - 1013.25).toBeLessThanOrEqual(1.16);
  });
});

describe('climatology formulas against published values', () => {
  it('Spencer (1971) equation of time: about -14.2 min on 11 February and +16.4 min on 3 November', () => {
    expect(Math.abs(equationOfTimeMinutes(new Date('2024-02-11T12:00:00Z')) - -14.2)).toBeLessThan(0.5);
    expect(Math.abs(equationOfTimeMinutes(new Date('2024-11-03T12:00:00Z')) - 16.4)).toBeLessThan(0.5);
  });

  it('Spencer (1971) declination: the obliquity, 23.44 degrees, at the solstices within 0.05', () => {
    expect(Math.abs(solarDeclinationDeg(new Date('2024-06-20T20:51:00Z')) - 23.438)).toBeLessThan(0.05);
    expect(Math.abs(solarDeclinationDeg(new Date('2024-12-21T09:20:00Z')) - -23.438)).toBeLessThan(0.05);
  });

  it('Magnus saturation vapour pressure: 6.1094 hPa at 0 C and 23.37 hPa at 20 C (WMO table) within 0.1', () => {
    expect(saturationVapourPressureHpa(0)).toBeCloseTo(6.1094, 4);
    expect(Math.abs(saturationVapourPressureHpa(20) - 23.37)).toBeLessThan(0.1);
  });
});
