/** The local runtime itself: data kept across restarts, health when a stand-in is down, `npm start`. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalRuntime } from '../../local/runtime';
import { call, registerKey } from '../helpers/runtime';

describe('data directory', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'energy-ops-persist-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps accounts and usage across a restart', async () => {
    const first = await startLocalRuntime({ port: 0, dataDir });
    const { key, email } = await registerKey(first);
    await first.close();

    const second = await startLocalRuntime({ port: 0, dataDir });
    try {
      const r = await call(second, 'GET', '/api/usage', { key });
      expect(r).toMatchObject({ status: 200, body: { user_email: email } });
    } finally {
      await second.close();
    }
  });
});

describe('health with a stand-in down', () => {
  it('reports the components that need the bucket as unavailable and answers 503', async () => {
    const runtime = await startLocalRuntime({ port: 0 });
    try {
      await runtime.emulators.closeS3();
      const r = await call(runtime, 'GET', '/health');
      expect(r.status).toBe(503);
      expect(r.body.status).toBe('degraded');
      expect(r.body.components.data_processing).toMatch(/^unavailable: bucket unreachable/);
      expect(r.body.components.forecasting_engine).toMatch(/^unavailable/);
      expect(r.body.components.optimization_service).toBe('operational');
    } finally {
      await runtime.close().catch(() => undefined);
    }
  });
});

describe('npm start', () => {
  it('prints where it listens and how to get a key, then serves', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'energy-ops-serve-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], { env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
    try {
      let timer: NodeJS.Timeout | undefined;
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (d) => {
          text += d;
          if (text.includes('mint one')) resolve(text);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
        timer = setTimeout(() => reject(new Error(`no banner: ${text}`)), 20_000);
      }).finally(() => clearTimeout(timer));
      const url = /listening on (http:\/\/\S+)/.exec(output)![1];
      expect(output).toContain(`${url}/api/register`);
      const r = await fetch(`${url}/health`);
      expect(r.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
