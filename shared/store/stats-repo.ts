/** Service statistics for /health and /api/system-status: hourly request aggregates and daily counters. */
import { addToCounters, getItem, queryPartition } from './dynamo';
import { keys } from './keys';

const STATS_RETENTION_SECONDS = 8 * 24 * 3600;

export interface RequestAggregate {
  requests: number;
  errors: number;
  total_ms: number;
}

/** Adds a process's aggregate for one hour (ISO hour start) to the stored one. */
export async function addRequestAggregate(hourStart: string, agg: RequestAggregate): Promise<void> {
  const expiresAt = Math.floor(Date.parse(hourStart) / 1000) + STATS_RETENTION_SECONDS;
  await addToCounters('analytics', keys.requestStats(hourStart), { requests: agg.requests, errors: agg.errors, total_ms: agg.total_ms }, expiresAt);
}

export async function requestAggregatesSince(hourStart: string): Promise<(RequestAggregate & { hour: string })[]> {
  const { pk, skFrom } = keys.requestStatsSince(hourStart);
  const items = await queryPartition('analytics', pk, { from: skFrom });
  return items.map((i) => ({
    hour: String(i.sk).slice('HOUR#'.length),
    requests: Number(i.requests ?? 0),
    errors: Number(i.errors ?? 0),
    total_ms: Number(i.total_ms ?? 0),
  }));
}

/** Daily counters (for example forecasts produced); written by the capabilities that produce them. */
export async function incrementDailyCounter(day: string, counter: string, amount = 1): Promise<void> {
  await addToCounters('analytics', keys.dailyCounters(day), { [counter]: amount });
}

export async function readDailyCounter(day: string, counter: string): Promise<number> {
  const item = await getItem('analytics', keys.dailyCounters(day));
  return Number(item?.[counter] ?? 0);
}
