import { apiHandler } from '../shared/http/api-handler';
import { TrainingStatusPath } from '../shared/schemas/training';
import { trainingStatus } from '../shared/services/training';

export const handler = apiHandler('training-status', { path: TrainingStatusPath }, ({ caller, path }) => trainingStatus(caller, path.job_id));
