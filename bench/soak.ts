/**
 * Soak benchmark (issue 17): mixed traffic at 20 connections against a freshly started server process
 * (`node --import tsx bin/serve.ts`, a temporary DATA_DIR, a free port, LOG_LEVEL=warn, rate limits out of
 * the way), for SOAK_SECONDS (default 120). The mix: health, usage, small dispatch, forecast, policy,
 * asset list and economics requests, malformed ones (a bad escape, bad JSON, a truncated multipart body)
 * that must answer 400, and unknown paths that must answer 404.
 *
 * Errors: answers other than the one expected for their request (every 5xx among them), time-outs and
 * connection errors. The server's resident memory (VmRSS of its process, which holds the embedded
 * stand-ins' worker thread too) is sampled every 5 s. Writes bench/results/soak.{json,md}.
 *   npm run bench -- soak             SOAK_SECONDS=20 npm run bench -- soak
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { dispatchOptimizationExample, forecastExample, policyComplianceExample, projectEconomicsExample } from '../shared/openapi/examples';
import { UNLIMITED_ENV } from '../local/unlimited-env';
import { roundHalfUp } from '../shared/domain/rounding';
import { writeResults } from './results-files';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const CONNECTIONS = 20;
const SAMPLE_MS = 5_000;
/** A request unanswered after this long counts as a time-out (an error). */
const TIMEOUT_SECONDS = 10;
/** RSS "levels off" when the second half of the run adds less than this share of the middle sample (or 16 MB). */
const LEVEL_OFF_SHARE = 0.05;

interface Mix {
  name: string;
  /** How many times it appears in each connection's sequence of requests. */
  weight: number;
  request: autocannon.Request;
  expect: number;
}

const json = (method: 'GET' | 'POST', p: string, key: string, body?: unknown): autocannon.Request => ({
  method,
  path: p,
  headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const BOUNDARY = 'soakBoundary';
/** A form that ends inside the file part: the multipart parser must answer 400, not wait or crash. */
const TRUNCATED_FORM = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="customer_id"\r\n\r\nc1\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="d.csv"\r\nContent-Type: text/csv\r\n\r\ntimestamp,power_kw\n2026-01-01T00:00:00Z,1\n`;

function mixFor(key: string): Mix[] {
  return [
    { name: 'GET /health', weight: 2, request: { method: 'GET', path: '/health' }, expect: 200 },
    { name: 'GET /api/usage', weight: 3, request: json('GET', '/api/usage', key), expect: 200 },
    { name: 'POST /api/dispatch-optimization (24 h)', weight: 1, request: json('POST', '/api/dispatch-optimization', key, dispatchOptimizationExample), expect: 200 },
    { name: 'POST /forecast (72 h of history)', weight: 1, request: json('POST', '/forecast', key, forecastExample), expect: 200 },
    { name: 'POST /api/policy-compliance', weight: 1, request: json('POST', '/api/policy-compliance', key, policyComplianceExample), expect: 200 },
    { name: 'POST /terminal/assets list', weight: 2, request: json('POST', '/terminal/assets', key, { action: 'list' }), expect: 200 },
    { name: 'POST /api/project-economics', weight: 2, request: json('POST', '/api/project-economics', key, projectEconomicsExample), expect: 200 },
    { name: 'GET /api/uploads/%ZZ (bad escape)', weight: 1, request: json('GET', '/api/uploads/%ZZ', key), expect: 400 },
    { name: 'POST /api/project-economics (bad JSON)', weight: 1, request: { ...json('POST', '/api/project-economics', key, {}), body: '{"project_config":' }, expect: 400 },
    {
      name: 'POST /upload_train (truncated multipart)',
      weight: 1,
      request: { method: 'POST', path: '/upload_train', headers: { 'x-api-key': key, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body: TRUNCATED_FORM },
      expect: 400,
    },
    { name: 'GET /no-such-path (404)', weight: 1, request: json('GET', '/no-such-path', key), expect: 404 },
  ];
}

/** Interleaves the mix by weight (a, b, c, a, b, a, ...) so every connection sees each kind spread out. */
function sequence(mix: Mix[]): Mix[] {
  const out: Mix[] = [];
  for (let round = 0; round < Math.max(...mix.map((m) => m.weight)); round++) out.push(...mix.filter((m) => m.weight > round));
  return out;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The server as `npm start` runs it, with the environment of this benchmark; resolves once it listens. */
function startServer(dataDir: string, port: number): Promise<{ child: ChildProcess; url: string; logLines: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...UNLIMITED_ENV,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines: string[] = [];
  child.stderr!.on('data', (d: Buffer) => logLines.push(...d.toString().split('\n').filter(Boolean)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start within 120 s')), 120_000);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${logLines.slice(-5).join(' | ')}`)));
    child.stdout!.on('data', (d: Buffer) => {
      const listening = /listening on (http:\/\/\S+)/.exec(d.toString());
      if (listening) {
        clearTimeout(timer);
        resolve({ child, url: listening[1], logLines });
      }
    });
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of a process, MB (Linux). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Math.round(Number(kb[1]) / 1024) : NaN;
}

export async function benchSoak(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'energy-ops-soak-'));
  const { child, url, logLines } = await startServer(dataDir, await freePort());
  const pid = child.pid!;
  const samples: { second: number; rss_mb: number }[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    // An enterprise key as an operator mints one (through the running server's store): no monthly quota ends the run.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/accounts.ts', 'mint', '--email', `soak-${Date.now()}@example.com`, '--tier', 'enterprise'], {
      env: { ...process.env, DATA_DIR: dataDir },
    });
    const key = (JSON.parse(stdout) as { api_key: string }).api_key;

    const mix = mixFor(key);
    const tally = new Map(mix.map((m) => [m.name, { requests: 0, unexpected: 0, statuses: {} as Record<number, number> }]));
    const requests = sequence(mix).map((m) => ({
      ...m.request,
      onResponse: (status: number) => {
        const t = tally.get(m.name)!;
        t.requests++;
        t.statuses[status] = (t.statuses[status] ?? 0) + 1;
        if (status !== m.expect) t.unexpected++;
      },
    }));

    const started = Date.now();
    const sample = () => samples.push({ second: Math.round((Date.now() - started) / 1000), rss_mb: rssMb(pid) });
    sample();
    sampler = setInterval(sample, SAMPLE_MS);
    const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, timeout: TIMEOUT_SECONDS, requests });
    clearInterval(sampler);
    sample();
    const healthAfter = (await fetch(`${url}/health`)).status;

    const answered = [...tally.values()].reduce((a, t) => a + t.requests, 0);
    const unexpected = [...tally.values()].reduce((a, t) => a + t.unexpected, 0);
    const errors = unexpected + result.errors;
    const rss = samples.map((s) => s.rss_mb);
    const middle = samples.reduce((best, s) => (Math.abs(s.second - SECONDS / 2) < Math.abs(best.second - SECONDS / 2) ? s : best));
    const growthSecondHalf = rss[rss.length - 1] - middle.rss_mb;
    const results = {
      measured_at: new Date().toISOString(),
      machine: { node: process.version, cpus: cpus().length },
      load: { connections: CONNECTIONS, seconds: SECONDS, timeout_seconds: TIMEOUT_SECONDS, tool: 'autocannon, request sequence per connection; server in its own process (bin/serve.ts)' },
      requests: answered,
      errors: { total: errors, rate: roundHalfUp(errors / Math.max(answered + result.errors, 1), 6), unexpected_status: unexpected, five_xx: result['5xx'], timeouts: result.timeouts, connection_errors: result.errors - result.timeouts },
      latency_ms: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      throughput: { requests_per_second: roundHalfUp(answered / result.duration, 2), bytes_per_second: roundHalfUp(result.throughput.average, 2) },
      server_rss_mb: { start: rss[0], middle: middle.rss_mb, end: rss[rss.length - 1], max: Math.max(...rss), growth_second_half: growthSecondHalf, levels_off: growthSecondHalf <= Math.max(LEVEL_OFF_SHARE * middle.rss_mb, 16), samples },
      server_log: { error_lines: logLines.filter((l) => l.includes('"level":"error"')).length, warn_lines: logLines.filter((l) => l.includes('"level":"warn"')).length, first_errors: logLines.filter((l) => l.includes('"level":"error"')).slice(0, 5) },
      health_after: healthAfter,
      by_request: Object.fromEntries([...tally].map(([name, t]) => [name, { ...t, expected: mix.find((m) => m.name === name)!.expect }])),
    };

    const r = results;
    const md = [
      `# Soak benchmark (${r.measured_at})`,
      '',
      `Node ${process.version}, ${r.machine.cpus} cores; ${CONNECTIONS} connections for ${SECONDS} s of mixed traffic (autocannon on loopback), against \`node --import tsx bin/serve.ts\` started fresh (temporary DATA_DIR, LOG_LEVEL=warn).`,
      '',
      `Requests: ${r.requests} (${r.throughput.requests_per_second}/s); latency p50 ${r.latency_ms.p50} ms, p99 ${r.latency_ms.p99} ms, max ${r.latency_ms.max} ms.`,
      `Errors: ${r.errors.total} (rate ${r.errors.rate}): ${r.errors.unexpected_status} unexpected statuses (${r.errors.five_xx} of them 5xx), ${r.errors.timeouts} time-outs, ${r.errors.connection_errors} connection errors. Target 0.`,
      `Server RSS: start ${r.server_rss_mb.start} MB, middle ${r.server_rss_mb.middle} MB, end ${r.server_rss_mb.end} MB, max ${r.server_rss_mb.max} MB; second half ${growthSecondHalf >= 0 ? '+' : ''}${growthSecondHalf} MB (${r.server_rss_mb.levels_off ? 'levels off' : 'still growing'}).`,
      `Server log: ${r.server_log.error_lines} error lines, ${r.server_log.warn_lines} warnings; /health after the run: ${healthAfter}.`,
      '',
      '| request | expected | answered | unexpected | statuses |',
      '|---|---|---|---|---|',
      ...Object.entries(r.by_request).map(([name, t]) => `| ${name} | ${t.expected} | ${t.requests} | ${t.unexpected} | ${Object.entries(t.statuses).map(([s, n]) => `${s}: ${n}`).join(', ')} |`),
      '',
      `RSS samples (s: MB): ${samples.map((s) => `${s.second}: ${s.rss_mb}`).join(', ')}`,
      '',
    ].join('\n');
    writeResults('soak', results, md);
  } finally {
    if (sampler) clearInterval(sampler);
    await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
