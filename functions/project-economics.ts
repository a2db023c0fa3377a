import { serve } from '../shared/http/api-handler';
import { POLICY_ROUTES } from '../shared/routes/policy';
import { evaluateProject } from '../shared/services/economics/economics';

export const handler = serve(POLICY_ROUTES, 'project-economics', { 'project-economics': async ({ body }) => evaluateProject(body) });
