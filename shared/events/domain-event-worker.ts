/** An SQS worker over domain events (shared/pipelines.ts rules): each record is one event; failures are reported per record, so SQS retries only those. */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DomainEvent } from './event-bus';

export function domainEventWorker<T>(run: (event: DomainEvent<T>) => Promise<void>): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        await run(JSON.parse(record.body) as DomainEvent<T>);
      } catch {
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}
