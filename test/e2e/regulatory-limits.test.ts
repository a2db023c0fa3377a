/**
 * The regulatory pull's caps against feeds served over loopback HTTP, and the list's reads bounded by what
 * the answer needs (counted in items read from the store, not in time: timings are bench/regulatory.ts's).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { call, useRuntime } from '../helpers/runtime';
import { RSS_HEAD, rssFeed, rssItem } from '../helpers/feeds';
import { documentClient } from '../../shared/store/aws-clients';
import { putItem } from '../../shared/store/dynamo';
import { keys } from '../../shared/store/keys';
import { registerAccount } from '../../shared/services/accounts/accounts';
import { pullRegulatoryUpdates } from '../../shared/services/regulatory/regulatory-updates';
import { seedUpdates, type FeedSource } from '../../shared/domain/regulatory';

const MAX_BYTES = 2 * 1024 * 1024;
const MAX_ITEMS = 100;
const FEED_ITEMS = 400;
const runtime = useRuntime({ env: { REGULATORY_FEED_MAX_BYTES: String(MAX_BYTES), REGULATORY_FEED_MAX_ITEMS: String(MAX_ITEMS), REGULATORY_FEED_TIMEOUT_MS: '20000' } });

/** Feeds on a loopback server: `/endless.rss` never ends (it writes items until the reader goes away); `/busy-<n>.rss` holds FEED_ITEMS items. */
let server: http.Server;
let base: string;
const endless = { bytesWritten: 0, closedByReader: false };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const busy = /^\/busy-(\d+)\.rss$/.exec(req.url ?? '');
    if (busy) {
      // Numbered apart per feed so each holds items of its own; the newest are the highest numbers.
      const offset = Number(busy[1]) * FEED_ITEMS;
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed(Array.from({ length: FEED_ITEMS }, (_, i) => offset + i)));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.on('close', () => (endless.closedByReader = !res.writableEnded));
    let n = 0;
    const nextChunk = () => (n === 0 ? RSS_HEAD : '') + Array.from({ length: 100 }, () => rssItem(100_000 + n++)).join('');
    const pump = () => {
      let room = true;
      while (room && !res.destroyed) {
        const chunk = nextChunk();
        endless.bytesWritten += Buffer.byteLength(chunk);
        room = res.write(chunk);
      }
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const feed = (id: string, path: string): FeedSource => ({ id, name: id, url: `${base}${path}`, region: 'NA', jurisdiction: 'US' });

/** Items the store read (filtered out or not) for Query calls on the regulatory date index while `act` ran. */
async function itemsReadFromDateIndex(act: () => Promise<unknown>): Promise<number> {
  const send = jest.spyOn(documentClient(), 'send');
  try {
    await act();
    const outputs = await Promise.all(send.mock.results.map((r) => r.value as Promise<{ ScannedCount?: number }>));
    return send.mock.calls.reduce((total, [command], i) => {
      const onIndex = command instanceof QueryCommand && command.input.ExpressionAttributeValues?.[':pk'] === 'REGULATORY#BY_DATE';
      return total + (onIndex ? (outputs[i].ScannedCount ?? 0) : 0);
    }, 0);
  } finally {
    send.mockRestore();
  }
}

describe('regulatory updates stored before the date index', () => {
  it('are put into the index on first use, their jurisdiction in upper case, and listed with the rest', async () => {
    // Prepare: an update as the earlier code stored it, before any use of this store.
    const legacy = { id: 'legacy-1', title: 'Grid code amendment in force', summary: 'A grid code amendment.', impact_assessment: 'Binding.', priority: 'high', source: 'Regulator', effective_date: '2026-06-01', document_url: 'https://regulator.example.org/grid-code', region: 'EU', jurisdiction: 'de', published_at: null };
    await putItem('analytics', { ...keys.regulatoryUpdate(legacy.id), ...legacy });
    const { api_key: key } = await registerAccount({ email: `regulatory-legacy-${Date.now()}@example.com` });

    // Act
    const listed = await call(runtime(), 'GET', '/api/regulatory-updates?region=DE', { key });

    // Assess
    expect(listed.body.updates[0]).toEqual({ ...legacy, jurisdiction: 'DE' });
    expect(listed.body.updates.slice(1).every((u: { jurisdiction: string }) => u.jurisdiction === 'DE')).toBe(true);
  });
});

describe('regulatory feed pull caps', () => {
  it('stops reading a feed at the byte cap and reports it failed, and takes only the newest items of each feed', async () => {
    // Act
    const summary = await pullRegulatoryUpdates(undefined, [feed('endless', '/endless.rss'), feed('busy-1', '/busy-1.rss'), feed('busy-2', '/busy-2.rss'), feed('busy-3', '/busy-3.rss')]);

    // Assess: the endless body was cut at the cap by the reader (a time-out would say "no answer within").
    expect(summary.feeds[0]).toEqual({ source: 'endless', status: 'failed', items: 0, new: 0, error: `fetch failed: body larger than ${MAX_BYTES} bytes: reading stopped there, nothing taken` });
    expect(endless.closedByReader).toBe(true);
    expect(endless.bytesWritten).toBeGreaterThan(MAX_BYTES);
    expect(summary.feeds.slice(1)).toEqual(['busy-1', 'busy-2', 'busy-3'].map((source) => ({ source, status: 'ok', items: FEED_ITEMS, new: MAX_ITEMS, over_cap: FEED_ITEMS - MAX_ITEMS })));
    expect(summary.stored).toBe(3 * MAX_ITEMS);
  });

});

describe('GET /api/regulatory-updates over a store larger than the answer', () => {
  it('lists the newest updates reading only one more item than the limit, however many are stored', async () => {
    // Prepare: the 300 updates pulled above, the seed and the legacy update are stored.
    const { api_key: key } = await registerAccount({ email: `regulatory-${Date.now()}@example.com` });
    const stored = 3 * MAX_ITEMS + seedUpdates().length + 1;

    // Act
    let page: Awaited<ReturnType<typeof call>> | undefined;
    const readDefault = await itemsReadFromDateIndex(async () => (page = await call(runtime(), 'GET', '/api/regulatory-updates', { key })));
    let top: Awaited<ReturnType<typeof call>> | undefined;
    const readTop = await itemsReadFromDateIndex(async () => (top = await call(runtime(), 'GET', '/api/regulatory-updates?limit=200', { key })));
    let highOnes: Awaited<ReturnType<typeof call>> | undefined;
    const readHigh = await itemsReadFromDateIndex(async () => (highOnes = await call(runtime(), 'GET', '/api/regulatory-updates?priority=high&limit=20', { key })));
    let all: Awaited<ReturnType<typeof call>> | undefined;
    const readRare = await itemsReadFromDateIndex(async () => (all = await call(runtime(), 'GET', '/api/regulatory-updates?limit=200&region=SSA', { key })));

    // Assess
    expect(page!.body).toMatchObject({ status: 'success', count: 50, has_more: true });
    expect(stored).toBe(320);
    expect(readDefault).toBe(51);
    expect(readTop).toBe(201);
    // Newest first: busy-3's newest item (published last) leads, then one a day older each.
    const newest = 4 * FEED_ITEMS - 1;
    expect(page!.body.updates.slice(0, 3).map((u: { title: string }) => u.title)).toEqual([newest, newest - 1, newest - 2].map((n) => `Notice ${n} on interconnection procedures`));
    const dates = top!.body.updates.map((u: { effective_date: string }) => u.effective_date);
    expect(dates).toEqual([...dates].sort().reverse());
    // A filter that the newest updates meet stops as early: every pulled notice is `high` (interconnection, no stage named).
    expect(highOnes!.body).toMatchObject({ count: 20, has_more: true });
    expect(highOnes!.body.updates.every((u: { priority: string }) => u.priority === 'high')).toBe(true);
    expect(readHigh).toBe(21);
    // One that few meet reads on until the index ends, and says there is no more.
    expect(all!.body.has_more).toBe(false);
    expect(all!.body.updates.map((u: { id: string }) => u.id).sort()).toEqual(seedUpdates().filter((u) => u.region === 'SSA').map((u) => u.id).sort());
    expect(readRare).toBe(stored);
  });
});
