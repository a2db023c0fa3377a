/**
 * The edge node over HTTP: status with the cloud reachable and not, settings kept across restarts, and
 * the sync of standardised data into a second local S3 stand-in playing the cloud bucket, which goes down
 * and comes back: nothing lost, nothing twice.
 */
import { ListObjectsV2Command, GetObjectCommand, S3Client, CreateBucketCommand } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { listKeys, getObjectText } from '../../shared/store/bucket';
import { call, registerKey } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';
import { until } from '../helpers/poll';

const CLOUD_BUCKET = 'energy-cloud';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The cloud bucket: an s3rver of its own, stopped and started again on the same port and folder. */
class CloudBucket {
  private server: S3rver | undefined;
  port = 0;
  constructor(readonly dir: string) {}
  async start() {
    this.server = new S3rver({ port: this.port, address: '127.0.0.1', directory: this.dir, silent: true, allowMismatchedSignatures: true });
    const { port } = (await this.server.run()) as AddressInfo;
    this.port = port;
  }
  async stop() {
    await this.server?.close();
  }
  client() {
    return new S3Client({ region: 'us-east-1', endpoint: `http://127.0.0.1:${this.port}`, forcePathStyle: true, credentials: CREDENTIALS });
  }
  async objects(): Promise<string[]> {
    const c = this.client();
    const out = await c.send(new ListObjectsV2Command({ Bucket: CLOUD_BUCKET }));
    c.destroy();
    return (out.Contents ?? []).map((o) => o.Key!).sort();
  }
  async text(key: string): Promise<string> {
    const c = this.client();
    const out = await c.send(new GetObjectCommand({ Bucket: CLOUD_BUCKET, Key: key }));
    const text = await out.Body!.transformToString();
    c.destroy();
    return text;
  }
}

let scratch: string;
let cloud: CloudBucket;
let health: http.Server;
let healthUrl: string;
let runtime: LocalRuntime;

const edgeEnv = () => ({
  EDGE_CLOUD_URL: healthUrl,
  EDGE_CLOUD_BUCKET: CLOUD_BUCKET,
  EDGE_CLOUD_S3_ENDPOINT: `http://127.0.0.1:${cloud.port}`,
  EDGE_CLOUD_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
  EDGE_CLOUD_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
  EDGE_SYNC_INTERVAL_SECONDS: '0.3',
  EDGE_PROBE_TIMEOUT_MS: '500',
});
const startEdge = () => startLocalRuntime({ port: 0, edge: true, dataDir: path.join(scratch, 'edge-data'), env: edgeEnv() });

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'energy-edge-'));
  cloud = new CloudBucket(path.join(scratch, 'cloud'));
  await cloud.start();
  const c = cloud.client();
  await c.send(new CreateBucketCommand({ Bucket: CLOUD_BUCKET }));
  c.destroy();
  health = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"healthy"}'));
  await new Promise<void>((r) => health.listen(0, '127.0.0.1', r));
  healthUrl = `http://127.0.0.1:${(health.address() as AddressInfo).port}`;
  runtime = await startEdge();
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  await cloud.stop();
  await new Promise((r) => health.close(r));
  rmSync(scratch, { recursive: true, force: true });
});

describe('edge node', () => {
  it('reports measured status, and keeps its id and settings across a restart', async () => {
    // Prepare
    const { key } = await registerKey(runtime);

    // Act
    const status = await call(runtime, 'GET', '/api/edge/status', { key });
    const configured = await call(runtime, 'POST', '/api/edge/configure', { key, json: { local_storage_limit: '2GB', auto_cleanup_days: 14 } });

    // Assess
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ cloud_connectivity: 'connected', sync_status: 'disabled', models_cached: 0 });
    expect(status.body.edge_node_id).toMatch(/^edge-[0-9a-f-]{36}$/);
    expect(status.body.local_storage_used).toMatch(/^\d+(\.\d)? (B|KB|MB|GB)$/);
    expect(status.body.details.storage.used_bytes).toBeGreaterThan(0);
    expect(configured.body).toMatchObject({ status: 'success', configuration: { local_storage_limit: '2GB', auto_cleanup_days: 14, cloud_sync: false } });

    await runtime.close();
    runtime = await startEdge();
    const { key: again } = await registerKey(runtime);
    const after = await call(runtime, 'GET', '/api/edge/status', { key: again });
    expect(after.body.edge_node_id).toBe(status.body.edge_node_id);
    expect(after.body.details.settings).toMatchObject({ local_storage_limit: '2GB', auto_cleanup_days: 14 });
  });

  it('says the cloud is unreachable when its health check does not answer, and refuses bad settings', async () => {
    const { key } = await registerKey(runtime);
    await new Promise((r) => health.close(r));
    const status = await call(runtime, 'GET', '/api/edge/status', { key });
    expect(status.body.cloud_connectivity).toBe('unreachable');
    await new Promise<void>((r) => health.listen(Number(new URL(healthUrl).port), '127.0.0.1', r));
    expect((await call(runtime, 'GET', '/api/edge/status', { key })).body.cloud_connectivity).toBe('connected');

    expect(await call(runtime, 'POST', '/api/edge/configure', { key, json: { local_storage_limit: 'lots' } })).toMatchObject({
      status: 400,
      body: { error: 'Invalid request: local_storage_limit must be a size such as 10GB or 500MB' },
    });
    expect((await call(runtime, 'POST', '/api/edge/configure', { key, json: { performance_mode: 'turbo' } })).status).toBe(400);
  });

  it('syncs standardised data to the cloud bucket, queues it while the cloud is down, and sends it once when it is back', async () => {
    // Prepare: sync on, then a site's history uploaded at the edge.
    const { key } = await registerKey(runtime);
    expect((await call(runtime, 'POST', '/api/edge/configure', { key, json: { cloud_sync: true, security_level: 'high' } })).body.configuration.cloud_sync).toBe(true);
    const nodeId = (await call(runtime, 'GET', '/api/edge/status', { key })).body.edge_node_id as string;
    const upload = async (site: string) => {
      const r = await postForm(runtime, '/upload_train', key, form({ customer_id: `edge-cust-${site}-${Date.now()}`, site_id: site, region: 'af-south-1', location: 'Nairobi' }, solarCsv(24 * 40)));
      expect(r.status).toBe(200);
      expect((await settled(runtime, key, r.body.upload_id)).status).toBe('processed');
    };
    const localSynced = async () => (await Promise.all(['series/', 'weather/'].map((p) => listKeys(p)))).flat().sort();

    // Act 1: with the link up, the objects arrive under edge/<node id>/.
    await upload('roof-a');
    await until(async () => (await call(runtime, 'GET', '/api/edge/status', { key })).body.sync_status === 'synced', { ms: 20_000 });
    const firstRound = await localSynced();
    expect(firstRound.length).toBeGreaterThan(0);
    expect(await cloud.objects()).toEqual(firstRound.map((k) => `edge/${nodeId}/${k}`));

    // Act 2: the cloud goes down; new data is queued on disk, not lost.
    await cloud.stop();
    await upload('roof-b');
    await until(async () => (await call(runtime, 'GET', '/api/edge/status', { key })).body.sync_status === 'retrying', { ms: 20_000 });
    const down = (await call(runtime, 'GET', '/api/edge/status', { key })).body;
    expect(down.details.sync.pending_objects).toBeGreaterThan(0);
    expect(down.details.sync.last_error).toBeTruthy();

    // Act 3: the cloud comes back on the same port; the queue drains.
    await cloud.start();
    await until(async () => (await call(runtime, 'GET', '/api/edge/status', { key })).body.sync_status === 'synced', { ms: 30_000 });

    // Assess: every standardised object exactly once in the cloud, with the edge's content.
    const all = await localSynced();
    const inCloud = await cloud.objects();
    expect(inCloud).toEqual(all.map((k) => `edge/${nodeId}/${k}`));
    expect(new Set(inCloud).size).toBe(inCloud.length);
    for (const k of all.filter((x) => x.includes('roof-b'))) expect(await cloud.text(`edge/${nodeId}/${k}`)).toBe(await getObjectText(k));

    // Act 4: a storage limit far below what is stored, while the cloud is down and roof-c is not synced yet:
    // the clean-up removes synced objects only.
    await cloud.stop();
    await upload('roof-c');
    const cleaned = await call(runtime, 'POST', '/api/edge/configure', { key, json: { local_storage_limit: '1KB' } });
    expect(cleaned.status).toBe(200);
    const left = await localSynced();
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((k) => k.includes('roof-c'))).toBe(true);
    const status = (await call(runtime, 'GET', '/api/edge/status', { key })).body;
    expect(status.details.storage.last_cleanup).toMatchObject({ stillOverLimit: true });
    await cloud.start();
    await until(async () => (await call(runtime, 'GET', '/api/edge/status', { key })).body.sync_status === 'synced', { ms: 30_000 });
    expect((await cloud.objects()).filter((k) => k.includes('roof-c'))).toEqual(left.map((k) => `edge/${nodeId}/${k}`));
  }, 120_000);
});
