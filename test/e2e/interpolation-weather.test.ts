/**
 * POST /interpolate with weather_correlation over HTTP: the irradiance of an Open-Meteo stand-in on loopback
 * (hour-ending means, as Open-Meteo serves them) carries the clouds inside a gap into the fill, and its mean is
 * the stored weather_features.
 */
import { changeTier } from '../../shared/services/accounts/accounts';
import { clearSkyGhiAt } from '../../shared/domain/weather/clear-sky';
import { call, registerKey, useRuntime } from '../helpers/runtime';
import { mulberry32 } from '../helpers/seeded-random';
import { useOpenMeteoStandIn } from '../helpers/open-meteo-stand-in';

const runtime = useRuntime();
const SITE = { latitude: 39.74, longitude: -105.18 };
const HOUR = 3_600_000;
const STEP = 15 * 60_000;
const START = Date.UTC(2024, 5, 1);
const DAYS = 15;
const PEAK_KW = 5;

// Half the days clear; on the others a cloud index between 0.3 and 1 that moves linearly between seeded values
// every KNOT_HOURS, a random walk of clouds that the history cannot know inside the gap's day (day 8, cloudy): not its
// edges, which only tell where the clouds were, and not the other days, whose clouds are their own. Hour means keep
// most of the swing. (A periodic cloud, as this test had, the days' regression learns from the gap's edges.)
const KNOT_HOURS = 2;
const random = mulberry32(4);
const days = Array.from({ length: DAYS + 1 }, (_, d) => ({ cloudy: d === 8 || random() < 0.5, knots: Array.from({ length: 24 / KNOT_HOURS + 1 }, () => 0.3 + 0.7 * random()) }));
// Inside the gap (16:00-20:00 UTC) day 8's cloud thickens from clear to 0.3 at 18:00 and clears again: its edges
// look like a clear day's.
days[8].knots.splice(8, 3, 1, 0.3, 1);
const indexAt = (t: number) => {
  const day = days[Math.floor((t - START) / (24 * HOUR))];
  if (!day?.cloudy) return 1;
  const at = ((t - START) % (24 * HOUR)) / (KNOT_HOURS * HOUR);
  const k = Math.floor(at);
  return day.knots[k] + (day.knots[k + 1] - day.knots[k]) * (at - k);
};
const times = Array.from({ length: DAYS * 96 }, (_, i) => START + i * STEP);
const truth = times.map((t) => (PEAK_KW * clearSkyGhiAt(new Date(t), SITE) * indexAt(t)) / 1000);
/** The hour ending at `end`: the mean of twelve instants of clear-sky GHI times the cloud index. */
const hourMean = (end: number) => Array.from({ length: 12 }, (_, k) => end - HOUR + ((k + 0.5) * HOUR) / 12).reduce((s, t) => s + clearSkyGhiAt(new Date(t), SITE) * indexAt(t), 0) / 12;
// Day 8, 16:00 to 19:45 UTC (about 09:00 to 12:45 local solar time).
const gapFrom = 8 * 96 + 64;
const gapTo = gapFrom + 15;

let key: string;
const served: { t: number; ghi: number }[] = [];

useOpenMeteoStandIn((req, res) => {
  const q = new URL(req.url!, 'http://x').searchParams;
  const from = Date.parse(`${q.get('start_date')}T00:00:00Z`);
  const to = Date.parse(`${q.get('end_date')}T00:00:00Z`) + 24 * HOUR;
  const labels = Array.from({ length: (to - from) / HOUR }, (_, h) => from + h * HOUR);
  const ghi = labels.map(hourMean);
  labels.forEach((t, h) => served.push({ t, ghi: ghi[h] }));
  const constant = (v: number) => labels.map(() => v);
  const hourly = { time: labels.map((t) => new Date(t).toISOString().slice(0, 16)), temperature_2m: constant(20), shortwave_radiation: ghi, wind_speed_10m: constant(3), cloud_cover: constant(50), relative_humidity_2m: constant(40), surface_pressure: constant(820) };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ utc_offset_seconds: 0, hourly }));
});

beforeAll(async () => {
  const registered = await registerKey(runtime());
  await changeTier(registered.email, 'enterprise');
  key = registered.key;
});

describe('POST /interpolate with weather_correlation', () => {
  const request = (weather: boolean, customer_id?: string) => ({
    type: 'solar',
    mode: 'fill_missing_blocks',
    ...SITE,
    ...(customer_id ? { customer_id } : {}),
    data: times.map((t, i) => ({ timestamp: new Date(t).toISOString(), value: i >= gapFrom && i <= gapTo ? null : Math.round(truth[i] * 1e4) / 1e4 })),
    processing_options: { confidence_threshold: 0, seasonal_adjustment: true, weather_correlation: weather, max_gap_hours: 6 },
  });
  const gapRmse = (cleaned: { value: number }[]) => Math.sqrt(truth.slice(gapFrom, gapTo + 1).reduce((s, v, k) => s + (cleaned[gapFrom + k].value - v) ** 2, 0) / (gapTo - gapFrom + 1));

  it('has clouds thickening and thinning inside the gap', () => {
    const inside = times.slice(gapFrom, gapTo + 1).map(indexAt);
    expect(Math.max(...inside) - Math.min(...inside)).toBeGreaterThan(0.5);
  });

  it('follows the clouds through the gap with the irradiance, where the history alone cannot', async () => {
    const customer_id = `cust-${Math.random().toString(36).slice(2, 10)}`;
    const withWeather = await call(runtime(), 'POST', '/interpolate', { key, json: request(true, customer_id) });
    expect(withWeather.status).toBe(200);
    const withoutWeather = await call(runtime(), 'POST', '/interpolate', { key, json: request(false) });
    expect(withoutWeather.status).toBe(200);
    const [gap] = withWeather.body.processing_stats.gaps;
    expect(['irradiance', 'combination']).toContain(gap.method);
    const informed = gapRmse(withWeather.body.cleaned_data);
    const blind = gapRmse(withoutWeather.body.cleaned_data);
    expect(informed).toBeLessThan(0.5 * blind);
    expect(informed).toBeLessThan(0.1 * PEAK_KW);

    // The stored result's weather features are the means of what the feed served for the request's hours.
    const listed = await call(runtime(), 'POST', '/terminal/interpolation', { key, json: { customer_id } });
    const window = served.filter((s) => s.t >= START && s.t < Math.floor(times[times.length - 1] / HOUR) * HOUR + 2 * HOUR);
    const hours = new Map(window.map((s) => [s.t, s.ghi]));
    const mean = [...hours.values()].reduce((a, b) => a + b, 0) / hours.size;
    expect(listed.body.interpolation_results[0].weather_features).toEqual({ mean_temperature_c: 20, mean_irradiance_wm2: expect.closeTo(mean, 1) });
  });
});
