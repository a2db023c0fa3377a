// SQS standard-queue semantics for the local stand-in: delays, visibility time-outs, receive counts, redrive
// to a dead-letter queue, retention. Every change is a journal record (see RECORDS below), applied to memory
// only after it is written, so replaying the journal rebuilds exactly what clients were told. Times are
// absolute epoch ms: a visibility that lapsed while the process was down has lapsed on replay too.
import { Buffer } from 'node:buffer';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as errors from './errors.mjs';
import { Journal } from './journal.mjs';

// RECORDS (one JSON line each; `q` is the queue name):
//   {op:'queue', name, attributes, createdAt, modifiedAt}     created, or attributes changed
//   {op:'send', q, m:{id, body, sentAt, senderId, visibleAt, receiveCount, firstReceiveAt, receipt}}
//   {op:'receive', q, id, visibleAt, receiveCount, firstReceiveAt, receipt}
//   {op:'visibility', q, id, visibleAt}    {op:'delete', q, id}    {op:'purge', q}
//   {op:'move', q, id, to, at}             redrive: to the dead-letter queue `to`, visible from `at`
// A compacted journal holds only 'queue' and 'send' records: the live state.

/**
 * Records whose loss on a power cut would lose accepted work or bring back finished work: fdatasync'd (0.3 ms
 * a call on an idle 2-core VM, 0.6-1.3 ms loaded). Receives and visibility changes are not: lost, a message
 * only reappears sooner with a lower count, which at-least-once delivery allows. A kill -9 loses neither.
 */
const DURABLE_OPS = new Set(['queue', 'send', 'delete', 'purge', 'move']);
/** Compact at run time once this many records (and 4x the live messages) were appended: bounds the file. */
const COMPACT_MIN_RECORDS = 10_000;

/** Settable numeric attributes: default and bounds (Amazon SQS API reference, CreateQueue). */
export const NUMERIC_ATTRIBUTES = {
  VisibilityTimeout: { default: 30, min: 0, max: 43_200 },
  DelaySeconds: { default: 0, min: 0, max: 900 },
  MessageRetentionPeriod: { default: 345_600, min: 60, max: 1_209_600 },
  // SQS raised the message size ceiling (and default) from 256 KiB to 1 MiB in 2025.
  MaximumMessageSize: { default: 1_048_576, min: 1_024, max: 1_048_576 },
  ReceiveMessageWaitTimeSeconds: { default: 0, min: 0, max: 20 },
};
/** Accepted, stored and returned, but with no effect here (access policy, encryption). */
const OPAQUE_ATTRIBUTES = ['Policy', 'RedriveAllowPolicy', 'KmsMasterKeyId', 'KmsDataKeyReusePeriodSeconds', 'SqsManagedSseEnabled'];
const COMPUTED_ATTRIBUTES = [
  'QueueArn',
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
  'CreatedTimestamp',
  'LastModifiedTimestamp',
];
const MAX_RECEIVE_COUNT_LIMIT = 1_000;
const QUEUE_NAME = /^[A-Za-z0-9_-]{1,80}$/;
// The characters SQS accepts in a body (XML 1.0's Char production); a lone surrogate is outside it.
const INVALID_BODY_CHARACTER = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const md5Hex = (text) => createHash('md5').update(text, 'utf8').digest('hex');
const newReceipt = () => randomBytes(12).toString('base64url');

/** Receipt handles name the queue, the message and the receive: opaque to clients, as in SQS. */
function encodeHandle(queueName, messageId, receipt) {
  return Buffer.from(`${queueName} ${messageId} ${receipt}`, 'utf8').toString('base64url');
}

function decodeHandle(handle) {
  const parts = typeof handle === 'string' ? Buffer.from(handle, 'base64url').toString('utf8').split(' ') : [];
  if (parts.length !== 3 || !parts.every(Boolean)) throw errors.receiptHandleIsInvalid(handle);
  return { queueName: parts[0], messageId: parts[1], receipt: parts[2] };
}

function integerAttribute(name, value) {
  const bounds = NUMERIC_ATTRIBUTES[name];
  const n = Number(value);
  if (String(value).trim() === '' || !Number.isInteger(n) || n < bounds.min || n > bounds.max) {
    throw errors.invalidAttributeValue(name, `must be an integer from ${bounds.min} to ${bounds.max}, got "${value}".`);
  }
  return n;
}

export class QueueStore {
  /**
   * Opens the store: with `dir`, replays `<dir>/journal.jsonl` and compacts it; without, memory only.
   * @param {{ region: string, accountId: string, dir?: string }} options
   */
  static open({ region, accountId, dir }) {
    if (!dir) return new QueueStore({ region, accountId });
    const { journal, records } = Journal.open(dir);
    const store = new QueueStore({ region, accountId });
    for (const record of records) store.apply(record);
    store.dropExpired(Date.now());
    store.journal = journal;
    store.compact();
    return store;
  }

  constructor({ region, accountId }) {
    this.region = region;
    this.accountId = accountId;
    /** @type {Map<string, {name: string, attributes: object, createdAt: number, modifiedAt: number, messages: Map<string, object>}>} */
    this.queues = new Map();
    /** Long polls waiting on a queue, woken when one of its messages may have become visible. */
    this.listeners = new Map();
    this.journal = undefined;
  }

  arnOf(name) {
    return `arn:aws:sqs:${this.region}:${this.accountId}:${name}`;
  }

  queue(name) {
    const queue = this.queues.get(name);
    if (!queue) throw errors.queueDoesNotExist();
    return queue;
  }

  /**
   * Creates the queue, or returns it when it exists. Deviation from SQS (which answers QueueAlreadyExists when
   * the attributes differ): the given attributes are applied, as a deployment would, so a changed queue row in
   * shared/pipelines.ts takes effect on a kept data directory.
   */
  createQueue(name, attributes = {}) {
    if (typeof name !== 'string' || !QUEUE_NAME.test(name)) {
      if (typeof name === 'string' && name.endsWith('.fifo')) throw errors.unsupported('A FIFO queue');
      throw errors.invalidParameter('Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length');
    }
    const existing = this.queues.get(name);
    const parsed = this.parseAttributes(attributes, name);
    const merged = { ...(existing?.attributes ?? defaultAttributes()), ...parsed };
    if (!existing || JSON.stringify(merged) !== JSON.stringify(existing.attributes)) {
      const now = Date.now();
      this.commit([{ op: 'queue', name, attributes: merged, createdAt: existing?.createdAt ?? now, modifiedAt: now }]);
    }
    return this.queues.get(name);
  }

  setAttributes(name, attributes = {}) {
    const queue = this.queue(name);
    const merged = { ...queue.attributes, ...this.parseAttributes(attributes, name) };
    this.commit([{ op: 'queue', name, attributes: merged, createdAt: queue.createdAt, modifiedAt: Date.now() }]);
  }

  parseAttributes(attributes, queueName) {
    const parsed = {};
    for (const [key, value] of Object.entries(attributes ?? {})) {
      if (key in NUMERIC_ATTRIBUTES) parsed[key] = integerAttribute(key, value);
      else if (key === 'RedrivePolicy') parsed.RedrivePolicy = value === '' ? undefined : this.parseRedrivePolicy(value, queueName);
      else if (OPAQUE_ATTRIBUTES.includes(key)) parsed[key] = String(value);
      else if (key === 'FifoQueue' && String(value) === 'true') throw errors.unsupported('A FIFO queue');
      else if (key !== 'FifoQueue') throw errors.invalidAttributeName(key);
    }
    return parsed;
  }

  parseRedrivePolicy(value, queueName) {
    let policy;
    try {
      policy = typeof value === 'string' ? JSON.parse(value) : value;
    } catch {
      throw errors.invalidParameter(`Value ${value} for parameter RedrivePolicy is invalid. Reason: Redrive policy is not a valid JSON map.`);
    }
    const maxReceiveCount = Number(policy?.maxReceiveCount);
    if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1 || maxReceiveCount > MAX_RECEIVE_COUNT_LIMIT) {
      throw errors.invalidParameter(`Value ${value} for parameter RedrivePolicy is invalid. Reason: Invalid value for maxReceiveCount: ${policy?.maxReceiveCount}, valid values are from 1 to ${MAX_RECEIVE_COUNT_LIMIT} both inclusive.`);
    }
    const target = typeof policy.deadLetterTargetArn === 'string' ? policy.deadLetterTargetArn.split(':').pop() : undefined;
    if (!target || !this.queues.has(target) || target === queueName) {
      throw errors.invalidParameter(`Value ${value} for parameter RedrivePolicy is invalid. Reason: Dead letter target does not exist.`);
    }
    return { deadLetterTargetArn: policy.deadLetterTargetArn, maxReceiveCount };
  }

  listQueues(prefix = '') {
    return [...this.queues.keys()].filter((name) => name.startsWith(prefix)).sort();
  }

  /** The attributes GetQueueAttributes names (`All` for every one), as SQS returns them: strings. */
  attributes(name, names = ['All']) {
    const queue = this.queue(name);
    const now = Date.now();
    this.dropExpired(now, queue);
    let visible = 0;
    let notVisible = 0;
    let delayed = 0;
    for (const m of queue.messages.values()) {
      if (m.visibleAt <= now) visible++;
      else if (m.receiveCount > 0) notVisible++;
      else delayed++;
    }
    const { RedrivePolicy, ...settable } = queue.attributes;
    const all = {
      ...Object.fromEntries(Object.entries(settable).map(([k, v]) => [k, String(v)])),
      ...(RedrivePolicy ? { RedrivePolicy: JSON.stringify(RedrivePolicy) } : {}),
      QueueArn: this.arnOf(name),
      ApproximateNumberOfMessages: String(visible),
      ApproximateNumberOfMessagesNotVisible: String(notVisible),
      ApproximateNumberOfMessagesDelayed: String(delayed),
      CreatedTimestamp: String(Math.floor(queue.createdAt / 1000)),
      LastModifiedTimestamp: String(Math.floor(queue.modifiedAt / 1000)),
    };
    if (names.includes('All')) return all;
    const known = new Set([...Object.keys(NUMERIC_ATTRIBUTES), ...OPAQUE_ATTRIBUTES, ...COMPUTED_ATTRIBUTES, 'RedrivePolicy']);
    const out = {};
    for (const n of names) {
      if (!known.has(n)) throw errors.invalidAttributeName(n);
      if (n in all) out[n] = all[n];
    }
    return out;
  }

  /** Why `body` cannot be sent to the queue, or undefined. */
  bodyProblem(queue, body) {
    if (typeof body !== 'string' || body.length === 0) return errors.missingParameter('MessageBody');
    const bytes = Buffer.byteLength(body, 'utf8');
    const limit = queue.attributes.MaximumMessageSize;
    if (bytes > limit) return errors.invalidParameter(`One or more parameters are invalid. Reason: Message must be shorter than ${limit} bytes.`);
    if (INVALID_BODY_CHARACTER.test(body)) return errors.invalidMessageContents();
    return undefined;
  }

  /**
   * Sends messages (one journal write, synced, for the batch). `delaySeconds` undefined takes the queue's
   * DelaySeconds. Entries must have passed bodyProblem.
   */
  send(name, entries) {
    const queue = this.queue(name);
    const now = Date.now();
    const records = entries.map(({ body, delaySeconds, senderId }) => ({
      op: 'send',
      q: name,
      m: {
        id: randomUUID(),
        body,
        sentAt: now,
        senderId,
        visibleAt: now + 1000 * (delaySeconds ?? queue.attributes.DelaySeconds),
        receiveCount: 0,
        firstReceiveAt: null,
        receipt: null,
      },
    }));
    this.commit(records);
    return records.map((r) => ({ id: r.m.id, md5: md5Hex(r.m.body) }));
  }

  /**
   * Receives up to `max` visible messages, oldest first, each at most once: each becomes invisible for
   * `visibilityTimeout` seconds and counts one more receive. A message due for its (maxReceiveCount + 1)th
   * receive moves to the dead-letter queue instead, as SQS redrive does.
   */
  receive(name, { max, visibilityTimeout }) {
    const queue = this.queue(name);
    const now = Date.now();
    this.dropExpired(now, queue);
    const timeout = visibilityTimeout ?? queue.attributes.VisibilityTimeout;
    const policy = queue.attributes.RedrivePolicy;
    const dlq = policy ? this.queues.get(policy.deadLetterTargetArn.split(':').pop()) : undefined;
    const records = [];
    let taken = 0;
    for (const m of queue.messages.values()) {
      if (taken >= max) break;
      if (m.visibleAt > now) continue;
      if (dlq && m.receiveCount >= policy.maxReceiveCount) {
        records.push({ op: 'move', q: name, id: m.id, to: dlq.name, at: now });
        continue;
      }
      records.push({ op: 'receive', q: name, id: m.id, visibleAt: now + 1000 * timeout, receiveCount: m.receiveCount + 1, firstReceiveAt: m.firstReceiveAt ?? now, receipt: newReceipt() });
      taken++;
    }
    if (records.length) this.commit(records);
    return records
      .filter((r) => r.op === 'receive')
      .map((r) => {
        const m = queue.messages.get(r.id);
        return { ...m, md5: md5Hex(m.body), receiptHandle: encodeHandle(name, m.id, m.receipt) };
      });
  }

  /** The message a receipt handle names when it is its latest receive; undefined for a stale or finished one. */
  latestReceive(name, handle) {
    const { queueName, messageId, receipt } = decodeHandle(handle);
    if (queueName !== name) throw errors.receiptHandleIsInvalid(handle);
    const m = this.queue(name).messages.get(messageId);
    return m && m.receipt === receipt ? m : undefined;
  }

  /**
   * Deletes by receipt handle; one synced write for the batch. Each entry's outcome is an error or undefined.
   * As SQS documents, a handle that is not the message's latest receive succeeds without deleting it (the
   * message was received again since, and its new holder owns it); a deleted message's handle succeeds too.
   */
  delete(name, handles) {
    this.queue(name);
    const records = [];
    const outcomes = handles.map((handle) => {
      try {
        const m = this.latestReceive(name, handle);
        if (m && !records.some((r) => r.id === m.id)) records.push({ op: 'delete', q: name, id: m.id });
        return undefined;
      } catch (err) {
        return err;
      }
    });
    if (records.length) this.commit(records);
    return outcomes;
  }

  /** Sets when each received message reappears, counted from now; each entry's outcome is an error or undefined. */
  changeVisibility(name, entries) {
    this.queue(name);
    const now = Date.now();
    const records = [];
    const outcomes = entries.map(({ handle, seconds }) => {
      try {
        const m = this.latestReceive(name, handle);
        if (!m) throw errors.invalidParameter(`Value ${handle} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.`);
        if (m.visibleAt <= now) throw errors.messageNotInflight();
        records.push({ op: 'visibility', q: name, id: m.id, visibleAt: now + 1000 * seconds });
        return undefined;
      } catch (err) {
        return err;
      }
    });
    if (records.length) this.commit(records);
    return outcomes;
  }

  purge(name) {
    this.queue(name);
    this.commit([{ op: 'purge', q: name }]);
  }

  /** The next instant after `now` when a message of the queue becomes visible, or undefined. */
  nextVisibleAt(name, now = Date.now()) {
    let next;
    for (const m of this.queue(name).messages.values()) {
      if (m.visibleAt > now && (next === undefined || m.visibleAt < next)) next = m.visibleAt;
    }
    return next;
  }

  /** Calls `listener` whenever a message of the queue may have become visible; returns the unsubscribe. */
  subscribe(name, listener) {
    if (!this.listeners.has(name)) this.listeners.set(name, new Set());
    this.listeners.get(name).add(listener);
    return () => this.listeners.get(name)?.delete(listener);
  }

  /** Drops messages older than the queue's retention period (SQS deletes them unreceived). */
  dropExpired(now, only) {
    const records = [];
    for (const queue of only ? [only] : this.queues.values()) {
      const oldest = now - 1000 * queue.attributes.MessageRetentionPeriod;
      for (const m of queue.messages.values()) if (m.sentAt <= oldest) records.push({ op: 'delete', q: queue.name, id: m.id });
    }
    if (records.length) this.commit(records, { durable: false });
  }

  /** Writes the records (synced when they are DURABLE_OPS), then applies them and wakes the long polls. */
  commit(records, { durable = records.some((r) => DURABLE_OPS.has(r.op)) } = {}) {
    this.journal?.append(records, { durable });
    const woken = new Set();
    for (const record of records) {
      this.apply(record);
      if (record.op === 'send' || record.op === 'visibility' || record.op === 'queue') woken.add(record.q ?? record.name);
      if (record.op === 'move') woken.add(record.to);
    }
    for (const name of woken) for (const listener of this.listeners.get(name) ?? []) listener();
    if (this.journal && this.journal.appended > Math.max(COMPACT_MIN_RECORDS, 4 * this.liveMessages())) this.compact();
  }

  /** Applies one record to memory; replay uses it too, so a record naming a vanished message is ignored. */
  apply(record) {
    if (record.op === 'queue') {
      const existing = this.queues.get(record.name);
      const { name, attributes, createdAt, modifiedAt } = record;
      this.queues.set(name, { name, attributes: { ...defaultAttributes(), ...attributes }, createdAt, modifiedAt, messages: existing?.messages ?? new Map() });
      return;
    }
    const queue = this.queues.get(record.q);
    if (!queue) return;
    const m = queue.messages.get(record.id);
    switch (record.op) {
      case 'send':
        queue.messages.set(record.m.id, { ...record.m });
        break;
      case 'receive':
        if (m) Object.assign(m, { visibleAt: record.visibleAt, receiveCount: record.receiveCount, firstReceiveAt: record.firstReceiveAt, receipt: record.receipt });
        break;
      case 'visibility':
        if (m) m.visibleAt = record.visibleAt;
        break;
      case 'delete':
        queue.messages.delete(record.id);
        break;
      case 'purge':
        queue.messages.clear();
        break;
      case 'move': {
        const target = this.queues.get(record.to);
        if (!m || !target) break;
        queue.messages.delete(record.id);
        // Id, body, sent time and receive count go with it; a DLQ consumer receives it afresh.
        target.messages.set(m.id, { ...m, visibleAt: record.at, receipt: null });
        break;
      }
      default:
        throw new Error(`unknown journal record ${JSON.stringify(record)}`);
    }
  }

  liveMessages() {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.messages.size;
    return n;
  }

  /** Rewrites the journal as the live state: each queue, then each message as a 'send' of its current state. */
  compact() {
    const queues = [...this.queues.values()];
    this.journal.rewrite(
      (function* () {
        for (const { name, attributes, createdAt, modifiedAt } of queues) yield { op: 'queue', name, attributes, createdAt, modifiedAt };
        for (const queue of queues) for (const m of queue.messages.values()) yield { op: 'send', q: queue.name, m };
      })(),
    );
  }

  close() {
    this.journal?.close();
    this.journal = undefined;
  }
}

function defaultAttributes() {
  return Object.fromEntries(Object.entries(NUMERIC_ATTRIBUTES).map(([k, v]) => [k, v.default]));
}
