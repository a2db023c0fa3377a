/** Small helpers over the document client that every repository uses. */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './aws-clients';
import { GSI1, TTL_ATTRIBUTE, tableName, type TableSpec } from './tables';

type Table = TableSpec['id'];
type Key = { pk: string; sk: string };
export type Item = Record<string, unknown>;

export const isConditionFailed = (err: unknown): boolean =>
  (err as { name?: string })?.name === 'ConditionalCheckFailedException';

/** Items past their TTL are treated as absent: DynamoDB deletes them late, the local stand-in never. */
const live = (item: Item | undefined): Item | undefined => {
  const expires = item?.[TTL_ATTRIBUTE];
  return typeof expires === 'number' && expires * 1000 <= Date.now() ? undefined : item;
};

export async function getItem(table: Table, key: Key): Promise<Item | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(table), Key: key }));
  return live(out.Item);
}

/** Put that fails with `false` instead of throwing when the key already exists. */
export async function putNew(table: Table, item: Key & Item): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({ TableName: tableName(table), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

export async function putItem(table: Table, item: Key & Item): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(table), Item: item }));
}

/**
 * Sets the given attributes of an existing item (undefined values are left alone; `remove` names attributes
 * to drop). With `condition` (over `#c0`.. names given in `conditionNames` and `:c0`.. values), a failed
 * condition answers false.
 */
export async function setFields(
  table: Table,
  key: Key,
  patch: Item,
  options: { remove?: string[]; condition?: string; conditionNames?: Record<string, string>; conditionValues?: Record<string, unknown> } = {},
): Promise<boolean> {
  const fields = Object.entries(patch).filter(([, v]) => v !== undefined);
  const removed = options.remove ?? [];
  const set = fields.length ? `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}` : '';
  const drop = removed.length ? ` REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : '';
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(table),
        Key: key,
        UpdateExpression: `${set}${drop}`.trim(),
        ConditionExpression: options.condition ?? 'attribute_exists(pk)',
        ExpressionAttributeNames: { ...Object.fromEntries(fields.map(([k], i) => [`#f${i}`, k])), ...Object.fromEntries(removed.map((k, i) => [`#r${i}`, k])), ...options.conditionNames },
        ...(fields.length || options.conditionValues ? { ExpressionAttributeValues: { ...Object.fromEntries(fields.map(([, v], i) => [`:v${i}`, v])), ...options.conditionValues } } : {}),
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/**
 * Puts `entry` first in the list attribute `field` of an existing item, keeping its newest `limit` entries: a read,
 * then a write conditional on `<field>_version` being unchanged, read again when another write came between (at
 * most `tries` times). False when the item is gone or every try collided.
 */
export async function prependBounded(table: Table, key: Key, field: string, entry: unknown, limit: number, tries = 3): Promise<boolean> {
  const version = `${field}_version`;
  for (let i = 0; i < tries; i++) {
    const item = await getItem(table, key);
    if (!item) return false;
    const list = Array.isArray(item[field]) ? (item[field] as unknown[]) : [];
    const seen = typeof item[version] === 'number' ? item[version] : undefined;
    const unchanged =
      seen === undefined
        ? { condition: 'attribute_exists(pk) AND attribute_not_exists(#c0)', conditionNames: { '#c0': version } }
        : { condition: 'attribute_exists(pk) AND #c0 = :c0', conditionNames: { '#c0': version }, conditionValues: { ':c0': seen } };
    if (await setFields(table, key, { [field]: [entry, ...list].slice(0, limit), [version]: (seen ?? 0) + 1 }, unchanged)) return true;
  }
  return false;
}

/**
 * Adds to numeric attributes in one atomic update (a missing attribute counts as 0); with `expiresAt` (epoch
 * seconds) the item's TTL is set by the first write only. Resolves with the updated attributes.
 */
export async function addToCounters(table: Table, key: Key, amounts: Record<string, number>, expiresAt?: number): Promise<Item> {
  const counters = Object.entries(amounts);
  const ttl = expiresAt === undefined ? undefined : { name: { '#ttl': TTL_ATTRIBUTE }, value: { ':ttl': expiresAt } };
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(table),
      Key: key,
      UpdateExpression: `ADD ${counters.map((_, i) => `#a${i} :a${i}`).join(', ')}${ttl ? ' SET #ttl = if_not_exists(#ttl, :ttl)' : ''}`,
      ExpressionAttributeNames: { ...Object.fromEntries(counters.map(([name], i) => [`#a${i}`, name])), ...ttl?.name },
      ExpressionAttributeValues: { ...Object.fromEntries(counters.map(([, amount], i) => [`:a${i}`, amount])), ...ttl?.value },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return out.Attributes ?? {};
}

export async function deleteItem(table: Table, key: Key): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(table), Key: key }));
}

type QueryOptions = { limit?: number; newestFirst?: boolean };

async function queryAll(input: QueryCommandInput, limit?: number): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []).map(live).filter(Boolean) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start && (limit === undefined || items.length < limit));
  return limit === undefined ? items : items.slice(0, limit);
}

/** Items of a partition whose sort key starts with a prefix (or is at least `from`). */
export function queryPartition(
  table: Table,
  pk: string,
  sk: { prefix: string } | { from: string },
  options: QueryOptions = {},
): Promise<Item[]> {
  const condition = 'prefix' in sk ? 'begins_with(sk, :sk)' : 'sk >= :sk';
  return queryAll(
    {
      TableName: tableName(table),
      KeyConditionExpression: `pk = :pk AND ${condition}`,
      ExpressionAttributeValues: { ':pk': pk, ':sk': 'prefix' in sk ? sk.prefix : sk.from },
      ScanIndexForward: !options.newestFirst,
      Limit: options.limit,
    },
    options.limit,
  );
}

function queryIndex(table: Table, gsi1pk: string, options: QueryOptions = {}): Promise<Item[]> {
  return queryAll(
    {
      TableName: tableName(table),
      IndexName: GSI1.name,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
      ScanIndexForward: !options.newestFirst,
      Limit: options.limit,
    },
    options.limit,
  );
}

/** A DynamoDB filter expression with its own `#` names and `:` values (`:pk` is taken). */
export interface ItemFilter {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * The items of an index partition in sort order, one page at a time, fetched only as the caller asks for the
 * next: the first page reads `firstPage` items, each later one twice as many, up to `maxPage`. With `filter`,
 * the store drops the items that fail it before they are sent (they still count as read).
 */
export async function* indexPages(
  table: Table,
  gsi1pk: string,
  options: { newestFirst?: boolean; firstPage: number; maxPage: number; filter?: ItemFilter },
): AsyncGenerator<Item[]> {
  let start: Record<string, unknown> | undefined;
  let size = options.firstPage;
  const { filter } = options;
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(table),
        IndexName: GSI1.name,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk, ...filter?.values },
        ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
        ScanIndexForward: !options.newestFirst,
        Limit: size,
        ExclusiveStartKey: start,
      }),
    );
    start = out.LastEvaluatedKey;
    yield (out.Items ?? []).map(live).filter(Boolean) as Item[];
    size = Math.min(options.maxPage, size * 2);
  } while (start);
}

/** Strip the storage keys from an item before it leaves the store layer. */
export function withoutKeys<T>(item: Item): T {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, [TTL_ATTRIBUTE]: _t, ...rest } = item;
  return rest as T;
}

/** The record at `key` without its storage keys (undefined when absent or expired). */
export async function getRecord<T>(table: Table, key: Key): Promise<T | undefined> {
  const item = await getItem(table, key);
  return item && withoutKeys<T>(item);
}

/** The records of a partition whose sort keys start with a prefix (a `keys.*Of` pair), without storage keys. */
export async function listRecords<T>(table: Table, { pk, skPrefix }: { pk: string; skPrefix: string }): Promise<T[]> {
  return (await queryPartition(table, pk, { prefix: skPrefix })).map((i) => withoutKeys<T>(i));
}

/** The records under one GSI1 partition key, without storage keys. */
export async function listIndexed<T>(table: Table, gsi1pk: string): Promise<T[]> {
  return (await queryIndex(table, gsi1pk)).map((i) => withoutKeys<T>(i));
}
