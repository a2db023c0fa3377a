import { apiHandler } from '../shared/http/api-handler';
import { TrainingRequest } from '../shared/schemas/training';
import { startTraining } from '../shared/services/training';

export const handler = apiHandler('train', { body: TrainingRequest }, ({ caller, body }) => startTraining(caller, body));
