/** Fixed request windows per subject (a key hash, a client address, an e-mail address). */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './aws-clients';
import { keys } from './keys';
import { TTL_ATTRIBUTE, tableName } from './tables';

/** Windows are kept a little past their end so that TTL clean-up never races a late request. */
const WINDOW_RETENTION_SECONDS = 120;

/** Counts one request in the window starting at `windowStart` (epoch seconds); returns the count so far. */
export async function countRequest(subject: string, windowStart: number, windowSeconds = 60): Promise<number> {
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('accounts'),
      Key: keys.rateWindow(subject, windowStart),
      UpdateExpression: 'ADD #n :one SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#n': 'requests', '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':one': 1, ':ttl': windowStart + windowSeconds + WINDOW_RETENTION_SECONDS },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.requests ?? 1);
}
