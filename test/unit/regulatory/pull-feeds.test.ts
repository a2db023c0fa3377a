import { newestItems, pullFeeds, type FetchText, type PullLog } from '../../../shared/domain/regulatory/pull-feeds';
import { dedupeKeys } from '../../../shared/domain/regulatory/links';
import type { FeedSource } from '../../../shared/domain/regulatory/types';
import { publishedOn, rssFeed } from '../../helpers/feeds';
import { commission, feedFixture, ferc } from './helpers';

const down: FeedSource = { id: 'down', name: 'Unreachable regulator', url: 'https://down.example.org/feed', region: 'SSA', jurisdiction: 'ZA' };
const garbage: FeedSource = { id: 'garbage', name: 'Regulator behind a proxy', url: 'https://proxy.example.org/feed', region: 'SSA', jurisdiction: 'NG' };
const slow: FeedSource = { id: 'slow', name: 'Slow regulator', url: 'https://slow.example.org/feed', region: 'SSA', jurisdiction: 'KE' };

const OPTIONS = { timeoutMs: 50, today: '2025-12-01', maxBytes: 2 * 1024 * 1024, maxItems: 200 };

function recordingLog(): PullLog & { warnings: Array<Record<string, unknown> | undefined> } {
  const warnings: Array<Record<string, unknown> | undefined> = [];
  return { warnings, info: () => undefined, warn: (_msg, fields) => warnings.push(fields) };
}

const bodies: Record<string, () => Promise<string>> = {
  [ferc.url]: async () => feedFixture('federal-register-ferc.rss'),
  [commission.url]: async () => feedFixture('commission-energy.atom'),
  [down.url]: async () => {
    throw new Error('getaddrinfo ENOTFOUND down.example.org');
  },
  [garbage.url]: async () => feedFixture('error-page.html'),
  // Never answers until aborted: the per-feed time-out must end it.
  [slow.url]: () => new Promise<string>(() => undefined),
};
const fetchText: FetchText = (url) => bodies[url]();

describe('pullFeeds', () => {
  it('lands the good feeds when one fetch throws and one returns garbage, and reports which failed', async () => {
    // Prepare
    const log = recordingLog();

    // Act
    const result = await pullFeeds([down, ferc, garbage], fetchText, new Set(), log, OPTIONS);

    // Assess
    expect(result.updates).toHaveLength(4);
    expect(result.updates.every((u) => u.jurisdiction === 'US')).toBe(true);
    expect(result.report).toEqual([
      { source: 'down', status: 'failed', items: 0, new: 0, error: 'fetch failed: getaddrinfo ENOTFOUND down.example.org' },
      { source: 'federal-register-ferc', status: 'ok', items: 4, new: 4 },
      { source: 'garbage', status: 'failed', items: 0, new: 0, error: 'received an HTML page, not a feed' },
    ]);
    expect(log.warnings.map((w) => w?.feed)).toEqual(['down', 'garbage']);
  });

  it('gives up on a feed that does not answer within the time-out', async () => {
    const result = await pullFeeds([slow, commission], fetchText, new Set(), recordingLog(), OPTIONS);
    expect(result.report[0]).toEqual({ source: 'slow', status: 'failed', items: 0, new: 0, error: 'fetch failed: no answer within 50 ms' });
    expect(result.report[1]).toEqual({ source: 'ec-energy', status: 'ok', items: 3, new: 3 });
    expect(result.updates.map((u) => u.priority)).toEqual(['high', 'medium', 'low']);
  });

  it('adds nothing on a second pull given the keys the first returned', async () => {
    const first = await pullFeeds([ferc, commission], fetchText, new Set(), recordingLog(), OPTIONS);
    const second = await pullFeeds([ferc, commission], fetchText, new Set(first.keys), recordingLog(), OPTIONS);
    expect(first.updates).toHaveLength(7);
    expect(second.updates).toEqual([]);
    expect(second.keys).toEqual([]);
    expect(second.report.map((r) => [r.source, r.status, r.items, r.new])).toEqual([
      ['federal-register-ferc', 'ok', 4, 0],
      ['ec-energy', 'ok', 3, 0],
    ]);
  });

  it('counts an item carried by two feeds once', async () => {
    const mirror: FeedSource = { ...ferc, id: 'mirror', url: 'https://mirror.example.org/ferc.rss' };
    const both: FetchText = async (url) => (url === mirror.url ? feedFixture('federal-register-ferc.rss') : bodies[url]());
    const result = await pullFeeds([ferc, mirror], both, new Set(), recordingLog(), OPTIONS);
    expect(result.updates).toHaveLength(4);
    expect(result.report[1]).toMatchObject({ source: 'mirror', status: 'ok', items: 4, new: 0 });
  });

  it('reports items skipped for lacking a link and a guid', async () => {
    const notices: FeedSource = { ...down, id: 'notices', url: 'https://notices.example.org/rss' };
    const result = await pullFeeds([notices], async () => feedFixture('items-without-identity.rss'), new Set(), recordingLog(), OPTIONS);
    expect(result.report).toEqual([{ source: 'notices', status: 'ok', items: 2, new: 2, skipped: 2 }]);
    expect(result.keys).toEqual([...dedupeKeys({ link: 'https://notices.example.org/grid-code-amendment' }), ...dedupeKeys({ guid: 'notice-2025-117' })]);
  });

  it('takes only the newest items of a feed, whatever their document order, and reports how many were left out', async () => {
    // Prepare: 12 items, published one a day, listed mostly oldest-first with the two newest in the middle.
    const busy: FeedSource = { ...down, id: 'busy', url: 'https://busy.example.org/rss' };
    const order = [0, 1, 2, 3, 11, 10, 4, 5, 6, 7, 8, 9];

    // Act
    const result = await pullFeeds([busy], async () => rssFeed(order), new Set(), recordingLog(), { ...OPTIONS, maxItems: 3 });

    // Assess
    expect(result.updates.map((u) => u.title)).toEqual(['Notice 11 on interconnection procedures', 'Notice 10 on interconnection procedures', 'Notice 9 on interconnection procedures']);
    expect(result.updates.map((u) => u.published_at)).toEqual([11, 10, 9].map((n) => publishedOn(n).toISOString()));
    expect(result.report).toEqual([{ source: 'busy', status: 'ok', items: 12, new: 3, over_cap: 9 }]);
    // Only what was taken is remembered: the left-out items are not marked seen.
    expect(result.keys).toEqual([11, 10, 9].flatMap((n) => dedupeKeys({ link: `https://regulator.example.org/notices/${n}` })));
  });

  it('fails a feed whose body is over the byte cap even when the fetcher read past it, and keeps the others', async () => {
    const big: FeedSource = { ...down, id: 'big', url: 'https://big.example.org/rss' };
    const body = rssFeed(Array.from({ length: 200 }, (_, n) => n));
    const fetchText: FetchText = async (url) => (url === big.url ? body : bodies[url]());

    const result = await pullFeeds([big, ferc], fetchText, new Set(), recordingLog(), { ...OPTIONS, maxBytes: body.length - 1 });

    expect(result.report[0]).toEqual({ source: 'big', status: 'failed', items: 0, new: 0, error: `fetch failed: body larger than ${body.length - 1} bytes: reading stopped there, nothing taken` });
    expect(result.report[1]).toEqual({ source: 'federal-register-ferc', status: 'ok', items: 4, new: 4 });
    expect(result.updates.every((u) => u.jurisdiction === 'US')).toBe(true);
  });

  it('passes the byte cap to the fetcher', async () => {
    const caps: number[] = [];
    await pullFeeds([ferc], async (url, _signal, maxBytes) => (caps.push(maxBytes), bodies[url]()), new Set(), recordingLog(), { ...OPTIONS, maxBytes: 12_345 });
    expect(caps).toEqual([12_345]);
  });
});

describe('newestItems', () => {
  it('keeps the newest by publication date in document order, counting undated items as the oldest', () => {
    const items = [{ id: 'a' }, { id: 'b', published: '2025-03-01T00:00:00Z' }, { id: 'c' }, { id: 'd', published: '2025-05-01T00:00:00Z' }, { id: 'e', published: '2025-04-01T00:00:00Z' }];
    expect(newestItems(items, 2).map((i) => i.id)).toEqual(['d', 'e']);
    expect(newestItems(items, 3).map((i) => i.id)).toEqual(['b', 'd', 'e']);
    expect(newestItems(items, 4).map((i) => i.id)).toEqual(['a', 'b', 'd', 'e']);
    expect(newestItems(items, 10).map((i) => i.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
