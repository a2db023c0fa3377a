/** PUT and GET /api/sites/{site_id} (ARCHITECTURE 9: PV system specs), GET /api/sites/{site_id}/series (its stored series). */
import { serve } from '../shared/http/api-handler';
import { INGESTION_ROUTES } from '../shared/routes/ingestion';
import { putSite, siteView } from '../shared/services/pv/pv-sites';
import { siteSeries } from '../shared/services/uploads/site-series';

export const handler = serve(INGESTION_ROUTES, 'sites', {
  'site-put': ({ caller, body, path }) => putSite(caller, path.site_id, body),
  'site-get': ({ caller, query, path }) => siteView(caller, query.customer_id, path.site_id),
  'site-series': ({ caller, query, path }) => siteSeries(caller, query.customer_id, path.site_id, query),
});
