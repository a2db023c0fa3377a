import { apiHandler } from '../shared/http/api-handler';
import { InterpolationRequest } from '../shared/schemas/interpolation';
import { interpolate } from '../shared/services/interpolation';

export const handler = apiHandler('interpolate', { body: InterpolationRequest }, ({ caller, body }) => interpolate(caller, body));
