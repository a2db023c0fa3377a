/**
 * Short leases in DynamoDB (conditional put with an expiry), so that two workers never rewrite the
 * same site's series at once. The holder renews its lease while its work runs (a heartbeat), so the lease
 * can be short: the lease of a holder that died (a crashed process, a timed-out Lambda) lapses within
 * LEASE_SECONDS, well inside a waiter's WAIT_MS, and the work waiting for it goes on instead of failing.
 * Where one process owns the store (the local runtime), a lease of any other process is orphaned on sight.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { log } from '../logger';
import { documentClient } from './aws-clients';
import { isConditionFailed } from './dynamo';
import { keys } from './keys';
import { TTL_ATTRIBUTE, tableName } from './tables';

/** A lease lapses this long after its last renewal; its holder renews it every third of that. */
const LEASE_SECONDS = 60;
/** How long work waits for a lease: two lease periods, so a dead holder's lease lapses before the wait ends. */
const WAIT_MS = 120_000;

export class LockTimeout extends Error {}

/** Marks this process's leases, so that a process owning the store can tell another's lease is orphaned. */
const PROCESS_ID = randomUUID();
let soleLeaseHolder = false;

/**
 * Declares this process the only one that takes leases on its store: the local runtime and the edge node,
 * whose store (LevelDB) has one opener, other processes (the operator CLI) reaching it through this one and
 * taking no leases. A lease of another process was then left by one that died, and is taken over at once.
 */
export function holdStoreLeasesAlone(): void {
  soleLeaseHolder = true;
}

async function tryAcquire(name: string, holder: string, leaseSeconds: number): Promise<boolean> {
  const now = Math.floor(Date.now() / 1000);
  const orphaned = soleLeaseHolder ? ' OR attribute_not_exists(#process) OR #process <> :process' : '';
  try {
    const out = await documentClient().send(
      new PutCommand({
        TableName: tableName('analytics'),
        Item: { ...keys.lock(name), holder, process: PROCESS_ID, [TTL_ATTRIBUTE]: now + leaseSeconds },
        ConditionExpression: `attribute_not_exists(pk) OR #ttl < :now${orphaned}`,
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE, ...(orphaned ? { '#process': 'process' } : {}) },
        ExpressionAttributeValues: { ':now': now, ...(orphaned ? { ':process': PROCESS_ID } : {}) },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const previous = out.Attributes;
    if (previous) {
      const reason = Number(previous[TTL_ATTRIBUTE]) >= now ? 'held by a process that is gone' : 'lapsed: its holder stopped renewing it';
      log.warn(`lease taken over, ${reason}`, { lock: name, previous_holder: previous.holder });
    }
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Extends the lease while `holder` still has it; false when it lapsed and someone else took it. */
async function renew(name: string, holder: string, leaseSeconds: number): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName('analytics'),
        Key: keys.lock(name),
        UpdateExpression: 'SET #ttl = :until',
        ConditionExpression: 'holder = :h',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':until': Math.floor(Date.now() / 1000) + leaseSeconds, ':h': holder },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Runs `work` holding the lease `name`, renewing it until the work ends; waits up to `waitMs` for it. */
export async function withLock<T>(name: string, work: () => Promise<T>, { leaseSeconds = LEASE_SECONDS, waitMs = WAIT_MS } = {}): Promise<T> {
  const holder = randomUUID();
  const deadline = Date.now() + waitMs;
  let pause = 50;
  while (!(await tryAcquire(name, holder, leaseSeconds))) {
    if (Date.now() > deadline) throw new LockTimeout(`lock ${name} not acquired within ${waitMs} ms`);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(1000, pause * 2);
  }
  let working = true;
  const heartbeat = setInterval(() => {
    renew(name, holder, leaseSeconds).then(
      // Only a holder stalled past its whole lease gets here; its work cannot be undone, so say so loudly.
      (held) => working && !held && log.error('lease lost while its work ran: another worker may have taken it', { lock: name }),
      (err) => log.warn('lease not renewed this time', { lock: name, err }),
    );
  }, (leaseSeconds * 1000) / 3).unref();
  try {
    return await work();
  } finally {
    working = false;
    clearInterval(heartbeat);
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
