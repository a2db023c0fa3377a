/**
 * The messages on the work queues of shared/pipelines.ts, as each consumer checks them before it acts
 * (shared/events/sqs-batch.ts). The webhooks queue's messages are in ./webhooks.ts.
 */
import * as z from 'zod';
import { QueuedDomainEvent } from './webhooks';

/** A message on the batches queue (shared/services/batch/batch.ts). */
export const BatchMessage = z.object({ account_id: z.string().min(1), batch_id: z.string().min(1) });
export type BatchMessage = z.infer<typeof BatchMessage>;

/** A message on the training queue: a job someone asked for, or automatic training of a site whose history grew. */
export const TrainingMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('requested'), job_id: z.string().min(1) }),
  z.object({ type: z.literal('automatic'), account_id: z.string().min(1), customer_id: z.string().min(1), site_id: z.string().min(1), requested_at: z.string().min(1) }),
]);
export type TrainingMessage = z.infer<typeof TrainingMessage>;

/**
 * A domain event about one site (`data.ingested`, `detection.requested`), as its rule puts it on the
 * pv-models and detections queues. The account may be empty: a file dropped in with no owner is ingested too.
 */
export const SiteEvent = QueuedDomainEvent.extend({
  account_id: z.string(),
  data: z.looseObject({ customer_id: z.string().min(1), site_id: z.string().min(1) }),
});
export type SiteEvent = z.infer<typeof SiteEvent>;
