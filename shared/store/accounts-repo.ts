/** Accounts and their API keys (only SHA-256 hashes are stored). */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './aws-clients';
import { deleteItem, getItem, getRecord, putItem, putNew, queryPartition } from './dynamo';
import { keys } from './keys';
import { tableName } from './tables';
import type { Tier } from '../domain/accounts/tiers';

export interface Account {
  account_id: string;
  email: string;
  organization: string;
  use_case: string;
  tier: Tier;
  tier_preference: string;
  created_at: string;
}

/** What authentication needs, denormalised onto the key item so a request costs one read. */
export interface KeyRecord {
  account_id: string;
  email: string;
  tier: Tier;
  key_hint: string;
  created_at: string;
}

export class EmailTaken extends Error {}

/** Creates the account, reserving its e-mail address first (conditional put; no transactions needed). */
export async function createAccount(account: Account): Promise<void> {
  if (!(await putNew('accounts', { ...keys.email(account.email), account_id: account.account_id }))) throw new EmailTaken(account.email);
  await putItem('accounts', { ...keys.account(account.account_id), ...account });
}

export async function getAccount(accountId: string): Promise<Account | undefined> {
  return getRecord<Account>('accounts', keys.account(accountId));
}

export async function findAccountIdByEmail(email: string): Promise<string | undefined> {
  const item = await getItem('accounts', keys.email(email));
  return item?.account_id as string | undefined;
}

export async function storeKey(hash: string, record: KeyRecord): Promise<void> {
  await putItem('accounts', { ...keys.apiKey(hash), ...record });
  await putItem('accounts', { ...keys.accountKey(record.account_id, hash), key_hint: record.key_hint, created_at: record.created_at });
}

export async function findKey(hash: string): Promise<KeyRecord | undefined> {
  return getRecord<KeyRecord>('accounts', keys.apiKey(hash));
}

export async function revokeKey(accountId: string, hash: string): Promise<void> {
  await deleteItem('accounts', keys.apiKey(hash));
  await deleteItem('accounts', keys.accountKey(accountId, hash));
}

/** Changes the tier on the account and on each of its key items. */
export async function setTier(accountId: string, tier: Tier): Promise<void> {
  const client = documentClient();
  const update = (key: { pk: string; sk: string }) =>
    client.send(
      new UpdateCommand({
        TableName: tableName('accounts'),
        Key: key,
        UpdateExpression: 'SET tier = :tier',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':tier': tier },
      }),
    );
  await update(keys.account(accountId));
  const { pk, skPrefix } = keys.accountKeysPrefix(accountId);
  const accountKeys = await queryPartition('accounts', pk, { prefix: skPrefix });
  await Promise.all(accountKeys.map((k) => update(keys.apiKey(String(k.sk).slice('KEY#'.length)))));
}
