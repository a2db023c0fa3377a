/**
 * The artefact we deploy, run: every function's esbuild bundle, built as CDK builds it (lib/bundling.ts) into a
 * directory with nothing of this repository above it (as a Lambda asset), served by `npm start` with
 * LAMBDA_BUNDLES through the same gateway, stand-ins and worker threads. A smoke set over HTTP: health,
 * registration, an upload processed by the S3-triggered worker, a HiGHS dispatch (its wasm beside the bundle),
 * a forecast.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { buildBundles, FILES_BY_READER, runtimeFiles } from '../../lib/bundling';
import type { LocalRuntime } from '../../local/runtime';
import { call, registerKey } from '../helpers/runtime';
import { form, postForm, solarCsv } from '../helpers/uploads';

const ROOT = path.resolve(__dirname, '../..');
const HOUR = 3_600_000;

let dir: string;
let bundles: string;
let metafile: Metafile;
let server: ChildProcessWithoutNullStreams | undefined;
let output = '';
/** The helpers take a runtime; over HTTP they use only its URL. */
let runtime: LocalRuntime;

/** `npm start` with the given environment; resolves with the URL it prints, rejects with its output when it exits. */
function serve(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], { cwd: ROOT, env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env } });
  server = child;
  output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    });
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
  });
}

async function stop(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'energy-bundles-e2e-'));
  bundles = path.join(dir, 'bundles');
  ({ metafile } = await buildBundles(bundles, { projectRoot: ROOT }));
  const url = await serve({ LAMBDA_BUNDLES: bundles, DATA_DIR: path.join(dir, 'data') });
  runtime = { url } as LocalRuntime;
}, 90_000);

afterAll(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
});

it('says it serves the bundles, and is healthy', async () => {
  expect(output).toContain(`functions from the bundles in ${bundles}`);
  const r = await call(runtime, 'GET', '/health');
  expect(r).toMatchObject({ status: 200, body: { status: 'healthy', service: 'energy-ops-api' } });
});

it('ships beside each bundle the files of exactly the readers esbuild bundled into it', () => {
  const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('/index.js'));
  expect(outputs.length).toBeGreaterThan(40);
  for (const [file, output] of outputs) {
    const module = /bundles\/(.+)\/index\.js$/.exec(file)![1];
    const bundled = Object.entries(FILES_BY_READER).flatMap(([reader, files]) => (output.inputs[reader] ? files : []));
    expect({ module, files: runtimeFiles(module, ROOT) }).toEqual({ module, files: bundled });
  }
});

it('registers a key, and processes an upload through the S3-triggered worker', async () => {
  const { key } = await registerKey(runtime);
  const id = Math.random().toString(36).slice(2, 10);
  const ack = await postForm(runtime, '/upload_train', key, form({ customer_id: `cust-${id}`, site_id: `site-${id}`, region: 'eu-central-1', location: 'Berlin', manufacturer: 'SMA' }, solarCsv(48)));
  expect(ack).toMatchObject({ status: 200, body: { processing_status: 'queued', upload_id: expect.stringMatching(/^upl_/) } });

  let status: { status?: string } = {};
  for (let i = 0; i < 200 && !['processed', 'failed'].includes(status.status ?? ''); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await call(runtime, 'GET', `/api/uploads/${ack.body.upload_id}`, { key })).body;
  }
  expect(status).toMatchObject({ status: 'processed', rows: 48, rows_rejected: 0, start: '2026-06-29T00:00:00Z', end: '2026-06-30T23:00:00Z' });
}, 30_000);

it('solves a dispatch with HiGHS, its wasm read from beside the bundle', async () => {
  const { key } = await registerKey(runtime);
  const hours = (f: (h: number) => number) => Array.from({ length: 24 }, (_, h) => Math.round(f(h) * 1000) / 1000);
  const r = await call(runtime, 'POST', '/api/dispatch-optimization', {
    key,
    json: {
      forecasts: {
        solar_forecast: hours((h) => (h >= 6 && h <= 18 ? 60 * Math.sin((Math.PI * (h - 6)) / 12) : 0)),
        load_forecast: hours(() => 20),
        price_forecast: hours((h) => (h < 17 ? 0.1 : 0.3)),
      },
      system_config: { battery_capacity_kwh: 100, battery_power_kw: 25, battery_min_soc: 0.1, battery_max_soc: 0.9, initial_soc: 0.5, roundtrip_efficiency: 0.9 },
      optimization_config: { objective: 'revenue', time_horizon: 24, interval_minutes: 60, start_time: '2026-07-01T00:00:00Z' },
    },
  });
  expect(r.status).toBe(200);
  const schedule = r.body.optimization_result.dispatch_schedule as { load_served: number; battery_power: number }[];
  expect(schedule).toHaveLength(24);
  for (const row of schedule) expect(row.load_served).toBe(20);
  // Cheap until 17:00, dear after: the battery discharges in the evening.
  expect(schedule.slice(17).some((row) => row.battery_power > 0)).toBe(true);
});

it('forecasts a day ahead of two weeks of hourly history', async () => {
  const { key } = await registerKey(runtime);
  const end = Date.UTC(2026, 5, 30, 23);
  const history = Array.from({ length: 14 * 24 }, (_, i) => {
    const t = end - (14 * 24 - 1 - i) * HOUR;
    const h = new Date(t).getUTCHours();
    return { timestamp: new Date(t).toISOString(), value: h >= 4 && h <= 20 ? Math.round(5 * Math.sin((Math.PI * (h - 4)) / 16) * 1000) / 1000 : 0, unit: 'kW' };
  });
  const r = await call(runtime, 'POST', '/forecast', { key, json: { historical_data: history, forecast_config: { horizon: 24, model_type: 'ensemble', confidence_interval: 0.9 } } });
  expect(r.status).toBe(200);
  expect(r.body.forecast).toHaveLength(24);
  expect(Date.parse(r.body.forecast[0].timestamp)).toBe(end + HOUR);
  expect(r.body.forecast[12].value).toBeGreaterThan(1);
});

it('refuses to start on a directory without the bundles', async () => {
  await stop();
  const empty = mkdtempSync(path.join(dir, 'empty-'));
  await expect(serve({ LAMBDA_BUNDLES: empty, DATA_DIR: path.join(dir, 'data-empty') })).rejects.toThrow(`LAMBDA_BUNDLES: no bundles in ${empty}`);
});
