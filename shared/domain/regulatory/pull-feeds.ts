/**
 * The scheduled pull of regulatory feeds (ARCHITECTURE 5, flow 5), with fetching injected so the domain
 * knows nothing of HTTP. One feed that fails, times out, is larger than the byte cap or returns something
 * that is not a feed is logged and reported; the others still land. Of each feed only the newest
 * `maxItems` are taken, so one feed of 40,000 items cannot flood the store.
 */
import { FeedParseError } from './errors';
import { dedupeKeys } from './links';
import { parseFeed } from './parse-feed';
import { toUpdates } from './to-updates';
import type { FeedSource, RegulatoryUpdate } from './types';

/** Fetches a feed body; should stop when `signal` aborts, and stop reading with `FeedTooLarge` past `maxBytes`. */
export type FetchText = (url: string, signal: AbortSignal, maxBytes: number) => Promise<string>;

/** The part of the service logger the pull uses (`shared/logger` fits). */
export interface PullLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface PullOptions {
  /** Longest wait for one feed, in milliseconds. */
  timeoutMs: number;
  /** YYYY-MM-DD; dates an item that states no effective date and has no publication date. */
  today: string;
  /** Largest feed body read, in bytes (UTF-8, after any content decoding); a larger feed fails. */
  maxBytes: number;
  /** Items taken from one feed in one pull: the newest by publication date; the rest are left out and not remembered. */
  maxItems: number;
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
  /** Items left out as older than the newest `maxItems`. */
  over_cap?: number;
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

/** A feed body past the byte cap: the fetcher stopped reading there, and nothing of the feed is taken. */
export class FeedTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`body larger than ${maxBytes} bytes: reading stopped there, nothing taken`);
    this.name = 'FeedTooLarge';
  }
}

/**
 * The newest `max` items by publication date, kept in document order. Undated items count as the oldest, and
 * among equals the earlier in the document wins.
 */
export function newestItems<T extends { published?: string }>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const time = (item: T) => (item.published ? Date.parse(item.published) || Number.NEGATIVE_INFINITY : Number.NEGATIVE_INFINITY);
  const chosen = items
    .map((item, position) => ({ position, time: time(item) }))
    .sort((a, b) => (a.time === b.time ? a.position - b.position : b.time - a.time))
    .slice(0, max)
    .map((c) => c.position)
    .sort((a, b) => a - b);
  return chosen.map((position) => items[position]);
}

async function fetchWithTimeout(fetchText: FetchText, url: string, options: PullOptions): Promise<string> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new FeedTimeout(options.timeoutMs));
    }, options.timeoutMs);
  });
  try {
    const body = await Promise.race([fetchText(url, controller.signal, options.maxBytes), timeout]);
    // Also holds for a fetcher that read past the cap: the parser never sees more than `maxBytes`.
    if (Buffer.byteLength(body, 'utf8') > options.maxBytes) throw new FeedTooLarge(options.maxBytes);
    return body;
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
  const bodies = await Promise.allSettled(sources.map((source) => fetchWithTimeout(fetchText, source.url, options)));

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
    const taken = newestItems(parsed.items, options.maxItems);
    const overCap = parsed.items.length - taken.length;
    const fresh = toUpdates(taken, source, seen, options.today);
    // Keys of items left out are not remembered: were the feed to shrink, they could still be taken later.
    for (const item of taken) {
      for (const key of dedupeKeys(item)) {
        if (!seen.has(key)) keys.push(key);
        seen.add(key);
      }
    }
    updates.push(...fresh);
    if (parsed.skipped.length > 0) log.info('regulatory feed items skipped', { feed: source.id, skipped: parsed.skipped });
    if (overCap > 0) log.warn('regulatory feed over the item cap', { feed: source.id, items: parsed.items.length, taken: taken.length, over_cap: overCap });
    log.info('regulatory feed pulled', { feed: source.id, items: parsed.items.length, new: fresh.length });
    report.push({
      source: source.id,
      status: 'ok',
      items: parsed.items.length,
      new: fresh.length,
      ...(parsed.skipped.length > 0 ? { skipped: parsed.skipped.length } : {}),
      ...(overCap > 0 ? { over_cap: overCap } : {}),
    });
  });
  return { updates, report, keys };
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
