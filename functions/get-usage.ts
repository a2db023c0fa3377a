import { apiHandler } from '../shared/http/api-handler';
import { usageOf } from '../shared/services/accounts';

export const handler = apiHandler('usage', {}, ({ caller }) => usageOf(caller));
