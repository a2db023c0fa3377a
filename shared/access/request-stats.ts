/**
 * Request statistics for /health and /api/system-status. Each process aggregates in memory and adds
 * its aggregate to the store at most every FLUSH_INTERVAL_MS, so the hot path pays one write per
 * interval, not per request.
 */
import { log } from '../logger';
import { addRequestAggregate, requestAggregatesSince, type RequestAggregate } from '../store/stats-repo';
import { HOUR_MS } from '../domain/time';

const FLUSH_INTERVAL_MS = 10_000;

const hourStart = (t: number) => new Date(Math.floor(t / HOUR_MS) * HOUR_MS).toISOString();

let pending = new Map<string, RequestAggregate>();
let lastFlush = Date.now();
/** Request timestamps of the last minute in this process, for requests per minute. */
const recent: number[] = [];
const traffic = { bytesIn: 0, bytesOut: 0, since: Date.now() };

export function recordRequest(durationMs: number, status: number, bytesIn: number, bytesOut: number, now = Date.now()): void {
  const hour = hourStart(now);
  const agg = pending.get(hour) ?? { requests: 0, errors: 0, total_ms: 0 };
  agg.requests++;
  if (status >= 500) agg.errors++;
  agg.total_ms += durationMs;
  pending.set(hour, agg);
  recent.push(now);
  while (recent.length && recent[0] < now - 60_000) recent.shift();
  traffic.bytesIn += bytesIn;
  traffic.bytesOut += bytesOut;
}

/** Writes the pending aggregates when the interval has passed (or when forced). Never throws. */
export async function flushRequestStats(force = false): Promise<void> {
  if (!force && Date.now() - lastFlush < FLUSH_INTERVAL_MS) return;
  const batch = pending;
  pending = new Map();
  lastFlush = Date.now();
  try {
    await Promise.all([...batch].map(([hour, agg]) => addRequestAggregate(hour, agg)));
  } catch (err) {
    log.warn('request statistics not stored', { err });
  }
}

export function requestsLastMinute(now = Date.now()): number {
  return recent.filter((t) => t >= now - 60_000).length;
}

/** Bytes per second in and out of this process since it started. */
export function throughput(now = Date.now()): { inPerSecond: number; outPerSecond: number } {
  const seconds = Math.max(1, (now - traffic.since) / 1000);
  return { inPerSecond: traffic.bytesIn / seconds, outPerSecond: traffic.bytesOut / seconds };
}

export interface ServiceStats {
  avgResponseTimeMs: number;
  successRate24h: number;
  requests24h: number;
}

/** Stored aggregates since an hour, plus what this process has not flushed yet. */
async function aggregatesSince(hour: string): Promise<RequestAggregate[]> {
  const stored = await requestAggregatesSince(hour);
  return [...stored, ...[...pending].filter(([h]) => h >= hour).map(([, agg]) => agg)];
}

/** Requests per minute over the current hour so far, counted across every process. */
export async function requestsPerMinute(now = Date.now()): Promise<number> {
  const hour = hourStart(now);
  const requests = (await aggregatesSince(hour)).reduce((s, a) => s + a.requests, 0);
  const minutes = Math.max(1, (now - Date.parse(hour)) / 60_000);
  return Math.round((requests / minutes) * 100) / 100;
}

/** Stored aggregates of the last 24 hours plus what this process has not flushed yet. */
export async function serviceStats24h(now = Date.now()): Promise<ServiceStats> {
  const all = await aggregatesSince(hourStart(now - 23 * HOUR_MS));
  const requests = all.reduce((s, a) => s + a.requests, 0);
  const errors = all.reduce((s, a) => s + a.errors, 0);
  const totalMs = all.reduce((s, a) => s + a.total_ms, 0);
  return {
    avgResponseTimeMs: requests ? Math.round((totalMs / requests) * 100) / 100 : 0,
    successRate24h: requests ? Math.round(((requests - errors) / requests) * 10000) / 10000 : 1,
    requests24h: requests,
  };
}
