/**
 * POST /api/pv-forecast with the weather provider (issue 19): Open-Meteo (a loopback stand-in answering in its
 * documented format) with WEATHER_PROVIDER=auto, its per-cell cache, and the offline fallback when it fails.
 */
import type { ServerResponse } from 'node:http';
import { openMeteoAnswer, useOpenMeteoStandIn } from '../helpers/open-meteo-stand-in';
import { call, enterpriseKey, useRuntime } from '../helpers/runtime';

const HOUR = 3_600_000;
const system = (latitude: number, longitude: number) => ({ latitude, longitude, elevation_m: 40, capacity_kwp: 5, tilt_deg: 30, azimuth_deg: 180 });
/** A fair day everywhere: GHI a half sine over 04-20 UTC peaking at 700 W/m2, a third of it diffuse. */
const fair = (variable: string, _i: number, at: Date): number => {
  const h = at.getUTCHours();
  const ghi = h > 4 && h <= 20 ? 700 * Math.sin((Math.PI * (h - 4)) / 16) : 0;
  const values: Record<string, number> = { shortwave_radiation: ghi, diffuse_radiation: ghi / 3, direct_normal_irradiance: 0, temperature_2m: 20, wind_speed_10m: 3, cloud_cover: 30, relative_humidity_2m: 60, surface_pressure: 1005 };
  return values[variable] ?? 0;
};

let failing = false;
const standIn = useOpenMeteoStandIn(
  (req, res: ServerResponse) => {
    if (failing) {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: true, reason: 'Service unavailable' }));
      return;
    }
    const url = new URL(req.url ?? '/', 'http://stand-in');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(openMeteoAnswer(url, fair)));
  },
  { provider: 'auto' },
);

describe('PV forecasts from the weather provider', () => {
  const runtime = useRuntime();
  let key: string;
  beforeAll(async () => {
    key = await enterpriseKey(runtime());
  });
  const start = new Date(Math.floor(Date.now() / HOUR) * HOUR + HOUR).toISOString();

  it('forecasts from Open-Meteo, and a second site in the same 0.1 degree cell costs no upstream call', async () => {
    standIn.requests.length = 0;
    const first = await call(runtime(), 'POST', '/api/pv-forecast', { key, json: { pv_system: system(48.13, 11.57), start, horizon_hours: 48, interval_minutes: 15 } });
    expect(first.status).toBe(200);
    expect(first.body.weather_source).toBe('open-meteo');
    expect(first.body.weather_note).toBeUndefined();
    const upstream = standIn.requests.length;
    expect(upstream).toBeGreaterThan(0);
    expect(standIn.requests[0].pathname).toBe('/v1/forecast');
    expect(standIn.requests[0].searchParams.get('hourly')).toContain('shortwave_radiation');
    expect(Math.max(...first.body.forecasts.map((p: { p50_kw: number }) => p.p50_kw))).toBeGreaterThan(1);

    const second = await call(runtime(), 'POST', '/api/pv-forecast', { key, json: { pv_system: system(48.14, 11.58), start, horizon_hours: 48, interval_minutes: 15 } });
    expect(second.status).toBe(200);
    expect(second.body.weather_source).toBe('open-meteo');
    expect(standIn.requests.length).toBe(upstream);
  });

  it('falls back to the offline climatology when Open-Meteo fails, and says so', async () => {
    failing = true;
    try {
      const r = await call(runtime(), 'POST', '/api/pv-forecast', { key, json: { pv_system: system(40.42, -3.7), start, horizon_hours: 24, interval_minutes: 60 } });
      expect(r.status).toBe(200);
      expect(r.body.weather_source).toBe('offline-climatology');
      expect(r.body.weather_note).toMatch(/Open-Meteo/);
      expect(r.body.forecasts).toHaveLength(24);
    } finally {
      failing = false;
    }
  });
});
