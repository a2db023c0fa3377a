/** Consumes the detections queue: a nowcast arrived for a site with assets (shared/pipelines.ts). */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DomainEvent } from '../../shared/events/event-bus';
import { detectOnNowcast } from '../../shared/services/observe-orient';

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      await detectOnNowcast(JSON.parse(record.body) as DomainEvent<{ customer_id: string; site_id: string }>);
    } catch {
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
