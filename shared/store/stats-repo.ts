/** Service statistics for /health and /api/system-status: hourly request aggregates and daily counters. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './aws-clients';
import { getItem, queryPartition } from './dynamo';
import { keys } from './keys';
import { TTL_ATTRIBUTE, tableName } from './tables';

const STATS_RETENTION_SECONDS = 8 * 24 * 3600;

export interface RequestAggregate {
  requests: number;
  errors: number;
  total_ms: number;
}

/** Adds a process's aggregate for one hour (ISO hour start) to the stored one. */
export async function addRequestAggregate(hourStart: string, agg: RequestAggregate): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('analytics'),
      Key: keys.requestStats(hourStart),
      UpdateExpression: 'ADD requests :r, errors :e, total_ms :t SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: {
        ':r': agg.requests,
        ':e': agg.errors,
        ':t': agg.total_ms,
        ':ttl': Math.floor(Date.parse(hourStart) / 1000) + STATS_RETENTION_SECONDS,
      },
    }),
  );
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
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('analytics'),
      Key: keys.dailyCounters(day),
      UpdateExpression: 'ADD #c :n',
      ExpressionAttributeNames: { '#c': counter },
      ExpressionAttributeValues: { ':n': amount },
    }),
  );
}

export async function readDailyCounter(day: string, counter: string): Promise<number> {
  const item = await getItem('analytics', keys.dailyCounters(day));
  return Number(item?.[counter] ?? 0);
}
