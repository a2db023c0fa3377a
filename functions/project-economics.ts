import { serve } from '../shared/http/api-handler';
import { evaluateProject } from '../shared/services/economics';

export const handler = serve('project-economics', { 'project-economics': async ({ body }) => evaluateProject(body) });
