import { serve } from '../shared/http/api-handler';
import { TRAINING_ROUTES } from '../shared/routes/training';
import { trainingStatus } from '../shared/services/training/training';

export const handler = serve(TRAINING_ROUTES, 'get-training-status', { 'training-status': ({ caller, path }) => trainingStatus(caller, path.job_id) });
