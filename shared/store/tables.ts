/**
 * The DynamoDB tables, declared once: CDK creates them from this list and the local runtime creates
 * the same tables in the embedded DynamoDB. Every table has generic `pk`/`sk` keys, one GSI and a TTL
 * attribute (clean-up only: readers ignore expired items, since DynamoDB deletes them late and the
 * local stand-in never does).
 */
import type { CreateTableCommandInput, KeySchemaElement } from '@aws-sdk/client-dynamodb';
import { config, type Config } from '../config';

export interface TableSpec {
  /** Logical name, also the CDK construct id. */
  id: 'accounts' | 'operations' | 'analytics';
  /** Config field holding the physical name. */
  nameFrom: keyof Pick<Config, 'ACCOUNTS_TABLE' | 'OPERATIONS_TABLE' | 'ANALYTICS_TABLE'>;
  purpose: string;
}

export const TABLES: readonly TableSpec[] = [
  { id: 'accounts', nameFrom: 'ACCOUNTS_TABLE', purpose: 'accounts, key hashes, quotas, rate windows, clients, customers, devices, webhook registrations' },
  { id: 'operations', nameFrom: 'OPERATIONS_TABLE', purpose: 'assets, schedules, BOMs, orders, detections, diagnostics, subscriptions, OODA summaries' },
  { id: 'analytics', nameFrom: 'ANALYTICS_TABLE', purpose: 'sites, coverage, forecasts, interpolation results, jobs, models, batches, updates, uploads, statistics' },
];

export const KEY_SCHEMA = { partitionKey: 'pk', sortKey: 'sk' } as const;
export const GSI1 = { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' } as const;
export const TTL_ATTRIBUTE = 'expires_at';

const keyPair = (key: { partitionKey: string; sortKey: string }): KeySchemaElement[] => [
  { AttributeName: key.partitionKey, KeyType: 'HASH' },
  { AttributeName: key.sortKey, KeyType: 'RANGE' },
];

/**
 * Every table's keys and index in the DynamoDB API's shape (string keys, the GSI projecting all):
 * local/bootstrap.ts creates the local tables with it, and test/infra/app.test.ts checks that the tables
 * CDK synthesizes (lib/data/tables.ts) have the same layout.
 */
export const TABLE_KEY_LAYOUT: Required<Pick<CreateTableCommandInput, 'KeySchema' | 'AttributeDefinitions' | 'GlobalSecondaryIndexes'>> = {
  KeySchema: keyPair(KEY_SCHEMA),
  AttributeDefinitions: [KEY_SCHEMA.partitionKey, KEY_SCHEMA.sortKey, GSI1.partitionKey, GSI1.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
  GlobalSecondaryIndexes: [{ IndexName: GSI1.name, KeySchema: keyPair(GSI1), Projection: { ProjectionType: 'ALL' } }],
};

export const tableName = (id: TableSpec['id']): string => config()[TABLES.find((t) => t.id === id)!.nameFrom];
