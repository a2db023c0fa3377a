import { hourEndingMeansOnGrid, weatherOnGrid } from '../../../shared/domain/weather/hourly-on-grid';

const H = 3_600_000;
const T0 = Date.UTC(2024, 5, 1);
const quarter = (k: number) => T0 + k * 15 * 60_000;

describe('hourEndingMeansOnGrid', () => {
  // Means of 01:00-02:00 = 100 and 02:00-03:00 = 200, labelled 02:00 and 03:00; their centres are 01:30 and 02:30.
  const hours = [
    { t: T0 + 2 * H, value: 100 },
    { t: T0 + 3 * H, value: 200 },
  ];

  it('puts each mean at its hour\'s centre and draws the line between centres', () => {
    const grid = [6, 7, 8, 9, 10].map(quarter); // 01:30 .. 02:30
    expect(hourEndingMeansOnGrid(grid, hours)).toEqual([100, 125, 150, 175, 200]);
  });

  it('holds a value for half an hour beyond the outer centres, and is NaN further out or over a missing hour', () => {
    expect(hourEndingMeansOnGrid([quarter(4), quarter(12), quarter(3), quarter(13)], hours)).toEqual([100, 200, NaN, NaN]);
    const withHole = [...hours, { t: T0 + 4 * H, value: NaN }, { t: T0 + 5 * H, value: 400 }];
    // 03:00 is half an hour from 02:30's centre (held), 03:30 is a missing hour's centre, 04:30 is known.
    expect(hourEndingMeansOnGrid([quarter(12), quarter(14), quarter(18)], withHole)).toEqual([200, NaN, 400]);
  });

  it('keeps the mean of the hour: the grid values of an hour average to about its value on a straight trend', () => {
    const trend = Array.from({ length: 6 }, (_, h) => ({ t: T0 + (h + 1) * H, value: 10 * h }));
    const grid = Array.from({ length: 4 }, (_, k) => T0 + 2 * H + (k + 0.5) * 15 * 60_000); // inside the hour 02:00-03:00
    const values = hourEndingMeansOnGrid(grid, trend);
    expect(values.reduce((a, b) => a + b, 0) / values.length).toBeCloseTo(20, 9);
  });
});

describe('weatherOnGrid', () => {
  const point = (hour: number, temperature_c: number, solar_radiation_wm2: number, wind_speed_ms: number) => ({
    timestamp: new Date(T0 + hour * H).toISOString(),
    temperature_c,
    solar_radiation_wm2,
    wind_speed_ms,
    cloud_cover_pct: 0,
    humidity_pct: 50,
    pressure_hpa: 1000,
  });

  it('places temperature and wind at their labels and irradiance at the centre of the hour before its label', () => {
    const points = [point(2, 10, 100, 4), point(3, 20, 200, 6)];
    const grid = [quarter(6), quarter(8), quarter(10), quarter(12)]; // 01:30, 02:00, 02:30, 03:00
    const on = weatherOnGrid(grid, points);
    expect(on.temperature_c).toEqual([10, 10, 15, 20]);
    expect(on.wind_speed_ms).toEqual([4, 4, 5, 6]);
    expect(on.ghi_wm2).toEqual([100, 150, 200, 200]);
  });
});
