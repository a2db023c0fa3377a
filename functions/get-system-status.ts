import { serve } from '../shared/http/api-handler';
import { systemStatus } from '../shared/services/system-status';

export const handler = serve('get-system-status', { 'system-status': () => systemStatus() });
