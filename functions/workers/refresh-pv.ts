/** Consumes the pv-models queue: new data arrived for a site, so its inferred PV specs and tuning are refreshed (shared/pipelines.ts). */
import { domainEventWorker } from '../../shared/events/domain-event-worker';
import { refreshSitePv } from '../../shared/services/pv-sites';

export const handler = domainEventWorker(refreshSitePv);
