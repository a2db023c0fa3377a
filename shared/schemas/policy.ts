/** POST /api/policy-compliance and /api/policy-compliance-freemium (SPEC 4.1). */
import * as z from 'zod';
import { DETAIL_LEVELS } from '../domain/policy/types';

const text = z.string().trim().max(200);

export const PolicyComplianceRequest = z.object({
  query: z.string().trim().min(1).max(2000),
  context: z.object({ region: text.optional(), sector: text.optional(), project_size: z.union([text, z.number().positive()]).optional(), installation_type: text.optional() }).default({}),
  response_options: z
    .object({
      include_citations: z.boolean().default(true),
      include_compliance_checklist: z.boolean().default(true),
      include_financial_incentives: z.boolean().default(true),
      detail_level: z.enum(DETAIL_LEVELS).default('standard'),
    })
    .default({ include_citations: true, include_compliance_checklist: true, include_financial_incentives: true, detail_level: 'standard' }),
});
export type PolicyComplianceRequest = z.infer<typeof PolicyComplianceRequest>;
