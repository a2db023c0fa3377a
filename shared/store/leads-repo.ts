/** Freemium requesters (SPEC 4.4: the e-mail "creates a customer record"), kept as leads per e-mail. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './aws-clients';
import { keys } from './keys';
import { tableName } from './tables';

export async function recordLead(email: string, siteName: string, location: string): Promise<void> {
  const now = new Date().toISOString();
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('accounts'),
      Key: keys.lead(email),
      UpdateExpression: 'SET email = :e, first_seen = if_not_exists(first_seen, :now), last_seen = :now, site_name = :s, #loc = :l ADD forecasts :one',
      ExpressionAttributeNames: { '#loc': 'location' },
      ExpressionAttributeValues: { ':e': email.toLowerCase(), ':now': now, ':s': siteName, ':l': location, ':one': 1 },
    }),
  );
}
