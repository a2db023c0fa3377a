/** `npm run regulatory -- pull`: the exit status says whether the pull got anything from its feeds. */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rssFeed } from '../helpers/feeds';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function pull(dataDir: string, feeds: string): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bin/regulatory.ts', 'pull'],
      { env: { ...process.env, DATA_DIR: dataDir, REGULATORY_FEEDS: feeds, REGULATORY_FEED_TIMEOUT_MS: '3000' } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as NodeJS.ErrnoException).code) : 0, stdout, stderr }),
    );
  });
}

const feed = (id: string, url: string) => ({ id, name: `Feed ${id}`, url, region: 'EU', jurisdiction: 'DE' });

describe('regulatory pull command', () => {
  let server: Server;
  let working: string;
  let dead: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'energy-ops-regulatory-cli-'));

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/feed.rss') res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed([1, 2, 3]));
      else res.writeHead(500).end('down');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    working = `${base}/feed.rss`;
    dead = `${base}/down`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 1 and names each feed when every feed fails', async () => {
    const outcome = await pull(dataDir, JSON.stringify([feed('first', dead), feed('second', `${dead}/again`)]));
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/every feed failed: .*first.*HTTP 500.*second.*HTTP 500/);
    expect(JSON.parse(outcome.stdout).feeds.map((f: { status: string }) => f.status)).toEqual(['failed', 'failed']);
  }, 60_000);

  it('exits 0 when at least one feed answers', async () => {
    const outcome = await pull(dataDir, JSON.stringify([feed('first', dead), feed('second', working)]));
    expect(outcome).toMatchObject({ code: 0, stderr: expect.not.stringContaining('every feed failed') });
    expect(JSON.parse(outcome.stdout)).toMatchObject({ stored: 3, feeds: [{ status: 'failed' }, { status: 'ok', items: 3, new: 3 }] });
  }, 60_000);

  it('exits 0 when no feed is configured', async () => {
    const outcome = await pull(dataDir, 'none');
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout).feeds).toEqual([]);
  }, 60_000);
});
