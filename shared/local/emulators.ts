/**
 * The embedded AWS stand-ins of the local runtime (ARCHITECTURE 6, 10): dynalite for DynamoDB
 * (LevelDB on disk, or memory), s3rver for S3 (a folder), local-aws-sqs for SQS (memory).
 */
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { createSqsServer } from 'local-aws-sqs';
import type { AddressInfo, Server } from 'node:net';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export interface Emulators {
  dynamoEndpoint: string;
  s3Endpoint: string;
  sqsEndpoint: string;
  s3: S3rver;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const url = (server: Server) => `http://${HOST}:${(server.address() as AddressInfo).port}`;
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** Starts the three stand-ins on free loopback ports. `dataDir` undefined keeps DynamoDB in memory. */
export async function startEmulators(options: { dataDir?: string; s3Dir: string; region: string }): Promise<Emulators> {
  const dynamoPath = options.dataDir ? path.join(options.dataDir, 'dynamodb') : undefined;
  if (dynamoPath) mkdirSync(dynamoPath, { recursive: true });
  const dynamo: Server = dynalite({ path: dynamoPath, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => dynamo.listen(0, HOST, () => resolve()));

  mkdirSync(options.s3Dir, { recursive: true });
  const s3 = new S3rver({ port: 0, address: HOST, directory: options.s3Dir, silent: true, allowMismatchedSignatures: true });
  const s3Address = (await s3.run()) as unknown as AddressInfo;

  const sqs = (await createSqsServer({ port: 0, hostname: HOST, region: options.region, emulateQueueCreationLifecycle: false})) as Server;

  return {
    dynamoEndpoint: url(dynamo),
    s3Endpoint: `http://${HOST}:${s3Address.port}`,
    sqsEndpoint: url(sqs),
    s3,
    async close() {
      await Promise.all([closeServer(dynamo), s3.close(), closeServer(sqs)]);
    },
  };
}
