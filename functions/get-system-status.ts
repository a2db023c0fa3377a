import { serve } from '../shared/http/api-handler';
import { FOUNDATION_ROUTES } from '../shared/routes/foundation';
import { systemStatus } from '../shared/services/platform/system-status';

export const handler = serve(FOUNDATION_ROUTES, 'get-system-status', { 'system-status': () => systemStatus() });
