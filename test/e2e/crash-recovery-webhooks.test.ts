/**
 * Accepted work survives a crash (issue 17): `npm start` is killed with SIGKILL while a webhook retry waits in
 * the webhooks queue (SQS DelaySeconds); started again on the same data directory and port, it delivers the
 * retry, exactly once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { pollFor } from '../helpers/poll';

/** The retry waits half this to this (equal jitter): long enough to kill the server while it waits. */
const RETRY_BASE_SECONDS = 4;
/** Generous: a loaded 2-core machine starts `npm start` (tsx, the stand-ins) in several seconds. */
const START_TIMEOUT_MS = 60_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** `npm start` as .ci/run starts it, without the endpoints another test may have left in this process's env. */
async function startServer(dataDir: string, port: number): Promise<Server> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_ENDPOINT_URL') && k !== 'QUEUE_URLS'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], {
    env: { ...env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', WEBHOOK_RETRY_BASE_SECONDS: String(RETRY_BASE_SECONDS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  let timer: NodeJS.Timeout | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}) before listening:\n${text}`)));
    timer = setTimeout(() => reject(new Error(`server not listening after ${START_TIMEOUT_MS} ms:\n${text}`)), START_TIMEOUT_MS);
  }).finally(() => clearTimeout(timer));
  return { child, url, output: () => text };
}

async function killHard(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

/** A call to the server's API; any status from 300 up fails the test. */
async function api<T = unknown>(server: Server, method: string, route: string, options: { key?: string; json?: unknown } = {}): Promise<T> {
  const res = await fetch(server.url + route, {
    method,
    headers: { ...(options.key ? { 'x-api-key': options.key } : {}), ...(options.json ? { 'content-type': 'application/json' } : {}) },
    body: options.json ? JSON.stringify(options.json) : undefined,
  });
  const body = await res.json().catch(() => undefined);
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(body)}`);
  return body as T;
}

/** The webhooks queue of the running server, through the SQS endpoint it publishes in DATA_DIR/runtime.json. */
async function webhooksQueue(dataDir: string) {
  const { sqs } = JSON.parse(readFileSync(path.join(dataDir, 'runtime.json'), 'utf8')) as { sqs: string };
  const client = new SQSClient({ region: 'us-east-1', endpoint: sqs, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const url = (await client.send(new GetQueueUrlCommand({ QueueName: 'webhooks' }))).QueueUrl!;
  return {
    async depth() {
      const a = (await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }))).Attributes!;
      return { visible: Number(a.ApproximateNumberOfMessages), inFlight: Number(a.ApproximateNumberOfMessagesNotVisible), delayed: Number(a.ApproximateNumberOfMessagesDelayed) };
    },
    close: () => client.destroy(),
  };
}

describe('a kill -9 while a webhook retry is pending', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'energy-ops-crash-'));
  let receiver: Receiver;
  const servers: Server[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all(servers.map(killHard));
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers the retry exactly once after the restart, with the same webhook-id', async () => {
    // Prepare: a registration for dispatch_executed whose receiver fails the first attempt only.
    const port = await freePort();
    const first = await startServer(dataDir, port);
    servers.push(first);
    const hook = receiver.endpoint((n) => (n === 1 ? 500 : 200));
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const { api_key: key } = await api<{ api_key: string }>(first, 'POST', '/api/register', { json: { email: `crash+${Date.now()}@example.com`, organization: 'Tests', use_case: 'tests', tier_preference: 'free' } });
    await api(first, 'POST', '/api/webhooks', { key, json: { webhook_url: hook.url, events: ['dispatch_executed'], secret } });
    const suffix = randomBytes(4).toString('hex');
    await api(first, 'POST', '/api/create-client', { key, json: { client_id: `cl-${suffix}`, name: 'Ops', contact_email: 'ops@example.com', tier: 'free', services: ['optimization'] } });
    await api(first, 'POST', '/api/create-customer', {
      key,
      json: { client_id: `cl-${suffix}`, customer_id: `cu-${suffix}`, contact_name: 'A', email: 'a@example.com', location: 'Berlin', system_type: 'pv+storage' },
    });
    const device = await api<{ device_id: string }>(first, 'POST', '/api/create-device', {
      key,
      json: { customer_id: `cu-${suffix}`, device_type: 'battery', serial_number: `SN-${suffix}`, manufacturer: 'BYD', capacity_kw: 10, installation_date: '2024-03-15', energy_capacity_kwh: 20, state: { soc: 0.5, temperature_c: 25 } },
    });

    // Act 1: the command's event is delivered once and fails; the retry waits in the queue (delayed, and the
    // event's own message deleted), and then the server is killed.
    const dispatched = await api<{ accepted: boolean; command_id: string }>(first, 'POST', '/api/realtime-dispatch', {
      key,
      json: { device_id: device.device_id, command: { action: 'charge', power_kw: 8, duration_minutes: 60, priority: 'high' }, safety_checks: { soc_limits: true, temperature_check: true, grid_constraints: true } },
    });
    expect(dispatched).toMatchObject({ accepted: true });
    await receiver.waitFor(hook.url, 1, 30_000);
    const queue = await webhooksQueue(dataDir);
    try {
      await pollFor(
        async () => {
          if (hook.hits().length > 1) throw new Error('the retry was delivered before the kill: raise RETRY_BASE_SECONDS');
          const depth = await queue.depth();
          return depth.delayed === 1 && depth.inFlight === 0 && depth.visible === 0 ? depth : undefined;
        },
        { what: 'the retry waiting in the webhooks queue', ms: 10_000, every: 50 },
      );
    } finally {
      queue.close();
    }
    await killHard(first);
    expect(hook.hits()).toHaveLength(1);

    // Act 2: the same data directory and port.
    const second = await startServer(dataDir, port);
    servers.push(second);
    const restartedAt = Date.now();
    const hits = await receiver.waitFor(hook.url, 2, 30_000);

    // Assess: the retry arrives once, is accepted, and leaves the queue empty: no third attempt can follow.
    const after = await webhooksQueue(dataDir);
    try {
      await pollFor(async () => {
        const depth = await after.depth();
        return depth.delayed + depth.inFlight + depth.visible === 0 ? depth : undefined;
      }, { what: 'the webhooks queue emptied', ms: 10_000, every: 50 });
    } finally {
      after.close();
    }
    expect(Date.now() - restartedAt).toBeLessThan(30_000);
    expect(hook.hits()).toHaveLength(2);
    expect(hits[1].headers['webhook-id']).toBe(hits[0].headers['webhook-id']);
    const delivered = new Webhook(secret).verify(hits[1].body, hits[1].headers as Record<string, string>) as { type: string; id: string; data: Record<string, unknown> };
    expect(delivered).toMatchObject({ type: 'dispatch_executed', id: hits[0].headers['webhook-id'], data: { command_id: dispatched.command_id, device_id: device.device_id } });
    expect(second.output()).not.toMatch(/webhook delivery parked/);
  }, 180_000);
});
