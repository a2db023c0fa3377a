/**
 * An Open-Meteo stand-in on loopback for the latency run: it answers the forecast and archive APIs in Open-Meteo's
 * documented JSON (https://open-meteo.com/en/docs; hourly arrays, `timezone=GMT`, irradiance as the mean of the
 * hour before each time) with a hazy clear sky at the asked place, and counts the requests it gets.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HOUR_MS } from '../../shared/domain/time';
import { meanClearSky } from '../../shared/domain/weather/clear-sky';
import { OPEN_METEO_HOURLY } from '../../shared/weather-providers/open-meteo';

/** A hazy hour at a place: 80% of the hour's mean clear-sky irradiances, labelled at the hour's end (Open-Meteo's convention). */
export function standInHour(end: number, latitude: number, longitude: number) {
  const sky = meanClearSky(new Date(end), 60, { latitude, longitude });
  const hourOfDay = new Date(end).getUTCHours();
  return {
    temperature_2m: 18 + 6 * Math.sin(((hourOfDay - 9) * Math.PI) / 12),
    shortwave_radiation: 0.8 * sky.ghi,
    wind_speed_10m: 3,
    cloud_cover: 25,
    relative_humidity_2m: 55,
    surface_pressure: 1010,
    direct_normal_irradiance: 0.8 * sky.dni,
    diffuse_radiation: 0.8 * sky.dhi,
  };
}

/** The body Open-Meteo gives for `hourly=...&start_date&end_date&timezone=GMT` (https://open-meteo.com/en/docs). */
export function openMeteoBody(latitude: number, longitude: number, startDate: string, endDate: string): Record<string, unknown> {
  const first = Date.parse(`${startDate}T00:00:00Z`);
  const last = Date.parse(`${endDate}T23:00:00Z`);
  const time: string[] = [];
  const hourly: Record<string, number[]> = Object.fromEntries(OPEN_METEO_HOURLY.map((v) => [v, []]));
  for (let t = first; t <= last; t += HOUR_MS) {
    time.push(new Date(t).toISOString().slice(0, 16));
    const hour = standInHour(t, latitude, longitude);
    for (const v of OPEN_METEO_HOURLY) hourly[v].push(Math.round(hour[v] * 10) / 10);
  }
  return { latitude, longitude, utc_offset_seconds: 0, timezone: 'GMT', hourly_units: {}, hourly: { time, ...hourly } };
}

/** Starts the stand-in on a free loopback port. */
export async function standIn(): Promise<{ base: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    calls++;
    const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const body = openMeteoBody(Number(q.get('latitude')), Number(q.get('longitude')), q.get('start_date') ?? '', q.get('end_date') ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
