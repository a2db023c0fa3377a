import { serve } from '../shared/http/api-handler';
import { POLICY_ROUTES } from '../shared/routes/policy';
import { answerPolicy, answerPolicyFreemium } from '../shared/services/policy/policy';

// SPEC 4.1: the same answer with a key (monthly quota) and without one (a daily allowance per client address).
export const handler = serve(POLICY_ROUTES, 'policy-compliance', {
  'policy-compliance': ({ caller, body }) => answerPolicy(caller, body),
  'policy-compliance-freemium': ({ sourceIp, body }) => answerPolicyFreemium(sourceIp, body),
});
