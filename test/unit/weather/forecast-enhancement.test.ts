import { forecastEnhancement, lag1Autocorrelation, noctCellTemperature, pearson, temperatureImpact } from '../../../shared/domain/weather/forecast-enhancement';
import { offlineWeather } from '../../../shared/domain/weather/offline-model';

describe('pearson', () => {
  it('is 1 and -1 for exact linear relations and a hand-computed value otherwise', () => {
    expect(pearson([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    expect(pearson([1, 2, 3, 4], [8, 6, 4, 2])).toBeCloseTo(-1, 12);
    // x = 1,2,3; y = 1,3,2: dx = -1,0,1; dy = -1,1,0; sxy = 1, sxx = 2, syy = 2 -> 0.5
    expect(pearson([1, 2, 3], [1, 3, 2])).toBeCloseTo(0.5, 12);
  });

  it('is 0 for a constant series or fewer than two values', () => {
    expect(pearson([5, 5, 5], [1, 2, 3])).toBe(0);
    expect(pearson([1, 2, 3], [0, 0, 0])).toBe(0);
    expect(pearson([1], [2])).toBe(0);
  });
});

describe('lag1Autocorrelation', () => {
  it('matches hand computations', () => {
    // 1..5: deviations -2,-1,0,1,2; sum of lagged products (-2)(-1) + 0 + 0 + (1)(2) = 4; sum of squares 10 -> 0.4
    expect(lag1Autocorrelation([1, 2, 3, 4, 5])).toBeCloseTo(0.4, 12);
    // alternating: mean 0; lagged products -1 three times; squares 4 -> -0.75
    expect(lag1Autocorrelation([1, -1, 1, -1])).toBeCloseTo(-0.75, 12);
  });

  it('is 0 for a constant series and leaves out pairs across a gap', () => {
    expect(lag1Autocorrelation([3, 3, 3, 3])).toBe(0);
    // 1..5 with a gap between the 2nd and 3rd value: the (-1)(0) pair drops out, which was 0: still 0.4;
    // a gap between the 1st and 2nd drops (-2)(-1) = 2: 2 / 10 = 0.2
    expect(lag1Autocorrelation([1, 2, 3, 4, 5], (i) => i !== 0)).toBeCloseTo(0.2, 12);
  });
});

describe('temperature impact (NOCT cell temperature, -0.4 %/K)', () => {
  it('puts the cell at NOCT under the NOCT conditions (20 C air, 800 W/m2)', () => {
    expect(noctCellTemperature(20, 800)).toBe(45);
    expect(noctCellTemperature(10, 0)).toBe(10);
  });

  it('weights hours by irradiance and reports the loss against STC', () => {
    // cells: 20 + 25 = 45 C at 800 W/m2, 10 + 12.5 = 22.5 C at 400 W/m2; weighted (800*45 + 400*22.5)/1200 = 37.5 C
    // air (800*20 + 400*10)/1200 = 16.67 C; loss 0.4 * (37.5 - 25) = 5.0 %; the night hour does not count
    const impact = temperatureImpact([
      { temperature_c: 20, solar_radiation_wm2: 800 },
      { temperature_c: 10, solar_radiation_wm2: 400 },
      { temperature_c: -3, solar_radiation_wm2: 0 },
    ]);
    expect(impact.cellC).toBeCloseTo(37.5, 12);
    expect(impact.powerChangePct).toBeCloseTo(-5, 12);
    expect(impact.summary).toBe('Mean daytime cell temperature 37.5 C (irradiance-weighted; air 16.7 C, NOCT 45 C): about 5.0% below STC output at -0.4%/K.');
  });

  it('says when cold cells beat STC and when there is no daylight', () => {
    // -5 + 25 * 200 / 800 = 1.25 C: 0.4 * 23.75 = 9.5 % above
    expect(temperatureImpact([{ temperature_c: -5, solar_radiation_wm2: 200 }]).summary).toBe(
      'Mean daytime cell temperature 1.3 C (irradiance-weighted; air -5.0 C, NOCT 45 C): about 9.5% above STC output at -0.4%/K.',
    );
    expect(temperatureImpact([{ temperature_c: -20, solar_radiation_wm2: 0 }])).toEqual({
      summary: 'No daylight in the range: temperature has no effect on PV output.',
      airC: null,
      cellC: null,
      powerChangePct: null,
    });
  });
});

describe('forecastEnhancement', () => {
  const site = { latitude: 52.52, longitude: 13.405 };
  const points = offlineWeather({ ...site, start: new Date('2024-06-19T22:00:00Z'), end: new Date('2024-06-21T22:00:00Z') });

  it('finds the offline model’s expected irradiance all but fully explained by sun geometry and its smooth wind persistent', () => {
    const e = forecastEnhancement(points, site);
    expect(e.solar_correlation).toBe(1); // clear sky times a smooth expected index: 0.9996, rounded
    expect(e.wind_correlation).toBeGreaterThan(0.9);
    expect(e.wind_correlation).toBeLessThan(1);
    expect(e.temperature_impact).toMatch(/^Mean daytime cell temperature \d+\.\d C .*below STC output at -0\.4%\/K\.$/);
  });

  it('counts, for a climatology, the hour-to-hour spread of real weather its expectation hides', () => {
    const climate = forecastEnhancement(points, site, 60, { climatology: true });
    expect(climate.solar_correlation).toBeLessThan(0.95);
    expect(climate.solar_correlation).toBeGreaterThan(0.7);
    // A sunnier climate (less cloud, less spread) is better explained by geometry.
    const clearer = points.map((p) => ({ ...p, cloud_cover_pct: p.cloud_cover_pct / 3 }));
    expect(forecastEnhancement(clearer, site, 60, { climatology: true }).solar_correlation).toBeGreaterThan(climate.solar_correlation);
    expect(climate.wind_correlation).toBe(forecastEnhancement(points, site).wind_correlation);
  });

  it('sees clouds lower the solar correlation, and rounds to three decimals', () => {
    // Afternoons overcast (a tenth of the light) on the second day only
    const cloudy = points.map((p, i) => (i >= 24 && new Date(p.timestamp).getUTCHours() >= 12 ? { ...p, solar_radiation_wm2: p.solar_radiation_wm2 / 10 } : p));
    const e = forecastEnhancement(cloudy, site);
    expect(e.solar_correlation).toBeLessThan(0.95);
    expect(e.solar_correlation).toBeGreaterThan(0.5);
    expect(e.solar_correlation).toBe(Math.round(e.solar_correlation * 1000) / 1000);
  });

  it('answers 0 for a constant wind and for no data at all', () => {
    const calm = points.map((p) => ({ ...p, wind_speed_ms: 2 }));
    expect(forecastEnhancement(calm, site).wind_correlation).toBe(0);
    expect(forecastEnhancement([], site)).toEqual({ solar_correlation: 0, wind_correlation: 0, temperature_impact: 'No daylight in the range: temperature has no effect on PV output.' });
  });
});
