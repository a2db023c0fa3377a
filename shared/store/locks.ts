/**
 * Short leases in DynamoDB (conditional put with an expiry), so that two workers never rewrite the
 * same site's series at once. A lease that outlives its holder (a crashed worker) expires by itself.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { documentClient } from './aws-clients';
import { isConditionFailed } from './dynamo';
import { keys } from './keys';
import { TTL_ATTRIBUTE, tableName } from './tables';

export class LockTimeout extends Error {}

async function tryAcquire(name: string, holder: string, leaseSeconds: number): Promise<boolean> {
  const now = Math.floor(Date.now() / 1000);
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName('analytics'),
        Item: { ...keys.lock(name), holder, [TTL_ATTRIBUTE]: now + leaseSeconds },
        ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':now': now },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Runs `work` holding the lease `name`; waits up to `waitMs` for it. */
export async function withLock<T>(name: string, work: () => Promise<T>, { leaseSeconds = 300, waitMs = 120_000 } = {}): Promise<T> {
  const holder = randomUUID();
  const deadline = Date.now() + waitMs;
  let pause = 50;
  while (!(await tryAcquire(name, holder, leaseSeconds))) {
    if (Date.now() > deadline) throw new LockTimeout(`lock ${name} not acquired within ${waitMs} ms`);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(1000, pause * 2);
  }
  try {
    return await work();
  } finally {
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName('analytics'),
        Key: keys.lock(name),
        ConditionExpression: 'holder = :h',
        ExpressionAttributeValues: { ':h': holder },
      }),
    ).catch((err) => {
      if (!isConditionFailed(err)) throw err;
    });
  }
}
