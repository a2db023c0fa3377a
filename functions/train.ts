import { serve } from '../shared/http/api-handler';
import { startTraining } from '../shared/services/training';

export const handler = serve('train', { train: ({ caller, body }) => startTraining(caller, body) });
