/** A caller's weather rows on a forecast's grid: matched by timestamp, interpolated within the feed's spacing, gaps reported. */
import { feedSpacing, ghiFromCloudCover, weatherRowsOnGrid } from '../../../shared/domain/forecasting/weather-rows';
import { clearSkyGhiAt } from '../../../shared/domain/weather/clear-sky';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 5, 1);
const quarter = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + (i * HOUR) / 4);

describe('weatherRowsOnGrid', () => {
  it('puts hourly rows on a 15-minute grid: the row at its own instant, straight lines between rows an hour apart', () => {
    const rows = Array.from({ length: 4 }, (_, h) => ({ t: T0 + h * HOUR, values: { ghi_wm2: 100 * h, temperature_c: 10 + h } }));

    const grid = weatherRowsOnGrid(rows, quarter(T0, 8), quarter(T0 + 2 * HOUR, 5));

    expect(grid.history.ghi_wm2).toEqual([0, 25, 50, 75, 100, 125, 150, 175]);
    expect(grid.history.temperature_c).toEqual([10, 10.25, 10.5, 10.75, 11, 11.25, 11.5, 11.75]);
    expect(grid.future.ghi_wm2).toEqual([200, 225, 250, 275, 300]);
    expect(grid.missing).toBeUndefined();
  });

  it('does not bridge a missing row, and reports the first horizon step left without a value', () => {
    const rows = [0, 1, 3, 4].map((h) => ({ t: T0 + h * HOUR, values: { wind_speed_ms: h } }));

    const grid = weatherRowsOnGrid(rows, [T0, T0 + HOUR], [T0 + 2 * HOUR, T0 + 3 * HOUR, T0 + 4 * HOUR, T0 + 5 * HOUR]);

    expect(grid.history.wind_speed_ms).toEqual([0, 1]);
    expect(grid.future.wind_speed_ms).toEqual([NaN, 3, 4, NaN]);
    expect(grid.missing).toEqual({ variable: 'wind_speed_ms', t: T0 + 2 * HOUR, count: 2 });
  });

  it('takes each variable at its own spacing, and leaves out variables no row carries', () => {
    const rows = [
      ...[0, 3, 6].map((h) => ({ t: T0 + h * HOUR, values: { temperature_c: h } })),
      ...[0, 1, 2, 3, 4, 5, 6].map((h) => ({ t: T0 + h * HOUR, values: { ghi_wm2: 10 * h } })),
    ];

    const grid = weatherRowsOnGrid(rows, [T0 + HOUR, T0 + 2 * HOUR], [T0 + 4 * HOUR]);

    expect(grid.history.temperature_c).toEqual([1, 2]);
    expect(grid.future.temperature_c).toEqual([4]);
    expect(Object.keys(grid.history).sort()).toEqual(['ghi_wm2', 'temperature_c']);
  });

  it('reads the spacing of a feed as its most common step', () => {
    expect(feedSpacing([0, 60, 120, 180, 300])).toBe(60);
    expect(feedSpacing([0])).toBe(0);
  });
});

describe('ghiFromCloudCover', () => {
  it('is the clear sky under no cloud and a quarter of it under full cover (Kasten & Czeplak 1980)', () => {
    const site = { latitude: 52.52, longitude: 13.405 };
    const noon = Date.UTC(2026, 5, 21, 11);
    const clear = clearSkyGhiAt(new Date(noon), site);

    const [none, full, half, unknown] = ghiFromCloudCover([noon, noon, noon, noon], [0, 100, 50, NaN], site);

    expect(none).toBeCloseTo(clear, 6);
    expect(full).toBeCloseTo(0.25 * clear, 6);
    expect(half).toBeCloseTo(clear * (1 - 0.75 * 0.5 ** 3.4), 6);
    expect(unknown).toBeNaN();
  });
});
