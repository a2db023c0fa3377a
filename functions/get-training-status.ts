import { serve } from '../shared/http/api-handler';
import { trainingStatus } from '../shared/services/training';

export const handler = serve('get-training-status', { 'training-status': ({ caller, path }) => trainingStatus(caller, path.job_id) });
