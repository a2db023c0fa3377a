/**
 * Foundation benchmark: speed of the authenticated hot path in the local runtime, beside baselines
 * measured in the same run (ARCHITECTURE 8). Writes bench/results/foundation.{json,md}.
 *
 *  1. GET /api/usage with an enterprise key through the whole runtime (gateway, middleware, store);
 *  2. a bare node:http server answering the same JSON (the floor of HTTP on this machine);
 *  3. the embedded store's raw single-item operations per second (the floor of each round trip);
 *  4. store round trips per authenticated request, counted on the SDK client.
 * Load: autocannon in a child process, 10 connections on loopback. BENCH_SECONDS sets each run's length.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime } from '../local/runtime';
import { changeTier, registerAccount } from '../shared/services/accounts/accounts';
import { forgetCachedKeys } from '../shared/access/authentication';
import { documentClient } from '../shared/store/aws-clients';
import { tableName } from '../shared/store/tables';
import { roundHalfUp } from '../shared/domain/rounding';
import { writeResults } from './results-files';

const CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const P99_TARGET_MS = 50;
const ROUND_TRIP_TARGET = 2;

interface Load {
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, key?: string): Promise<Load> {
  const args = ['--import', 'tsx', 'bench/load.ts', url, String(CONNECTIONS), String(SECONDS), ...(key ? [key] : [])];
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout);
  return { requests_per_second: r.requests.average, p50_ms: r.latency.p50, p99_ms: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

async function storeOpsPerSecond(op: () => Promise<unknown>): Promise<number> {
  const end = Date.now() + SECONDS * 1000;
  let n = 0;
  const worker = async () => {
    while (Date.now() < end) {
      await op();
      n++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return n / ((Date.now() - started) / 1000);
}

export async function benchFoundation(): Promise<void> {
  const runtime = await startLocalRuntime({ port: 0, env: { RATE_LIMIT_ENTERPRISE: String(1e9), LOG_LEVEL: 'silent' } });
  try {
    const email = `bench-${Date.now()}@example.com`;
    const { api_key } = await registerAccount({ email });
    await changeTier(email, 'enterprise');
    forgetCachedKeys();
    const usageUrl = `${runtime.url}/api/usage`;

    // Round trips per request, counted on the document client the handlers use.
    let sent = 0;
    documentClient().middlewareStack.add((next) => async (args) => {
      sent++;
      return next(args);
    }, { step: 'initialize', name: 'benchCountRoundTrips' });
    await fetch(usageUrl, { headers: { 'x-api-key': api_key } }); // warm the key cache
    const probeRequests = 200;
    sent = 0;
    for (let i = 0; i < probeRequests; i++) await fetch(usageUrl, { headers: { 'x-api-key': api_key } }).then((r) => r.text());
    const roundTrips = sent / probeRequests;

    const sample = await (await fetch(usageUrl, { headers: { 'x-api-key': api_key } })).text();
    const bare = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(sample);
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

    const service = await load(usageUrl, api_key);
    const baseline = await load(bareUrl);
    bare.close();

    const key = { pk: 'BENCH#item', sk: 'BENCH' };
    const client = documentClient();
    const getOps = await storeOpsPerSecond(() => client.send(new GetCommand({ TableName: tableName('accounts'), Key: key })));
    const addOps = await storeOpsPerSecond(() =>
      client.send(new UpdateCommand({ TableName: tableName('accounts'), Key: key, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } })),
    );

    const results = {
      measured_at: new Date().toISOString(),
      machine: { node: process.version, cpus: (await import('node:os')).cpus().length },
      load: { connections: CONNECTIONS, seconds: SECONDS, tool: 'autocannon (separate process), loopback' },
      authenticated_usage: service,
      bare_node_http: baseline,
      store_raw_ops_per_second: { get_item: roundHalfUp(getOps, 2), update_add: roundHalfUp(addOps, 2) },
      store_round_trips_per_request: roundHalfUp(roundTrips, 3),
      ratios: {
        service_vs_bare_rps: roundHalfUp(service.requests_per_second / baseline.requests_per_second, 4),
        service_rps_vs_store_get_ops: roundHalfUp(service.requests_per_second / getOps, 4),
        service_p99_vs_bare_p99: roundHalfUp(service.p99_ms / Math.max(baseline.p99_ms, 1), 2),
      },
      targets: {
        p99_under_ms: P99_TARGET_MS,
        p99_met: service.p99_ms < P99_TARGET_MS,
        round_trips_at_most: ROUND_TRIP_TARGET,
        round_trips_met: roundTrips <= ROUND_TRIP_TARGET,
      },
    };
    const md = [
      `# Foundation benchmark (${results.measured_at})`,
      '',
      `Node ${process.version}, ${results.machine.cpus} cores; ${CONNECTIONS} connections for ${SECONDS} s each, autocannon in a separate process on loopback.`,
      '',
      '| what | requests/s | p50 ms | p99 ms | errors |',
      '|---|---|---|---|---|',
      `| GET /api/usage, authenticated, local runtime | ${roundHalfUp(service.requests_per_second, 2)} | ${service.p50_ms} | ${service.p99_ms} | ${service.errors + service.non2xx} |`,
      `| bare node:http, same JSON | ${roundHalfUp(baseline.requests_per_second, 2)} | ${baseline.p50_ms} | ${baseline.p99_ms} | ${baseline.errors + baseline.non2xx} |`,
      '',
      `Embedded store (dynalite), ${CONNECTIONS} concurrent: GetItem ${roundHalfUp(getOps, 2)}/s, UpdateItem ADD ${roundHalfUp(addOps, 2)}/s.`,
      '',
      `Store round trips per authenticated request: ${results.store_round_trips_per_request} (target at most ${ROUND_TRIP_TARGET}: ${results.targets.round_trips_met ? 'met' : 'NOT met'}).`,
      `p99 ${service.p99_ms} ms (target under ${P99_TARGET_MS} ms: ${results.targets.p99_met ? 'met' : 'NOT met'}).`,
      `Ratios: service/bare requests per second ${results.ratios.service_vs_bare_rps}; service requests per second / store GetItem per second ${results.ratios.service_rps_vs_store_get_ops}.`,
      '',
    ].join('\n');
    writeResults('foundation', results, md);
  } finally {
    await runtime.close();
  }
}

