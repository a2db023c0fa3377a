import { pullFeeds, type FetchText, type PullLog } from '../../../shared/domain/regulatory/pull-feeds';
import { dedupeKeys } from '../../../shared/domain/regulatory/links';
import type { FeedSource } from '../../../shared/domain/regulatory/types';
import { commission, feedFixture, ferc } from './helpers';

const down: FeedSource = { id: 'down', name: 'Unreachable regulator', url: 'https://down.example.org/feed', region: 'SSA', jurisdiction: 'ZA' };
const garbage: FeedSource = { id: 'garbage', name: 'Regulator behind a proxy', url: 'https://proxy.example.org/feed', region: 'SSA', jurisdiction: 'NG' };
const slow: FeedSource = { id: 'slow', name: 'Slow regulator', url: 'https://slow.example.org/feed', region: 'SSA', jurisdiction: 'KE' };

const OPTIONS = { timeoutMs: 50, today: '2025-12-01' };

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
});
