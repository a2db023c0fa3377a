/** Sites of a customer (analytics table); created by ingestion, read here for request preconditions. */
import { getItem, withoutKeys } from './dynamo';
import { keys } from './keys';

export interface SiteRecord {
  customer_id: string;
  site_id: string;
  created_at: string;
}

export async function getSite(customerId: string, siteId: string): Promise<SiteRecord | undefined> {
  const item = await getItem('analytics', keys.site(customerId, siteId));
  return item && withoutKeys<SiteRecord>(item);
}
