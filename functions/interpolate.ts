import { serve } from '../shared/http/api-handler';
import { INTERPOLATION_ROUTES } from '../shared/routes/interpolation';
import { interpolate } from '../shared/services/interpolation/interpolation';

export const handler = serve(INTERPOLATION_ROUTES, 'interpolate', { interpolate: ({ caller, body }) => interpolate(caller, body) });
