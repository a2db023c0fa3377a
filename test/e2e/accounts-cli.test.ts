/** `npm run accounts`: the operator mints keys and changes tiers, with the server stopped or running. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalRuntime } from '../../local/runtime';
import { call } from '../helpers/runtime';

const run = promisify(execFile);

async function accounts(dataDir: string, ...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/accounts.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir } });
  return JSON.parse(stdout);
}

describe('accounts command', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'energy-ops-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('mints an enterprise key with the server stopped, which the server then accepts', async () => {
    const minted = await accounts(dataDir, 'mint', '--email', 'ops@example.com', '--tier', 'enterprise');
    expect(minted).toMatchObject({ email: 'ops@example.com', tier: 'enterprise', api_key: expect.stringMatching(/^eo_live_/) });
    const runtime = await startLocalRuntime({ port: 0, dataDir });
    try {
      expect(await call(runtime, 'GET', '/api/usage', { key: minted.api_key })).toMatchObject({ status: 200, body: { tier: 'enterprise' } });
      expect((await call(runtime, 'GET', '/api/system-status', { key: minted.api_key })).status).toBe(200);

      // With the server running, the command goes through the server's store.
      const changed = await accounts(dataDir, 'set-tier', '--email', 'ops@example.com', '--tier', 'professional');
      expect(changed).toMatchObject({ tier: 'professional' });
      const shown = await accounts(dataDir, 'show', '--email', 'ops@example.com');
      expect(shown).toMatchObject({ tier: 'professional', usage: { forecasts: 0 } });
    } finally {
      await runtime.close();
    }
  });

  it('refuses an unknown tier with its usage line', async () => {
    await expect(accounts(dataDir, 'mint', '--email', 'x@example.com', '--tier', 'platinum')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: npm run accounts') });
  });
});
