/** An Open-Meteo stand-in on loopback for a test file: the runtime's weather provider points at it until the file ends. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetConfig } from '../../shared/config';

const VARIABLES = ['WEATHER_PROVIDER', 'OPEN_METEO_FORECAST_URL', 'OPEN_METEO_ARCHIVE_URL'];

export function useOpenMeteoStandIn(answer: RequestListener): void {
  let upstream: Server;
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  beforeAll(async () => {
    upstream = createServer(answer);
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    Object.assign(process.env, { WEATHER_PROVIDER: 'open-meteo', OPEN_METEO_FORECAST_URL: `${base}/v1/forecast`, OPEN_METEO_ARCHIVE_URL: `${base}/v1/archive` });
    resetConfig();
  });
  afterAll(async () => {
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    resetConfig();
    await new Promise((resolve) => upstream.close(resolve));
  });
}
