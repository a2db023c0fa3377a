/** The one SQS batch loop of the workers: each record parsed, validated and handled; every failure logged with its message id and reported. */
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { MalformedMessage, parseMessage, receiveCount, sqsBatchHandler } from '../../../shared/events/sqs-batch';
import { SiteEvent, TrainingMessage } from '../../../shared/schemas/queue-messages';
import { captureLogLines } from '../../helpers/log-lines';

const Message = z.object({ n: z.number().int() });

const record = (messageId: string, body: string, receives = '1'): SQSRecord =>
  ({ messageId, body, attributes: { ApproximateReceiveCount: receives } }) as unknown as SQSRecord;
const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

describe('sqsBatchHandler', () => {
  const logged = captureLogLines('stderr', 'error');
  const failures = () => logged().map((line) => JSON.parse(line) as { msg: string; queue: string; message_id: string; err: { name: string; message: string } });

  it('hands each valid message to the handler, with its record, and reports no failure', async () => {
    // Prepare
    const seen: [number, number][] = [];
    const handler = sqsBatchHandler('jobs', Message, async (m, r) => void seen.push([m.n, receiveCount(r)]));

    // Act
    const result = await handler(batch(record('a', '{"n":1}'), record('b', '{"n":2}', '3')));

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual([[1, 1], [2, 3]]);
    expect(logged()).toEqual([]);
  });

  it('reports a body that is not JSON, logged with its message id, without calling the handler', async () => {
    const handle = jest.fn(async () => {});
    const result = await sqsBatchHandler('jobs', Message, handle)(batch(record('m-1', 'not json')));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect(handle).not.toHaveBeenCalled();
    expect(failures()).toEqual([expect.objectContaining({ msg: 'queue message failed', queue: 'jobs', message_id: 'm-1', err: expect.objectContaining({ name: 'MalformedMessage', message: expect.stringMatching(/^not JSON: /) }) })]);
  });

  it('reports a message its schema rejects, naming the field', async () => {
    const handle = jest.fn(async () => {});
    const result = await sqsBatchHandler('jobs', Message, handle)(batch(record('m-2', '{"n":"one"}')));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm-2' }]);
    expect(handle).not.toHaveBeenCalled();
    expect(failures()[0]).toMatchObject({ message_id: 'm-2', err: { name: 'MalformedMessage', message: expect.stringMatching(/^n /) } });
  });

  it('reports a message whose handler throws, with the error logged', async () => {
    const result = await sqsBatchHandler('jobs', Message, async () => {
      throw new Error('store down');
    })(batch(record('m-3', '{"n":3}')));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm-3' }]);
    expect(failures()).toEqual([expect.objectContaining({ queue: 'jobs', message_id: 'm-3', err: expect.objectContaining({ message: 'store down' }) })]);
  });

  it.each([false, true])('reports only the failed records of a mixed batch, in the batch order (concurrent: %s)', async (concurrent) => {
    // Prepare: valid, not JSON, valid but the handler fails on it, schema failure, valid
    const handled: number[] = [];
    const handler = sqsBatchHandler(
      'jobs',
      Message,
      async ({ n }) => {
        if (n === 13) throw new Error('unlucky');
        handled.push(n);
      },
      { concurrent },
    );
    const event = batch(record('a', '{"n":1}'), record('b', '{'), record('c', '{"n":13}'), record('d', '{}'), record('e', '{"n":5}'));

    // Act
    const result = await handler(event);

    // Assess
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'b' }, { itemIdentifier: 'c' }, { itemIdentifier: 'd' }]);
    expect(handled).toEqual([1, 5]);
    expect(failures().map((f) => f.message_id).sort()).toEqual(['b', 'c', 'd']);
  });

  it('runs records one after another unless asked to run them at once', async () => {
    let running = 0;
    let most = 0;
    const handle = async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    };
    const event = batch(record('a', '{"n":1}'), record('b', '{"n":2}'), record('c', '{"n":3}'));
    await sqsBatchHandler('jobs', Message, handle)(event);
    expect(most).toBe(1);
    await sqsBatchHandler('jobs', Message, handle, { concurrent: true })(event);
    expect(most).toBe(3);
  });
});

describe('parseMessage', () => {
  it('returns the schema\'s output', () => {
    expect(parseMessage(z.object({ at: z.coerce.number() }), { body: '{"at":"7","extra":1}' })).toEqual({ at: 7 });
  });

  it('names the body itself when it is the wrong type', () => {
    expect(() => parseMessage(Message, { body: '[1]' })).toThrow(MalformedMessage);
    expect(() => parseMessage(Message, { body: '[1]' })).toThrow(/^\(body\) /);
  });
});

describe('queue messages', () => {
  it('takes a site event with an empty account (a file dropped in with no owner is ingested too)', () => {
    const event = { id: 'e1', type: 'data.ingested', created_at: '2026-01-01T00:00:00Z', account_id: '', data: { customer_id: 'c', site_id: 's', rows: 3 } };
    expect(parseMessage(SiteEvent, { body: JSON.stringify(event) })).toEqual(event);
    expect(() => parseMessage(SiteEvent, { body: JSON.stringify({ ...event, data: { customer_id: 'c' } }) })).toThrow(/^data\.site_id /);
  });

  it('tells the two kinds of training message apart', () => {
    expect(parseMessage(TrainingMessage, { body: '{"type":"requested","job_id":"j1"}' })).toEqual({ type: 'requested', job_id: 'j1' });
    expect(() => parseMessage(TrainingMessage, { body: '{"type":"automatic","job_id":"j1"}' })).toThrow(MalformedMessage);
  });
});
