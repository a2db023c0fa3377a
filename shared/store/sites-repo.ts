/** Sites of a customer (analytics table), with the coverage of their standardised series. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './aws-clients';
import { getRecord, isConditionFailed, listRecords, putNew, setFields } from './dynamo';
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
  /** The PV system's specs as set with PUT /api/sites/{site_id} (API field names). */
  pv_system?: StoredPvSystem;
  pv_system_set_at?: string;
  /** Specs inferred from the site's history while none are set, with their fit. */
  pv_inferred?: { pv_system: StoredPvSystem; fit: { r2: number; rmse_kw: number; clear_days: number; days_used: number }; method: string; inferred_at: string; data_end: string };
  /** The physics forecast's correction learned from the site's history (shared/domain/pv/tuning.ts), as JSON. */
  pv_tuning?: { tuning: unknown; effect: { rmse_untuned_kw: number; rmse_tuned_kw: number; improvement_pct: number; days: number }; specs_key: string; fitted_at: string; data_end: string };
}

export interface StoredPvSystem {
  latitude: number;
  longitude: number;
  elevation_m: number;
  capacity_kwp: number;
  tilt_deg: number;
  azimuth_deg: number;
  losses_pct: number;
  inverter_ac_kw: number;
  horizon?: { azimuth_deg: number; elevation_deg: number }[];
}

export async function getSite(customerId: string, siteId: string): Promise<SiteRecord | undefined> {
  return getRecord<SiteRecord>('analytics', keys.site(customerId, siteId));
}

/** Creates the site on first use; returns the stored record either way. */
export async function ensureSite(site: SiteRecord): Promise<SiteRecord> {
  if (await putNew('analytics', { ...keys.site(site.customer_id, site.site_id), ...site })) return site;
  return (await getSite(site.customer_id, site.site_id))!;
}

export async function listSites(customerId: string): Promise<SiteRecord[]> {
  return listRecords<SiteRecord>('analytics', keys.sitesOf(customerId));
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

/** Sets PV fields of an existing site (specs, inferred specs, tuning); false when the site does not exist. */
export async function setSitePv(customerId: string, siteId: string, fields: Partial<Pick<SiteRecord, 'pv_system' | 'pv_system_set_at' | 'pv_inferred' | 'pv_tuning' | 'latitude' | 'longitude' | 'timezone'>>, remove: ('pv_tuning' | 'pv_inferred')[] = []): Promise<boolean> {
  return setFields('analytics', keys.site(customerId, siteId), fields, { remove });
}
