/** Sites of a customer (analytics table), with the coverage of their standardised series. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './aws-clients';
import { getItem, isConditionFailed, putNew, queryPartition, withoutKeys } from './dynamo';
import { keys } from './keys';
import { tableName } from './tables';

export interface SiteCoverage {
  first: string | null;
  last: string | null;
  rows: number;
  interval_minutes: number;
  gap_count: number;
  completeness: number;
  gaps: { start: string; end: string; missing_intervals: number }[];
}

export interface SiteRecord {
  customer_id: string;
  site_id: string;
  account_id: string;
  location: string;
  region: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
  created_at: string;
  /** Of the site's whole standardised series (historical and nowcast data merged). */
  coverage?: SiteCoverage;
  training_requested_at?: string;
}

export async function getSite(customerId: string, siteId: string): Promise<SiteRecord | undefined> {
  const item = await getItem('analytics', keys.site(customerId, siteId));
  return item && withoutKeys<SiteRecord>(item);
}

/** Creates the site on first use; returns the stored record either way. */
export async function ensureSite(site: SiteRecord): Promise<SiteRecord> {
  if (await putNew('analytics', { ...keys.site(site.customer_id, site.site_id), ...site })) return site;
  return (await getSite(site.customer_id, site.site_id))!;
}

export async function listSites(customerId: string): Promise<SiteRecord[]> {
  const { pk, skPrefix } = keys.sitesOf(customerId);
  return (await queryPartition('analytics', pk, { prefix: skPrefix })).map((i) => withoutKeys<SiteRecord>(i));
}

export async function setCoverage(customerId: string, siteId: string, coverage: SiteCoverage): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('analytics'),
      Key: keys.site(customerId, siteId),
      UpdateExpression: 'SET coverage = :c',
      ExpressionAttributeValues: { ':c': coverage },
    }),
  );
}

/** Marks automatic training as requested; false when it already was (so the job is queued once). */
export async function markTrainingRequested(customerId: string, siteId: string, at: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName('analytics'),
        Key: keys.site(customerId, siteId),
        UpdateExpression: 'SET training_requested_at = :at',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(training_requested_at)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}
