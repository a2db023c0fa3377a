import { apiHandler } from '../shared/http/api-handler';
import { systemStatus } from '../shared/services/system-status';

export const handler = apiHandler('system-status', {}, () => systemStatus());
