/**
 * Regulatory updates (ARCHITECTURE 5, flow 5): the curated seed, the scheduled pull of the configured feeds
 * (a feed that fails, returns garbage or is larger than REGULATORY_FEED_MAX_BYTES is logged and skipped; the
 * rest still land, at most REGULATORY_FEED_MAX_ITEMS each), and the filtered list of GET /api/regulatory-updates.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { config } from '../../config';
import { DEFAULT_FEEDS, FeedTooLarge, dedupeKeys, pullFeeds, seedUpdates, type FeedReport, type FeedSource, type RegulatoryUpdate } from '../../domain/regulatory';
import { log } from '../../logger';
import type { RegulatoryUpdatesQuery } from '../../schemas/regulatory';
import {
  findRegulatoryUpdates,
  indexStoredUpdates,
  insertRegulatoryUpdate,
  isPrepared,
  lastPullRecord,
  markPrepared,
  pruneRegulatoryUpdates,
  rememberFeedKeys,
  savePullRecord,
  seenFeedKeys,
} from '../../store/regulatory-repo';

const FeedList = z.array(z.object({ id: z.string().min(1), name: z.string().min(1), url: z.url(), region: z.enum(['EU', 'NA', 'SSA']), jurisdiction: z.string().min(2) }));

/** The configured feeds (REGULATORY_FEEDS). */
export function configuredFeeds(): FeedSource[] {
  const setting = config().REGULATORY_FEEDS.trim();
  if (setting === 'default') return [...DEFAULT_FEEDS];
  if (setting === 'none' || setting === '') return [];
  return FeedList.parse(JSON.parse(setting));
}

let seeded = false;

/**
 * Prepares the store once per store and seed version, then once per process costs one read: stores the curated
 * updates (each only if its id is new) and puts updates stored before the date index existed into it.
 */
export async function ensureSeeded(): Promise<void> {
  if (seeded) return;
  const seeds = seedUpdates();
  const version = createHash('sha256').update(seeds.map((u) => u.id).join('\n')).digest('hex').slice(0, 16);
  if (!(await isPrepared(version))) {
    const reindexed = await indexStoredUpdates();
    const added: RegulatoryUpdate[] = [];
    for (const update of seeds) if (await insertRegulatoryUpdate(update)) added.push(update);
    if (added.length) await rememberFeedKeys(added.flatMap((u) => dedupeKeys({ link: u.document_url })), new Date().toISOString());
    await markPrepared(version, new Date().toISOString());
    if (reindexed) log.info('regulatory updates indexed by date', { updates: reindexed });
  }
  seeded = true;
}

/**
 * GETs a feed, reading at most `maxBytes` of its body (after content decoding, so a compressed bomb stops there
 * too): a declared length over the cap is refused unread, and a longer stream is cancelled at the cap.
 */
async function fetchFeedText(url: string, signal: AbortSignal, maxBytes: number): Promise<string> {
  const res = await fetch(url, { signal, headers: { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5', 'user-agent': 'energy-ops-regulatory-pull' } });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (!res.body || declared > maxBytes) {
    await res.body?.cancel();
    if (declared > maxBytes) throw new FeedTooLarge(maxBytes);
    return '';
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel();
      throw new FeedTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface PullSummary {
  pulled_at: string;
  stored: number;
  /** Updates deleted to keep the store within REGULATORY_MAX_STORED. */
  pruned: number;
  feeds: FeedReport[];
}

/** Deletions in one pull: a store flooded before the caps existed shrinks over a few pulls, each within its time-out. */
const MAX_PRUNED_PER_PULL = 10_000;

/** The scheduled pull: every configured feed, de-duplicated against everything seen before. */
export async function pullRegulatoryUpdates(fetchText = fetchFeedText, feeds = configuredFeeds()): Promise<PullSummary> {
  await ensureSeeded();
  const pulledAt = new Date().toISOString();
  const { REGULATORY_FEED_TIMEOUT_MS, REGULATORY_FEED_MAX_BYTES, REGULATORY_FEED_MAX_ITEMS } = config();
  const result = await pullFeeds(feeds, fetchText, await seenFeedKeys(), log, {
    timeoutMs: REGULATORY_FEED_TIMEOUT_MS,
    today: pulledAt.slice(0, 10),
    maxBytes: REGULATORY_FEED_MAX_BYTES,
    maxItems: REGULATORY_FEED_MAX_ITEMS,
  });
  let stored = 0;
  for (const update of result.updates) if (await insertRegulatoryUpdate(update)) stored++;
  await rememberFeedKeys(result.keys, pulledAt);
  // The curated seed is spared: it is the history the knowledge base cites.
  const pruned = await pruneRegulatoryUpdates(config().REGULATORY_MAX_STORED, new Set(seedUpdates().map((u) => u.id)), MAX_PRUNED_PER_PULL);
  const summary = { pulled_at: pulledAt, stored, pruned, feeds: result.report };
  await savePullRecord(summary);
  log.info('regulatory feeds pulled', { stored, pruned, feeds: result.report.length, failed: result.report.filter((r) => r.status === 'failed').length });
  return summary;
}

/**
 * The feeds of a pull in which every configured feed failed, else none: a pull with at least one feed that
 * answered, or with no feed configured (REGULATORY_FEEDS=none), did what it was asked.
 */
export const failedPull = (summary: PullSummary): FeedReport[] => (summary.feeds.length > 0 && summary.feeds.every((f) => f.status === 'failed') ? summary.feeds : []);

/**
 * GET /api/regulatory-updates: newest effective date first (ties by id), read in that order only until `limit`
 * match, so the answer costs about `limit` items for common filters however many are stored. `has_more` says
 * whether more match (a total would mean reading every match).
 */
export async function listUpdates(query: RegulatoryUpdatesQuery) {
  await ensureSeeded();
  const criteria = { region: query.region?.toUpperCase(), priorities: query.priority, since: query.since };
  const [{ updates, hasMore }, last] = await Promise.all([findRegulatoryUpdates(criteria, query.limit), lastPullRecord()]);
  return {
    status: 'success',
    count: updates.length,
    has_more: hasMore,
    updates,
    last_pull: last ? { pulled_at: last.pulled_at, stored: last.stored } : null,
  };
}
