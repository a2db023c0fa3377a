import { serve } from '../shared/http/api-handler';
import { DISPATCH_ROUTES } from '../shared/routes/dispatch';
import { sizeBatteryForSite } from '../shared/services/dispatch/battery-sizing';

export const handler = serve(DISPATCH_ROUTES, 'battery-sizing', { 'battery-sizing': ({ body }) => sizeBatteryForSite(body) });
