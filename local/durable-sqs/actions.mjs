// The SQS API actions over the queue store: JSON-protocol input checked as SQS checks it, output shaped as
// @aws-sdk/client-sqs reads it. Not implemented (answered UnsupportedOperation): FIFO queues, message
// attributes, DeleteQueue, tags, message move tasks, and the 60-second PurgeQueue cool-down.
import { Buffer } from 'node:buffer';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL } from 'node:url';
import * as errors from './errors.mjs';
import { NUMERIC_ATTRIBUTES } from './queues.mjs';

const MAX_BATCH_ENTRIES = 10;
const MAX_LIST_RESULTS = 1_000;
const BATCH_ENTRY_ID = /^[A-Za-z0-9_-]{1,80}$/;
const MESSAGE_SYSTEM_ATTRIBUTES = ['ApproximateReceiveCount', 'SentTimestamp', 'ApproximateFirstReceiveTimestamp', 'SenderId'];

/** An integer parameter within bounds, or undefined when absent. */
function integerParameter(input, name, { min, max }) {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw errors.invalidParameter(`Value ${value} for parameter ${name} is invalid. Reason: Must be an integer from ${min} to ${max}.`);
  }
  return value;
}

function requiredString(input, name) {
  const value = input[name];
  if (typeof value !== 'string' || value === '') throw errors.missingParameter(name);
  return value;
}

/** The queue a QueueUrl names: its last path segment, whatever the host (the port changes across restarts). */
/** A visibility change of one request or batch entry: its receipt handle and new time-out, both required. */
function visibilityChange(input) {
  const handle = requiredString(input, 'ReceiptHandle');
  const seconds = integerParameter(input, 'VisibilityTimeout', NUMERIC_ATTRIBUTES.VisibilityTimeout);
  if (seconds === undefined) throw errors.missingParameter('VisibilityTimeout');
  return { handle, seconds };
}

function queueNameOf(input) {
  const url = requiredString(input, 'QueueUrl');
  let pathname = url;
  try {
    pathname = new URL(url).pathname;
  } catch {
    // A bare path or name: take it as it is.
  }
  const name = pathname.split('/').filter(Boolean).pop();
  if (!name) throw errors.queueDoesNotExist();
  return name;
}

function rejectMessageAttributes(entry) {
  for (const field of ['MessageAttributes', 'MessageSystemAttributes']) {
    if (entry[field] && Object.keys(entry[field]).length) throw errors.unsupported(field);
  }
}

/** Checks a batch's entries as SQS does before any entry is processed. */
function batchEntries(input) {
  const entries = input.Entries;
  if (!Array.isArray(entries) || entries.length === 0) throw errors.emptyBatch();
  if (entries.length > MAX_BATCH_ENTRIES) throw errors.tooManyEntries(entries.length);
  const seen = new Set();
  for (const entry of entries) {
    if (typeof entry?.Id !== 'string' || !BATCH_ENTRY_ID.test(entry.Id)) throw errors.invalidBatchEntryId(entry?.Id);
    if (seen.has(entry.Id)) throw errors.batchIdsNotDistinct(entry.Id);
    seen.add(entry.Id);
  }
  return entries;
}

/** A batch action's queue (it must exist, whatever the entries) and its checked entries. */
function batchOf(store, input) {
  const name = queueNameOf(input);
  const queue = store.queue(name);
  return { name, queue, entries: batchEntries(input) };
}

/** A single action served by the store's batch method: the one outcome's error is the action's. */
function single([err]) {
  if (err) throw err;
  return {};
}

const failure = (id, err) => {
  if (!(err instanceof errors.SqsError)) throw err;
  return { Id: id, SenderFault: true, Code: err.queryCode, Message: err.message };
};

/** Splits per-entry outcomes (an error or undefined) into SQS's Successful and Failed lists. */
function batchResult(entries, outcomes, success = (entry) => ({ Id: entry.Id })) {
  const Successful = [];
  const Failed = [];
  outcomes.forEach((err, i) => (err ? Failed.push(failure(entries[i].Id, err)) : Successful.push(success(entries[i], i))));
  return { Successful, Failed };
}

function wireMessage(m, wanted) {
  const all = {
    ApproximateReceiveCount: String(m.receiveCount),
    SentTimestamp: String(m.sentAt),
    ApproximateFirstReceiveTimestamp: String(m.firstReceiveAt),
    SenderId: m.senderId,
  };
  const names = wanted.includes('All') ? MESSAGE_SYSTEM_ATTRIBUTES : wanted.filter((n) => n in all);
  const attributes = Object.fromEntries(names.map((n) => [n, all[n]]));
  return {
    MessageId: m.id,
    ReceiptHandle: m.receiptHandle,
    // The SDK checks this against the body it received (middleware-sdk-sqs) and fails the call on a mismatch.
    MD5OfBody: m.md5,
    Body: m.body,
    ...(names.length ? { Attributes: attributes } : {}),
  };
}

/**
 * Waits until a message of the queue may be visible: a send or visibility change wakes it, and a timer covers
 * delays and visibility time-outs that lapse on their own. Ends early when the client has gone.
 */
function waitForChange(store, name, until, request) {
  return new Promise((resolve) => {
    const next = Math.min(until, store.nextVisibleAt(name) ?? Infinity);
    const timer = setTimeout(done, Math.max(0, next - Date.now()));
    const unsubscribe = store.subscribe(name, done);
    const forget = request.onGone(done);
    function done() {
      clearTimeout(timer);
      unsubscribe();
      forget();
      resolve();
    }
  });
}

/**
 * The actions by name (x-amz-target `AmazonSQS.<name>`). Each takes the store, the JSON input and the request
 * context ({ queueUrl(name), senderId, gone(), onGone(fn) -> forget }) and returns the JSON output.
 */
export const ACTIONS = {
  CreateQueue(store, input, request) {
    const queue = store.createQueue(input.QueueName, input.Attributes);
    return { QueueUrl: request.queueUrl(queue.name) };
  },

  GetQueueUrl(store, input, request) {
    return { QueueUrl: request.queueUrl(store.queue(requiredString(input, 'QueueName')).name) };
  },

  ListQueues(store, input, request) {
    const names = store.listQueues(input.QueueNamePrefix ?? '');
    const max = integerParameter(input, 'MaxResults', { min: 1, max: MAX_LIST_RESULTS });
    if (max === undefined) return names.length ? { QueueUrls: names.slice(0, MAX_LIST_RESULTS).map(request.queueUrl) } : {};
    const start = Number(input.NextToken ?? 0) || 0;
    const page = names.slice(start, start + max);
    return { QueueUrls: page.map(request.queueUrl), ...(start + max < names.length ? { NextToken: String(start + max) } : {}) };
  },

  GetQueueAttributes(store, input) {
    const name = queueNameOf(input);
    const names = input.AttributeNames ?? [];
    store.queue(name);
    // SQS returns no attributes unless some are named.
    return names.length ? { Attributes: store.attributes(name, names) } : {};
  },

  SetQueueAttributes(store, input) {
    store.setAttributes(queueNameOf(input), input.Attributes ?? {});
    return {};
  },

  SendMessage(store, input, request) {
    const name = queueNameOf(input);
    const queue = store.queue(name);
    rejectMessageAttributes(input);
    const delaySeconds = integerParameter(input, 'DelaySeconds', NUMERIC_ATTRIBUTES.DelaySeconds);
    const problem = store.bodyProblem(queue, input.MessageBody);
    if (problem) throw problem;
    const [sent] = store.send(name, [{ body: input.MessageBody, delaySeconds, senderId: request.senderId }]);
    return { MessageId: sent.id, MD5OfMessageBody: sent.md5 };
  },

  SendMessageBatch(store, input, request) {
    const { name, queue, entries } = batchOf(store, input);
    const bytes = entries.reduce((sum, e) => sum + Buffer.byteLength(typeof e.MessageBody === 'string' ? e.MessageBody : '', 'utf8'), 0);
    if (bytes > queue.attributes.MaximumMessageSize) throw errors.batchTooLong(bytes, queue.attributes.MaximumMessageSize);
    const accepted = [];
    const outcomes = entries.map((entry) => {
      try {
        rejectMessageAttributes(entry);
        const delaySeconds = integerParameter(entry, 'DelaySeconds', NUMERIC_ATTRIBUTES.DelaySeconds);
        const problem = store.bodyProblem(queue, entry.MessageBody);
        if (problem) throw problem;
        accepted.push({ body: entry.MessageBody, delaySeconds, senderId: request.senderId });
        return undefined;
      } catch (err) {
        return err;
      }
    });
    const sent = accepted.length ? store.send(name, accepted) : [];
    let next = 0;
    return batchResult(entries, outcomes, (entry) => {
      const s = sent[next++];
      return { Id: entry.Id, MessageId: s.id, MD5OfMessageBody: s.md5 };
    });
  },

  /** Long polling: returns as soon as at least one message is visible, or empty after WaitTimeSeconds. */
  async ReceiveMessage(store, input, request) {
    const name = queueNameOf(input);
    const queue = store.queue(name);
    const max = integerParameter(input, 'MaxNumberOfMessages', { min: 1, max: MAX_BATCH_ENTRIES }) ?? 1;
    const waitSeconds = integerParameter(input, 'WaitTimeSeconds', NUMERIC_ATTRIBUTES.ReceiveMessageWaitTimeSeconds) ?? queue.attributes.ReceiveMessageWaitTimeSeconds;
    const visibilityTimeout = integerParameter(input, 'VisibilityTimeout', NUMERIC_ATTRIBUTES.VisibilityTimeout);
    // AttributeNames is deprecated in favour of MessageSystemAttributeNames; clients still send either.
    const wanted = [...(input.AttributeNames ?? []), ...(input.MessageSystemAttributeNames ?? [])];
    const until = Date.now() + 1000 * waitSeconds;
    let messages = store.receive(name, { max, visibilityTimeout });
    while (!messages.length && Date.now() < until && !request.gone()) {
      await waitForChange(store, name, until, request);
      // A client that hung up must not take messages it will never see (they would stay invisible).
      if (request.gone()) return {};
      messages = store.receive(name, { max, visibilityTimeout });
    }
    return messages.length ? { Messages: messages.map((m) => wireMessage(m, wanted)) } : {};
  },

  DeleteMessage(store, input) {
    return single(store.delete(queueNameOf(input), [requiredString(input, 'ReceiptHandle')]));
  },

  DeleteMessageBatch(store, input) {
    const { name, entries } = batchOf(store, input);
    return batchResult(entries, store.delete(name, entries.map((e) => e.ReceiptHandle)));
  },

  ChangeMessageVisibility(store, input) {
    return single(store.changeVisibility(queueNameOf(input), [visibilityChange(input)]));
  },

  ChangeMessageVisibilityBatch(store, input) {
    const { name, entries } = batchOf(store, input);
    const checked = entries.map((entry) => {
      try {
        return visibilityChange(entry);
      } catch (err) {
        return { err };
      }
    });
    const valid = checked.filter((c) => !c.err);
    const outcomes = store.changeVisibility(name, valid);
    let next = 0;
    return batchResult(entries, checked.map((c) => c.err ?? outcomes[next++]));
  },

  PurgeQueue(store, input) {
    store.purge(queueNameOf(input));
    return {};
  },
};
