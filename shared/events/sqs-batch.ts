/**
 * The one SQS batch loop of every queue consumer (shared/pipelines.ts): each record's body is parsed as JSON,
 * checked against the queue's message schema and handled. A record that fails any of the three is logged
 * with its message id and reported in `batchItemFailures`, so SQS sends only that record again and parks it
 * in the DLQ after the queue's maxReceiveCount (Lambda's ReportBatchItemFailures; the local queue poller
 * honours the same response).
 *
 * Our own small module rather than Powertools' batch utility: that one needs two more packages
 * (@aws-lambda-powertools/commons, @aws/lambda-invoke-store) for the ~40 lines here, and throws
 * FullBatchFailureError when every record fails, where our workers return the failures as before.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { log } from '../logger';

/** A message body that is not JSON or not the queue's message: retrying will not change it, SQS parks it in the end. */
export class MalformedMessage extends Error {
  name = 'MalformedMessage';
}

export interface SqsBatchOptions {
  /** Handle a batch's records at once rather than one after another (default false). */
  concurrent?: boolean;
}

/** The record's body as the schema's output; throws MalformedMessage naming each problem. */
export function parseMessage<S extends z.ZodType>(schema: S, record: Pick<SQSRecord, 'body'>): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(record.body);
  } catch (err) {
    throw new MalformedMessage(`not JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new MalformedMessage(parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(body)'} ${i.message}`).join('; '));
  return parsed.data;
}

/** Which delivery of its message a record is: SQS counts each receive, the first is 1. */
export const receiveCount = (record: SQSRecord): number => Number(record.attributes.ApproximateReceiveCount ?? 1);

/**
 * An SQS handler that runs `handle` on each record's validated message; `queue` (its id in shared/pipelines.ts)
 * names the queue in the failure log line. The record is passed too, for its receive count.
 */
export function sqsBatchHandler<S extends z.ZodType>(
  queue: string,
  schema: S,
  handle: (message: z.output<S>, record: SQSRecord) => Promise<void>,
  options: SqsBatchOptions = {},
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  const run = async (record: SQSRecord): Promise<boolean> => {
    try {
      await handle(parseMessage(schema, record), record);
      return true;
    } catch (err) {
      log.error('queue message failed', { queue, message_id: record.messageId, err });
      return false;
    }
  };
  return async (event) => {
    let handled: boolean[];
    if (options.concurrent) handled = await Promise.all(event.Records.map(run));
    else {
      handled = [];
      for (const record of event.Records) handled.push(await run(record));
    }
    return { batchItemFailures: event.Records.filter((_, i) => !handled[i]).map((r) => ({ itemIdentifier: r.messageId })) };
  };
}
