/** Consumes the pv-models queue: new data arrived for a site, so its inferred PV specs and tuning are refreshed (shared/pipelines.ts). */
import { sqsBatchHandler } from '../../shared/events/sqs-batch';
import { SiteEvent } from '../../shared/schemas/queue-messages';
import { refreshSitePv } from '../../shared/services/pv/pv-sites';

export const handler = sqsBatchHandler('pv-models', SiteEvent, refreshSitePv);
