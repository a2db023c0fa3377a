/**
 * Upstream weather cached in the analytics table: one item per mode, 0.1-degree cell and UTC day, holding that day's
 * hourly points, with an `expires_at` TTL set by the writer (shared/weather-providers/weather-cell-cache.ts). Readers ignore
 * expired items, since DynamoDB deletes them late and the local stand-in never does.
 */
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { WeatherPoint } from '../domain/weather/types';
import { documentClient } from './aws-clients';
import { putItem } from './dynamo';
import { keys } from './keys';
import { TTL_ATTRIBUTE, tableName } from './tables';

/** BatchGetItem's limit of keys per request. */
const BATCH_GET_KEYS = 100;
/** Rounds of re-asking for keys DynamoDB left unprocessed (throttling) before treating them as not cached. */
const UNPROCESSED_ROUNDS = 3;

/** The cached days among `days` (YYYY-MM-DD), by day; days absent or expired are left out. */
export async function readWeatherDays(mode: string, cell: string, days: readonly string[], nowMs = Date.now()): Promise<Map<string, WeatherPoint[]>> {
  const table = tableName('analytics');
  const found = new Map<string, WeatherPoint[]>();
  for (let i = 0; i < days.length; i += BATCH_GET_KEYS) {
    let pending: Record<string, unknown>[] | undefined = days.slice(i, i + BATCH_GET_KEYS).map((day) => keys.weatherDay(mode, cell, day));
    for (let round = 0; pending?.length && round < UNPROCESSED_ROUNDS; round++) {
      const out: BatchGetCommandOutput = await documentClient().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending } } }));
      for (const item of out.Responses?.[table] ?? []) {
        const expires = item[TTL_ATTRIBUTE];
        if (typeof expires === 'number' && expires * 1000 <= nowMs) continue;
        found.set(String(item.sk).slice('DAY#'.length), JSON.parse(String(item.points)) as WeatherPoint[]);
      }
      pending = out.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return found;
}

/** Stores one day's points until `expiresAtMs` (replacing what was there). */
export async function writeWeatherDay(mode: string, cell: string, day: string, points: readonly WeatherPoint[], expiresAtMs: number): Promise<void> {
  // A JSON string: a day is about 5 KB this way, and numbers come back exactly as they went in.
  await putItem('analytics', { ...keys.weatherDay(mode, cell, day), points: JSON.stringify(points), fetched_at: new Date().toISOString(), [TTL_ATTRIBUTE]: Math.floor(expiresAtMs / 1000) });
}
