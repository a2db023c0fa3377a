/** The route rows of policy and economics (shared/routes/index.ts: the table and what a row holds). */
import { platform } from './route';
import { ProjectEconomicsRequest } from '../schemas/economics';
import { PolicyComplianceRequest } from '../schemas/policy';
import { RegulatoryUpdatesQuery } from '../schemas/regulatory';
import { PolicyComplianceResponse, ProjectEconomicsResponse, RegulatoryUpdatesResponse } from '../schemas/responses/policy';

export const POLICY_ROUTES = [
  platform({ id: 'policy-compliance', method: 'POST', path: '/api/policy-compliance', handler: 'policy-compliance', body: 'json', summary: 'Policy and compliance question answering', request: { body: PolicyComplianceRequest }, response: PolicyComplianceResponse, quota: 'policy_queries' }),
  platform({ id: 'policy-compliance-freemium', method: 'POST', path: '/api/policy-compliance-freemium', handler: 'policy-compliance', auth: 'none', body: 'json', summary: 'Policy question answering without a key', request: { body: PolicyComplianceRequest }, response: PolicyComplianceResponse }),
  platform({ id: 'regulatory-updates', method: 'GET', path: '/api/regulatory-updates', handler: 'get-regulatory-updates', body: 'none', summary: 'Regulatory updates', request: { query: RegulatoryUpdatesQuery }, response: RegulatoryUpdatesResponse }),
  platform({ id: 'project-economics', method: 'POST', path: '/api/project-economics', handler: 'project-economics', body: 'json', summary: 'Project economics (NPV, IRR, payback, LCOE, ROI)', request: { body: ProjectEconomicsRequest }, response: ProjectEconomicsResponse }),
] as const;
