import { serve } from '../shared/http/api-handler';
import { interpolate } from '../shared/services/interpolation';

export const handler = serve('interpolate', { interpolate: ({ caller, body }) => interpolate(caller, body) });
