/** Assets of an account (operations table). Asset ids are chosen by the caller, unique per account. */
import { getRecord, listRecords, putNew } from './dynamo';
import { keys } from './keys';

export interface AssetRecord {
  asset_id: string;
  account_id: string;
  name: string;
  type: string;
  capacity_kw: number;
  location: string;
  components?: { oem: string; model: string; serial: string }[];
  customer_id?: string;
  site_id?: string;
  created_at: string;
}

export const insertAsset = (a: AssetRecord): Promise<boolean> =>
  putNew('operations', { ...keys.asset(a.account_id, a.asset_id), ...a });

export async function getAsset(accountId: string, assetId: string): Promise<AssetRecord | undefined> {
  return getRecord<AssetRecord>('operations', keys.asset(accountId, assetId));
}

export async function listAssets(accountId: string): Promise<AssetRecord[]> {
  return listRecords<AssetRecord>('operations', keys.assetsOf(accountId));
}

/** Assets of an account linked to a site (assets carry optional customer_id and site_id; ARCHITECTURE 9). */
export async function listAssetsOfSite(accountId: string, customerId: string, siteId: string): Promise<AssetRecord[]> {
  return (await listAssets(accountId)).filter((a) => a.customer_id === customerId && a.site_id === siteId);
}
