// A small SQS stand-in whose queues survive a restart (issue 17): the SQS JSON protocol (AwsJson1_0, what
// @aws-sdk/client-sqs v3 speaks) over HTTP, standard-queue semantics in queues.mjs, and with a directory a
// journal (journal.mjs) written before each answer, replayed and compacted at start. Signatures are not checked.
import http from 'node:http';
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { randomUUID } from 'node:crypto';
import { ACTIONS } from './actions.mjs';
import { SqsError, unsupported } from './errors.mjs';
import { QueueStore } from './queues.mjs';

/** The account in queue URLs and ARNs: LocalStack's and the local runtime's (queue-poller.ts builds ARNs with it). */
export const ACCOUNT_ID = '000000000000';
/** Ten messages of SQS's largest size, with room for JSON escaping. */
const MAX_REQUEST_BYTES = 16 << 20;
const TARGET_PREFIX = 'AmazonSQS.';

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        reject(new SqsError('RequestTooLarge', `Requests are limited to ${MAX_REQUEST_BYTES} bytes.`, { status: 413 }));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function reply(res, status, body, headers) {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The access key of the SigV4 Authorization header: SQS reports the sender's identity as SenderId. */
function senderOf(req) {
  return /Credential=([^/,\s]+)/.exec(req.headers.authorization ?? '')?.[1] ?? 'anonymous';
}

async function handle(store, req, res) {
  const requestId = randomUUID();
  let gone = false;
  const goneListeners = new Set();
  res.once('close', () => {
    gone = true;
    for (const listener of goneListeners) listener();
  });
  const request = {
    // The URL names the host the client reached; the stand-in resolves queues by the name alone.
    queueUrl: (name) => `http://${req.headers.host}/${ACCOUNT_ID}/${name}`,
    senderId: senderOf(req),
    gone: () => gone,
    onGone: (listener) => {
      goneListeners.add(listener);
      return () => goneListeners.delete(listener);
    },
  };
  try {
    const target = req.headers['x-amz-target'];
    if (req.method !== 'POST' || typeof target !== 'string' || !target.startsWith(TARGET_PREFIX)) {
      throw unsupported('A request other than the JSON protocol (POST with x-amz-target: AmazonSQS.<Action>)');
    }
    const name = target.slice(TARGET_PREFIX.length);
    const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
    if (!action) throw unsupported(`The action ${name}`);
    const text = await readBody(req);
    let input;
    try {
      input = text ? JSON.parse(text) : {};
    } catch {
      throw new SqsError('SerializationException', 'The request body is not JSON.');
    }
    const output = await action(store, input ?? {}, request);
    reply(res, 200, output, { 'x-amzn-requestid': requestId });
  } catch (err) {
    if (err instanceof SqsError) {
      reply(res, err.status, { __type: `com.amazonaws.sqs#${err.shape}`, message: err.message }, { 'x-amzn-requestid': requestId, 'x-amzn-query-error': `${err.queryCode};Sender` });
    } else {
      console.error('durable-sqs: request failed', err);
      reply(res, 500, { __type: 'com.amazonaws.sqs#InternalError', message: 'The stand-in failed; see its log.' }, { 'x-amzn-requestid': requestId, 'x-amzn-query-error': 'InternalError;Receiver' });
    }
  }
}

/**
 * Starts the stand-in on host:port (0 picks a free port). With `dataDir` the queues are kept in
 * `<dataDir>/journal.jsonl` across restarts, a kill -9 included; without, in memory.
 * @param {{ host?: string, port?: number, region?: string, dataDir?: string }} [options]
 * @returns {Promise<{ endpoint: string, port: number, close(): Promise<void> }>}
 */
export async function startDurableSqs({ host = '127.0.0.1', port = 0, region = 'us-east-1', dataDir } = {}) {
  const store = QueueStore.open({ region, accountId: ACCOUNT_ID, dir: dataDir });
  const server = http.createServer((req, res) => {
    handle(store, req, res).catch((err) => console.error('durable-sqs: request failed', err));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const bound = server.address().port;
  return {
    endpoint: `http://${host}:${bound}`,
    port: bound,
    async close() {
      // Long polls end when their connection closes; nothing is buffered, so there is nothing to flush.
      await new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.close();
    },
  };
}
