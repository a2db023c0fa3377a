/** PUT /api/sites/{site_id} and GET /api/sites/{site_id} (ARCHITECTURE 9: PV system specs). */
import { serve } from '../shared/http/api-handler';
import { INGESTION_ROUTES } from '../shared/routes/ingestion';
import { putSite, siteView } from '../shared/services/pv/pv-sites';

export const handler = serve(INGESTION_ROUTES, 'sites', {
  'site-put': ({ caller, body, path }) => putSite(caller, path.site_id, body),
  'site-get': ({ caller, query, path }) => siteView(caller, query.customer_id, path.site_id),
});
