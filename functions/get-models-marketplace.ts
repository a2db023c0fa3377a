import { serve } from '../shared/http/api-handler';
import { TRAINING_ROUTES } from '../shared/routes/training';
import { marketplace } from '../shared/services/training/model-registry';

export const handler = serve(TRAINING_ROUTES, 'get-models-marketplace', { 'models-marketplace': () => marketplace() });
