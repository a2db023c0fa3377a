/** Consumes the detections queue: a nowcast arrived for a site with assets (shared/pipelines.ts). */
import { sqsBatchHandler } from '../../shared/events/sqs-batch';
import { SiteEvent } from '../../shared/schemas/queue-messages';
import { detectOnNowcast } from '../../shared/services/operations/observe-orient';

export const handler = sqsBatchHandler('detections', SiteEvent, detectOnNowcast);
