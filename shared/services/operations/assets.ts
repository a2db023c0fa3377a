/** Assets of the asset-operations loop: add, list, get (SPEC 4.3, /terminal/assets). */
import { Conflict, NotFound } from '../../errors';
import { getAsset, insertAsset, listAssets, type AssetRecord } from '../../store/assets-repo';
import type { Caller } from '../../access/authentication';
import { ownedCustomer } from '../accounts/tenants';

const publicView = ({ account_id: _owner, ...asset }: AssetRecord) => asset;

export async function addAsset(caller: Caller, input: Omit<AssetRecord, 'account_id' | 'created_at'>) {
  if (input.customer_id) await ownedCustomer(caller, input.customer_id);
  const record: AssetRecord = { ...input, account_id: caller.accountId, created_at: new Date().toISOString() };
  if (!(await insertAsset(record))) throw new Conflict(`Asset ${input.asset_id} already exists`);
  return { success: true, message: 'Asset added', asset_id: record.asset_id };
}

export async function listAssetsOf(caller: Caller) {
  const assets = (await listAssets(caller.accountId)).map(publicView);
  return { success: true, assets, count: assets.length };
}

/** The caller's asset; another account's is reported exactly like a missing one. */
export async function ownedAsset(caller: Caller, assetId: string): Promise<AssetRecord> {
  const asset = await getAsset(caller.accountId, assetId);
  if (!asset) throw new NotFound('Asset not found');
  return asset;
}

export async function assetOf(caller: Caller, assetId: string) {
  return { success: true, asset: publicView(await ownedAsset(caller, assetId)) };
}
