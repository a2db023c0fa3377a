/** Success bodies of policy, regulatory updates and project economics (SPEC 4.1). */
import * as z from 'zod';
import { SENSITIVITY_STEPS } from '../../domain/economics';
import { date, success, timestamp } from './common';

export const PolicyComplianceResponse = z
  .looseObject({
    answer: z.string(),
    sources: z.array(z.string()),
    compliance_checklist: z.array(z.looseObject({ requirement: z.string(), status: z.string(), deadline: z.string(), responsible_party: z.string() })),
    financial_incentives: z.array(z.looseObject({ program: z.string(), benefit: z.string(), eligibility: z.string() })),
    next_steps: z.array(z.string()),
    tier_info: z.looseObject({ tier: z.string(), queries_used: z.number().int(), queries_remaining: z.number().int() }),
    matched: z.boolean().optional().meta({ description: 'Whether the knowledge base covers the question and region.' }),
    notes: z.array(z.string()).optional(),
    covered_regions: z.array(z.string()).optional().meta({ description: 'With matched: false for a region outside the knowledge base: the regions it covers.' }),
  })
  .meta({ id: 'PolicyComplianceResponse' });

export const RegulatoryUpdatesResponse = z
  .looseObject({
    updates: z.array(
      z.looseObject({
        id: z.string(),
        title: z.string(),
        summary: z.string(),
        impact_assessment: z.string(),
        priority: z.string(),
        source: z.string(),
        effective_date: date(),
        document_url: z.url(),
        published_at: timestamp().nullable().optional(),
      }),
    ),
    count: z.number().int().optional(),
    has_more: z.boolean().optional(),
  })
  .meta({ id: 'RegulatoryUpdatesResponse' });

const SensitivityPoint = z.looseObject({ npv: z.number(), irr: z.number().nullable() });
const SensitivityTable = z
  .looseObject(Object.fromEntries(Object.keys(SENSITIVITY_STEPS).map((label) => [label, SensitivityPoint])))
  .meta({ description: 'Each percentage-change label to the npv and irr there.' });

/**
 * SPEC 4.1 POST /api/project-economics. Money to 2 decimals, rates and ratios to 4, years to 2, lcoe to 4
 * (shared/domain/economics/precision.ts); irr, paybacks and lcoe are null where they do not exist.
 */
export const ProjectEconomicsResponse = success({
  financial_metrics: z.looseObject({
    npv: z.number(),
    irr: z.number().nullable(),
    irr_note: z.string().optional(),
    payback_period: z.number().nullable(),
    discounted_payback_period: z.number().nullable(),
    lcoe: z.number().nullable(),
    lcoe_note: z.string().optional(),
    roi: z.number(),
  }),
  cash_flow_projection: z.array(
    z.looseObject({
      year: z.number().int(),
      revenue: z.number(),
      expenses: z.number(),
      depreciation_tax_shield: z.number(),
      tax_credit: z.number(),
      cash_flow: z.number(),
      cumulative: z.number(),
      discounted_cash_flow: z.number(),
    }),
  ),
  sensitivity_analysis: z.looseObject({ revenue_sensitivity: SensitivityTable, capital_cost_sensitivity: SensitivityTable }),
  investment_recommendation: z.string(),
  assumptions: z.looseObject({ tax_rate: z.number(), depreciation_schedule: z.string(), net_investment: z.number(), defaults_applied: z.array(z.string()) }),
}).meta({ id: 'ProjectEconomicsResponse' });
export type ProjectEconomicsResponse = z.infer<typeof ProjectEconomicsResponse>;
