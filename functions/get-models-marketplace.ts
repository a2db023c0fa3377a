import { serve } from '../shared/http/api-handler';
import { marketplace } from '../shared/services/model-registry';

export const handler = serve('get-models-marketplace', { 'models-marketplace': () => marketplace() });
