/**
 * Records of the maintenance loop and of dispatch (operations table): schedules, BOMs, work orders, detections,
 * diagnostics and OODA summaries, each kind in one partition per account; and the tracking subscriptions
 * of each order. One generic collection keeps the key handling in one place.
 */
import { RECENT_DELIVERIES, type DeliveryOutcome } from '../domain/webhooks/delivery-outcome';
import { getRecord, listRecords, prependBounded, putItem, putNew, setFields, type Item } from './dynamo';
import { keys } from './keys';

export type OperationsKind = 'SCHEDULE' | 'BOM' | 'ORDER' | 'DETECTION' | 'DIAGNOSTIC' | 'OODA' | 'DISPATCH_COMMAND' | 'MPC_PLAN';

export interface OperationsCollection<T extends { account_id: string }> {
  insert(record: T): Promise<boolean>;
  /** Writes the record whether or not one with its key exists. */
  put(record: T): Promise<void>;
  get(accountId: string, sortId: string): Promise<T | undefined>;
  /** Every record of the account, optionally of one asset, newest first. */
  list(accountId: string, filter?: (record: T) => boolean): Promise<T[]>;
  update(accountId: string, sortId: string, patch: Partial<T>, condition?: { field: keyof T & string; equals: unknown }): Promise<boolean>;
}

/**
 * A collection of one kind. `sortIdOf` gives a record's sort id: its id for records looked up by id,
 * `<time>#<id>` for records read in time order.
 */
export function operationsCollection<T extends { account_id: string }>(kind: OperationsKind, sortIdOf: (record: T) => string, timeField: keyof T & string): OperationsCollection<T> {
  return {
    insert: (record) => putNew('operations', { ...keys.operationsRecord(record.account_id, kind, sortIdOf(record)), ...(record as Item) }),
    put: (record) => putItem('operations', { ...keys.operationsRecord(record.account_id, kind, sortIdOf(record)), ...(record as Item) }),
    async get(accountId, sortId) {
      return getRecord<T>('operations', keys.operationsRecord(accountId, kind, sortId));
    },
    async list(accountId, filter) {
      const records = await listRecords<T>('operations', keys.operationsRecordsOf(accountId, kind));
      return records.filter((r) => !filter || filter(r)).sort((a, b) => String(b[timeField]).localeCompare(String(a[timeField])));
    },
    update: (accountId, sortId, patch, condition) =>
      setFields(
        'operations',
        keys.operationsRecord(accountId, kind, sortId),
        patch as Item,
        condition ? { condition: 'attribute_exists(pk) AND #c0 = :c0', conditionNames: { '#c0': condition.field }, conditionValues: { ':c0': condition.equals } } : {},
      ),
  };
}

export interface TrackingSubscription {
  subscription_id: string;
  account_id: string;
  order_id: string;
  callback_url: string;
  /** Standard Webhooks secret (`whsec_` + base64) that signs this subscription's deliveries. */
  secret: string;
  status: 'active' | 'inactive';
  created_at: string;
  deactivated_reason?: string;
  /** The last RECENT_DELIVERIES attempts to this callback, newest first. */
  recent_deliveries?: DeliveryOutcome[];
  recent_deliveries_version?: number;
}

export const insertSubscription = (s: TrackingSubscription) => putNew('operations', { ...keys.orderSubscription(s.account_id, s.order_id, s.subscription_id), ...s });

export async function listSubscriptions(accountId: string, orderId: string): Promise<TrackingSubscription[]> {
  return (await listRecords<TrackingSubscription>('operations', keys.orderSubscriptionsOf(accountId, orderId))).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export const deactivateSubscription = (s: TrackingSubscription, reason: string) =>
  setFields('operations', keys.orderSubscription(s.account_id, s.order_id, s.subscription_id), { status: 'inactive', deactivated_reason: reason });

/** Lists an attempt first in the subscription's recent_deliveries; false when the subscription is gone. */
export const recordSubscriptionDelivery = (s: TrackingSubscription, outcome: DeliveryOutcome): Promise<boolean> =>
  prependBounded('operations', keys.orderSubscription(s.account_id, s.order_id, s.subscription_id), 'recent_deliveries', outcome, RECENT_DELIVERIES);
