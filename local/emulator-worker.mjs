// The AWS stand-ins run in a worker thread so that they use the second core and the handlers keep the
// main event loop (plain JavaScript: it runs outside any TypeScript loader): dynalite, s3rver, and our durable
// SQS stand-in (durable-sqs/), whose queues live in <dataDir>/sqs. workerData:
// { dataDir?: string, s3Dir: string, region: string }. Posts {type:'ready', ...endpoints}, forwards
// s3rver's events as {type:'s3-event', event}, and answers {type:'close'|'close-s3'} with {type:'closed', what}.
import { parentPort, workerData } from 'node:worker_threads';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { startDurableSqs } from './durable-sqs/server.mjs';

const HOST = '127.0.0.1';
const portOf = (server) => server.address().port;
const closeServer = (server) => new Promise((resolve) => server.close(() => resolve()));

const dynamoPath = workerData.dataDir ? path.join(workerData.dataDir, 'dynamodb') : undefined;
if (dynamoPath) mkdirSync(dynamoPath, { recursive: true });
const dynamo = dynalite({ path: dynamoPath, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
await new Promise((resolve) => dynamo.listen(0, HOST, resolve));

mkdirSync(workerData.s3Dir, { recursive: true });
const s3 = new S3rver({ port: 0, address: HOST, directory: workerData.s3Dir, silent: true, allowMismatchedSignatures: true });
const s3Address = await s3.run();
s3.on('event', (event) => parentPort.postMessage({ type: 's3-event', event }));

const sqsPath = workerData.dataDir ? path.join(workerData.dataDir, 'sqs') : undefined;
const sqs = await startDurableSqs({ host: HOST, port: 0, region: workerData.region, dataDir: sqsPath });

parentPort.on('message', async (message) => {
  if (message.type === 'close-s3') {
    await s3.close();
    parentPort.postMessage({ type: 'closed', what: 's3' });
  } else if (message.type === 'close') {
    await Promise.all([closeServer(dynamo), s3.close().catch(() => undefined), sqs.close()]);
    parentPort.postMessage({ type: 'closed', what: 'all' });
  }
});

parentPort.postMessage({
  type: 'ready',
  dynamoEndpoint: `http://${HOST}:${portOf(dynamo)}`,
  s3Endpoint: `http://${HOST}:${s3Address.port}`,
  sqsEndpoint: sqs.endpoint,
});
