import { apiHandler } from '../shared/http/api-handler';
import { marketplace } from '../shared/services/model-registry';

export const handler = apiHandler('models-marketplace', {}, () => marketplace());
