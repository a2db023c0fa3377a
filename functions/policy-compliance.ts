import { byRoute, apiHandler, publicHandler } from '../shared/http/api-handler';
import { PolicyComplianceRequest } from '../shared/schemas/policy';
import { answerPolicy, answerPolicyFreemium } from '../shared/services/policy';

// SPEC 4.1: the same answer with a key (monthly quota) and without one (a daily allowance per client address).
export const handler = byRoute({
  'policy-compliance': apiHandler('policy-compliance', { body: PolicyComplianceRequest }, ({ caller, body }) => answerPolicy(caller, body)),
  'policy-compliance-freemium': publicHandler('policy-compliance-freemium', { body: PolicyComplianceRequest }, ({ sourceIp, body }) => answerPolicyFreemium(sourceIp, body)),
});
