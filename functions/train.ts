import { serve } from '../shared/http/api-handler';
import { TRAINING_ROUTES } from '../shared/routes/training';
import { startTraining } from '../shared/services/training/training';

export const handler = serve(TRAINING_ROUTES, 'train', { train: ({ caller, body }) => startTraining(caller, body) });
