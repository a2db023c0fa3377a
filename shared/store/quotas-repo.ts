/**
 * Monthly usage counters: one item per account and month, one attribute per quota kind.
 * A unit is consumed with a single conditional ADD, so concurrent requests can never pass the limit.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './aws-clients';
import { addToCounters, getItem, isConditionFailed } from './dynamo';
import { keys } from './keys';
import { tableName } from './tables';
import { QUOTA_KINDS, type QuotaKind } from '../domain/accounts/tiers';

export type Usage = Record<QuotaKind, number>;

/** Adds `amount` unless that would pass `limit` (null = unlimited). Returns the count after, or null when refused. */
export async function incrementWithinLimit(
  accountId: string,
  month: string,
  kind: QuotaKind,
  limit: number | null,
  amount = 1,
): Promise<number | null> {
  const limited = limit !== null;
  if (limited && amount > limit) return null; // no write could succeed, and a first write would pass the condition
  try {
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: tableName('accounts'),
        Key: keys.quota(accountId, month),
        UpdateExpression: 'ADD #k :n',
        ConditionExpression: limited ? 'attribute_not_exists(#k) OR #k <= :max' : undefined,
        ExpressionAttributeNames: { '#k': kind },
        ExpressionAttributeValues: limited ? { ':n': amount, ':max': limit - amount } : { ':n': amount },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.[kind] ?? amount);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}

/** Gives back units of a request that failed after consuming them (refused requests consume nothing). */
export async function decrement(accountId: string, month: string, kind: QuotaKind, amount = 1): Promise<void> {
  await addToCounters('accounts', keys.quota(accountId, month), { [kind]: -amount });
}

export async function readUsage(accountId: string, month: string): Promise<Usage> {
  const item = (await getItem('accounts', keys.quota(accountId, month))) ?? {};
  return Object.fromEntries(QUOTA_KINDS.map((k) => [k, Number(item[k] ?? 0)])) as Usage;
}
