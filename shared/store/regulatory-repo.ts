/** Regulatory updates (ARCHITECTURE 5, flow 5): stored once each, with the feed keys already seen. */
import type { RegulatoryUpdate } from '../domain/regulatory';
import { getItem, putItem, putNew, queryPartition, withoutKeys } from './dynamo';
import { keys } from './keys';

/** Stores an update unless one with its id exists; true when it was new. */
export const insertRegulatoryUpdate = (update: RegulatoryUpdate): Promise<boolean> => putNew('analytics', { ...keys.regulatoryUpdate(update.id), ...update });

export async function listRegulatoryUpdates(): Promise<RegulatoryUpdate[]> {
  const { pk, skPrefix } = keys.regulatoryUpdates();
  return (await queryPartition('analytics', pk, { prefix: skPrefix })).map((i) => withoutKeys<RegulatoryUpdate>(i));
}

export async function seenFeedKeys(): Promise<Set<string>> {
  const { pk, skPrefix } = keys.regulatorySeenAll();
  return new Set((await queryPartition('analytics', pk, { prefix: skPrefix })).map((i) => String(i.sk).slice(skPrefix.length)));
}

export async function rememberFeedKeys(dedupeKeys: readonly string[], at: string): Promise<void> {
  for (const key of dedupeKeys) await putItem('analytics', { ...keys.regulatorySeen(key), seen_at: at });
}

export interface PullRecord {
  pulled_at: string;
  stored: number;
  feeds: unknown[];
}

export const savePullRecord = (record: PullRecord): Promise<void> => putItem('analytics', { ...keys.regulatoryPull(), ...record });

export async function lastPullRecord(): Promise<PullRecord | undefined> {
  const item = await getItem('analytics', keys.regulatoryPull());
  return item && withoutKeys<PullRecord>(item);
}
