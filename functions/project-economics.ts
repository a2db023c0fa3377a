import { apiHandler } from '../shared/http/api-handler';
import { ProjectEconomicsRequest } from '../shared/schemas/economics';
import { evaluateProject } from '../shared/services/economics';

export const handler = apiHandler('project-economics', { body: ProjectEconomicsRequest }, async ({ body }) => evaluateProject(body));
