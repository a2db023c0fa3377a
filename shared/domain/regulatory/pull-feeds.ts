/**
 * The scheduled pull of regulatory feeds (ARCHITECTURE 5, flow 5), with fetching injected so the domain
 * knows nothing of HTTP. One feed that fails, times out or returns something that is not a feed is logged
 * and reported; the others still land.
 */
import { FeedParseError } from './errors';
import { dedupeKeys } from './links';
import { parseFeed } from './parse-feed';
import { toUpdates } from './to-updates';
import type { FeedSource, RegulatoryUpdate } from './types';

/** Fetches a feed body; should stop when `signal` aborts. */
export type FetchText = (url: string, signal: AbortSignal) => Promise<string>;

/** The part of the service logger the pull uses (`shared/http/logger` fits). */
export interface PullLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface PullOptions {
  /** Longest wait for one feed, in milliseconds. */
  timeoutMs: number;
  /** YYYY-MM-DD; dates an item that states no effective date and has no publication date. */
  today: string;
}

export interface FeedReport {
  source: string;
  status: 'ok' | 'failed';
  /** Items the feed held (after items without link and guid were skipped). */
  items: number;
  /** Of which new updates. */
  new: number;
  /** Items skipped for having neither link nor guid. */
  skipped?: number;
  error?: string;
}

export interface PullResult {
  updates: RegulatoryUpdate[];
  report: FeedReport[];
  /** Dedupe keys seen in this pull and absent from `existing`: what the store should remember. */
  keys: string[];
}

export class FeedTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'FeedTimeout';
  }
}

async function fetchWithTimeout(fetchText: FetchText, url: string, timeoutMs: number): Promise<string> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new FeedTimeout(timeoutMs));
    }, timeoutMs);
  });
  try {
    return await Promise.race([fetchText(url, controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Pulls every source (concurrently), parses each body, and returns the updates not already under a key in
 * `existing`, in source order, with one report row per source. A feed counted `failed` contributes nothing.
 */
export async function pullFeeds(
  sources: readonly FeedSource[],
  fetchText: FetchText,
  existing: ReadonlySet<string>,
  log: PullLog,
  options: PullOptions,
): Promise<PullResult> {
  const bodies = await Promise.allSettled(sources.map((source) => fetchWithTimeout(fetchText, source.url, options.timeoutMs)));

  const seen = new Set(existing);
  const updates: RegulatoryUpdate[] = [];
  const report: FeedReport[] = [];
  const keys: string[] = [];
  sources.forEach((source, i) => {
    const body = bodies[i];
    if (body.status === 'rejected') {
      const error = `fetch failed: ${describe(body.reason)}`;
      log.warn('regulatory feed skipped', { feed: source.id, url: source.url, error });
      report.push({ source: source.id, status: 'failed', items: 0, new: 0, error });
      return;
    }
    let parsed;
    try {
      parsed = parseFeed(body.value, source);
    } catch (err) {
      // Anything a feed body can provoke is that feed's failure, never the whole pull's.
      const error = err instanceof FeedParseError ? err.reason : `unexpected parse error: ${describe(err)}`;
      log.warn('regulatory feed skipped', { feed: source.id, url: source.url, error });
      report.push({ source: source.id, status: 'failed', items: 0, new: 0, error });
      return;
    }
    const fresh = toUpdates(parsed.items, source, seen, options.today);
    for (const item of parsed.items) {
      for (const key of dedupeKeys(item)) {
        if (!seen.has(key)) keys.push(key);
        seen.add(key);
      }
    }
    updates.push(...fresh);
    if (parsed.skipped.length > 0) log.info('regulatory feed items skipped', { feed: source.id, skipped: parsed.skipped });
    log.info('regulatory feed pulled', { feed: source.id, items: parsed.items.length, new: fresh.length });
    report.push({
      source: source.id,
      status: 'ok',
      items: parsed.items.length,
      new: fresh.length,
      ...(parsed.skipped.length > 0 ? { skipped: parsed.skipped.length } : {}),
    });
  });
  return { updates, report, keys };
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
