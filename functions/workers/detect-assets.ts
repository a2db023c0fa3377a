/** Consumes the detections queue: a nowcast arrived for a site with assets (shared/pipelines.ts). */
import { domainEventWorker } from '../../shared/events/domain-event-worker';
import { detectOnNowcast } from '../../shared/services/observe-orient';

export const handler = domainEventWorker(detectOnNowcast);
