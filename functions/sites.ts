/** PUT /api/sites/{site_id} and GET /api/sites/{site_id} (ARCHITECTURE 9: PV system specs). */
import { apiHandler, byRoute } from '../shared/http/api-handler';
import { PutSiteRequest, SitePath, SiteQuery } from '../shared/schemas/pv';
import { putSite, siteView } from '../shared/services/pv-sites';

export const handler = byRoute({
  'site-put': apiHandler('site-put', { body: PutSiteRequest, path: SitePath }, ({ caller, body, path }) => putSite(caller, path.site_id, body)),
  'site-get': apiHandler('site-get', { query: SiteQuery, path: SitePath }, ({ caller, query, path }) => siteView(caller, query.customer_id, path.site_id)),
});
