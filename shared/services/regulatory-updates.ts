/**
 * Regulatory updates (ARCHITECTURE 5, flow 5): the curated seed, the scheduled pull of the configured feeds
 * (a feed that fails or returns garbage is logged and skipped; the rest still land), and the filtered list
 * of GET /api/regulatory-updates.
 */
import { z } from 'zod';
import { config } from '../config';
import { DEFAULT_FEEDS, dedupeKeys, pullFeeds, seedUpdates, type FeedReport, type FeedSource, type RegulatoryUpdate } from '../domain/regulatory';
import { log } from '../http/logger';
import type { RegulatoryUpdatesQuery } from '../schemas/regulatory';
import { insertRegulatoryUpdate, lastPullRecord, listRegulatoryUpdates, rememberFeedKeys, savePullRecord, seenFeedKeys } from '../store/regulatory-repo';

const FeedList = z.array(z.object({ id: z.string().min(1), name: z.string().min(1), url: z.url(), region: z.enum(['EU', 'NA', 'SSA']), jurisdiction: z.string().min(2) }));

/** The configured feeds (REGULATORY_FEEDS). */
export function configuredFeeds(): FeedSource[] {
  const setting = config().REGULATORY_FEEDS.trim();
  if (setting === 'default') return [...DEFAULT_FEEDS];
  if (setting === 'none' || setting === '') return [];
  return FeedList.parse(JSON.parse(setting));
}

let seeded = false;

/** Stores the curated updates once (idempotent: each is inserted only if its id is new). */
export async function ensureSeeded(): Promise<void> {
  if (seeded) return;
  const seeds = seedUpdates();
  const existing = new Set((await listRegulatoryUpdates()).map((u) => u.id));
  const missing = seeds.filter((u) => !existing.has(u.id));
  for (const update of missing) await insertRegulatoryUpdate(update);
  if (missing.length) await rememberFeedKeys(missing.flatMap((u) => dedupeKeys({ link: u.document_url })), new Date().toISOString());
  seeded = true;
}

async function fetchFeedText(url: string, signal: AbortSignal): Promise<string> {
  const res = await fetch(url, { signal, headers: { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5', 'user-agent': 'energy-ops-regulatory-pull' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

export interface PullSummary {
  pulled_at: string;
  stored: number;
  feeds: FeedReport[];
}

/** The scheduled pull: every configured feed, de-duplicated against everything seen before. */
export async function pullRegulatoryUpdates(fetchText = fetchFeedText, feeds = configuredFeeds()): Promise<PullSummary> {
  await ensureSeeded();
  const pulledAt = new Date().toISOString();
  const result = await pullFeeds(feeds, fetchText, await seenFeedKeys(), log, { timeoutMs: config().REGULATORY_FEED_TIMEOUT_MS, today: pulledAt.slice(0, 10) });
  let stored = 0;
  for (const update of result.updates) if (await insertRegulatoryUpdate(update)) stored++;
  await rememberFeedKeys(result.keys, pulledAt);
  const summary = { pulled_at: pulledAt, stored, feeds: result.report };
  await savePullRecord(summary);
  log.info('regulatory feeds pulled', { stored, feeds: result.report.length, failed: result.report.filter((r) => r.status === 'failed').length });
  return summary;
}

const matchesRegion = (u: RegulatoryUpdate, region: string) => {
  const wanted = region.toUpperCase();
  return u.region === wanted || u.jurisdiction.toUpperCase() === wanted || u.jurisdiction.toUpperCase().startsWith(`${wanted}-`);
};

/** GET /api/regulatory-updates: newest effective date first. */
export async function listUpdates(query: RegulatoryUpdatesQuery) {
  await ensureSeeded();
  const all = await listRegulatoryUpdates();
  const updates = all
    .filter((u) => !query.region || matchesRegion(u, query.region))
    .filter((u) => !query.priority || query.priority.includes(u.priority))
    .filter((u) => !query.since || (u.published_at?.slice(0, 10) ?? u.effective_date) >= query.since)
    .sort((a, b) => b.effective_date.localeCompare(a.effective_date) || a.id.localeCompare(b.id));
  const last = await lastPullRecord();
  return {
    status: 'success',
    count: Math.min(updates.length, query.limit),
    total_matching: updates.length,
    updates: updates.slice(0, query.limit),
    last_pull: last ? { pulled_at: last.pulled_at, stored: last.stored } : null,
  };
}
