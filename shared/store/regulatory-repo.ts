/** Regulatory updates (ARCHITECTURE 5, flow 5): stored once each, with the feed keys already seen. */
import type { RegulatoryUpdate } from '../domain/regulatory';
import { deleteItem, getItem, getRecord, indexPages, putItem, putNew, queryPartition, setFields, withoutKeys, type ItemFilter } from './dynamo';
import { keys } from './keys';

/** Stores an update unless one with its id exists; true when it was new. */
export const insertRegulatoryUpdate = (update: RegulatoryUpdate): Promise<boolean> =>
  putNew('analytics', { ...keys.regulatoryUpdate(update.id), ...keys.regulatoryUpdateByDate(update.effective_date, update.id), ...update });

/** The largest page asked of the date index: DynamoDB stops a page at 1 MB anyway. */
const MAX_PAGE = 1000;

/** What GET /api/regulatory-updates filters on; every criterion given must hold. */
export interface UpdateCriteria {
  /** Upper case: a region (`EU`), or a jurisdiction (`US`), which also takes its subdivisions (`US-CA`). */
  region?: string;
  priorities?: readonly string[];
  /** YYYY-MM-DD: published on or after it, or, when the publication date is unknown, effective on or after it. */
  since?: string;
}

/** The criteria as a filter the store applies while it reads (stored jurisdictions are upper case). */
function filterFor(criteria: UpdateCriteria): ItemFilter | undefined {
  const terms: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (criteria.region) {
    Object.assign(names, { '#region': 'region', '#jurisdiction': 'jurisdiction' });
    Object.assign(values, { ':region': criteria.region, ':subdivision': `${criteria.region}-` });
    terms.push('(#region = :region OR #jurisdiction = :region OR begins_with(#jurisdiction, :subdivision))');
  }
  if (criteria.priorities?.length) {
    names['#priority'] = 'priority';
    criteria.priorities.forEach((p, i) => (values[`:priority${i}`] = p));
    terms.push(`#priority IN (${criteria.priorities.map((_, i) => `:priority${i}`).join(', ')})`);
  }
  if (criteria.since) {
    // An ISO instant compares with a YYYY-MM-DD as its date does; a null publication is not a string.
    Object.assign(names, { '#published': 'published_at', '#effective': 'effective_date' });
    Object.assign(values, { ':since': criteria.since, ':string': 'S' });
    terms.push('(#published >= :since OR (NOT attribute_type(#published, :string) AND #effective >= :since))');
  }
  return terms.length ? { expression: terms.join(' AND '), names, values } : undefined;
}

/**
 * Updates that meet `criteria`, newest effective date first (ties by id, descending), at most `limit`. Reads
 * the date index page by page, the store filtering as it reads, and stops once it has `limit` and knows
 * whether there are more: an unfiltered list reads `limit + 1` items whatever the store holds, and so does any
 * filter that enough of the newest updates meet; one that few meet reads on, up to the whole index.
 */
export async function findRegulatoryUpdates(criteria: UpdateCriteria, limit: number): Promise<{ updates: RegulatoryUpdate[]; hasMore: boolean }> {
  const updates: RegulatoryUpdate[] = [];
  const pages = indexPages('analytics', keys.regulatoryUpdatesByDate().gsi1pk, { newestFirst: true, firstPage: limit + 1, maxPage: Math.max(MAX_PAGE, limit + 1), filter: filterFor(criteria) });
  for await (const page of pages) {
    for (const item of page) {
      if (updates.length === limit) return { updates, hasMore: true };
      updates.push(withoutKeys<RegulatoryUpdate>(item));
    }
  }
  return { updates, hasMore: false };
}

/** Deletes run this many at a time. */
const DELETE_CONCURRENCY = 16;

/**
 * Bounds the store: deletes the updates beyond the newest `keep` by effective date, except the `spared` ids
 * (which do not count against `keep`), at most `maxDeletes` in one call. Reads the date index up to the end
 * (the scheduled pull calls it, never a request). Their feed keys stay remembered, so a pull never brings a
 * deleted update back. Returns how many were deleted.
 */
export async function pruneRegulatoryUpdates(keep: number, spared: ReadonlySet<string>, maxDeletes: number): Promise<number> {
  const doomed: string[] = [];
  let kept = 0;
  for await (const page of indexPages('analytics', keys.regulatoryUpdatesByDate().gsi1pk, { newestFirst: true, firstPage: MAX_PAGE, maxPage: MAX_PAGE })) {
    for (const item of page) {
      const id = String(item.id);
      if (spared.has(id)) continue;
      if (kept < keep) kept++;
      else if (doomed.length < maxDeletes) doomed.push(id);
    }
    if (doomed.length >= maxDeletes) break;
  }
  for (let i = 0; i < doomed.length; i += DELETE_CONCURRENCY) {
    await Promise.all(doomed.slice(i, i + DELETE_CONCURRENCY).map((id) => deleteItem('analytics', keys.regulatoryUpdate(id))));
  }
  return doomed.length;
}

/** Whether the store was prepared for seed `version` (see `markPrepared`). */
export const isPrepared = async (version: string): Promise<boolean> => Boolean(await getItem('analytics', keys.regulatoryPrepared(version)));

export const markPrepared = (version: string, at: string): Promise<void> => putItem('analytics', { ...keys.regulatoryPrepared(version), prepared_at: at });

/**
 * Puts every stored update that predates the date index into it. Reads the whole partition: run once per
 * store (the caller records that with `markPrepared`), never on a request's path once that is done.
 */
export async function indexStoredUpdates(): Promise<number> {
  const { pk, skPrefix } = keys.regulatoryUpdates();
  const unindexed = (await queryPartition('analytics', pk, { prefix: skPrefix })).filter((item) => item.gsi1pk === undefined);
  for (const item of unindexed) {
    const update = withoutKeys<RegulatoryUpdate>(item);
    // Jurisdictions are compared in upper case by the store's filter (feeds configured in lower case were kept as given).
    await setFields('analytics', keys.regulatoryUpdate(update.id), { ...keys.regulatoryUpdateByDate(update.effective_date, update.id), jurisdiction: update.jurisdiction.toUpperCase() });
  }
  return unindexed.length;
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
  return getRecord<PullRecord>('analytics', keys.regulatoryPull());
}
