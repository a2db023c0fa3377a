/**
 * The event port. In the cloud a domain event goes to EventBridge and the CDK rules route it; locally
 * (EVENT_TRANSPORT=local, no EventBridge emulator exists) the same rules of shared/pipelines.ts are
 * applied here and the event is sent to the rule's queue directly.
 */
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { EVENT_SOURCE, PIPELINES } from '../pipelines';
import { eventBridgeClient } from '../store/aws-clients';
import { enqueue } from './queues';

export interface DomainEvent<T = unknown> {
  id: string;
  type: string;
  created_at: string;
  /** The account the event belongs to (its webhook registrations receive it). */
  account_id: string;
  data: T;
}

/** The message a rule delivers to its queue: what EventBridge sends to an SQS target with the rule's input path `$.detail`. */
export type QueuedEvent = DomainEvent;

export async function publishEvent<T>(type: string, accountId: string, data: T): Promise<DomainEvent<T>> {
  const event: DomainEvent<T> = { id: randomUUID(), type, created_at: new Date().toISOString(), account_id: accountId, data };
  if (config().EVENT_TRANSPORT === 'local') {
    const rules = PIPELINES.rules.filter((r) => r.eventTypes.includes(type));
    await Promise.all(rules.map((r) => enqueue(r.queue, event)));
    return event;
  }
  const out = await eventBridgeClient().send(
    new PutEventsCommand({ Entries: [{ EventBusName: config().EVENT_BUS, Source: EVENT_SOURCE, DetailType: type, Detail: JSON.stringify(event) }] }),
  );
  if (out.FailedEntryCount) throw new Error(`event ${type} was not accepted: ${out.Entries?.[0]?.ErrorMessage ?? 'unknown error'}`);
  return event;
}
