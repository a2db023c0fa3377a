/**
 * Access to the local runtime's store from another process (the operator CLI). LevelDB allows one
 * opener, so a running server publishes its DynamoDB endpoint in DATA_DIR/runtime.json; without a
 * running server the store is opened directly.
 */
import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startEmulators } from './emulators';
import { createTables } from './bootstrap';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { config, resetConfig } from '../shared/config';

const RUNTIME_FILE = 'runtime.json';

export function publishEndpoints(dataDir: string, endpoints: { dynamo: string; s3: string; sqs: string }): void {
  writeFileSync(path.join(dataDir, RUNTIME_FILE), JSON.stringify({ pid: process.pid, ...endpoints }, null, 2));
}

export function withdrawEndpoints(dataDir: string): void {
  rmSync(path.join(dataDir, RUNTIME_FILE), { force: true });
}

async function answers(endpoint: string): Promise<boolean> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await client.send(new ListTablesCommand({}), { abortSignal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/** Points this process's AWS clients at the local store; `close` releases it. */
export async function openLocalStore(dataDir: string): Promise<{ close(): Promise<void> }> {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: process.env.AWS_REGION ?? 'us-east-1' });
  const file = path.join(dataDir, RUNTIME_FILE);
  if (existsSync(file)) {
    const published = JSON.parse(readFileSync(file, 'utf8')) as { dynamo: string };
    if (await answers(published.dynamo)) {
      process.env.AWS_ENDPOINT_URL_DYNAMODB = published.dynamo;
      resetConfig();
      return { close: async () => undefined };
    }
  }
  const emulators = await startEmulators({ dataDir, s3Dir: path.join(dataDir, 's3'), region: process.env.AWS_REGION! });
  process.env.AWS_ENDPOINT_URL_DYNAMODB = emulators.dynamoEndpoint;
  resetConfig();
  const client = new DynamoDBClient({ region: process.env.AWS_REGION });
  await createTables(client, config());
  client.destroy();
  return { close: () => emulators.close() };
}

/**
 * Runs an operator command against the local store under DATA_DIR (default .data), or with `aws` against the
 * deployed tables of AWS_REGION; resolves with its exit code, 1 on an error (printed after `name`). `run`
 * imports the services itself: they read their endpoints from the environment the store sets.
 */
export async function runAgainstStore(name: string, aws: boolean, run: () => Promise<number>): Promise<number> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'; // the SDK's Node-version notice is noise in an operator's terminal
  const store = aws ? undefined : await openLocalStore(path.resolve(process.env.DATA_DIR ?? '.data'));
  try {
    return await run();
  } catch (err) {
    console.error(`${name}: ${(err as Error).message}`);
    return 1;
  } finally {
    await store?.close();
  }
}
