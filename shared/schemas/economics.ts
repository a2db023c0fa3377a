/** POST /api/project-economics (SPEC 4.1; ARCHITECTURE 9, "Project economics inputs"). Types here, ranges and agreement in the domain. */
import * as z from 'zod';
import { DEPRECIATION_SCHEDULES, MAX_PROJECT_LIFETIME } from '../domain/economics';
import { MAX_AMOUNT } from '../domain/physical-bounds';
import { energyKwh } from './bounds';

/** Money, within MAX_AMOUNT either way (ARCHITECTURE 9: numbers with physical meaning are bounded). */
const amount = z.number().min(-MAX_AMOUNT).max(MAX_AMOUNT);
const fraction = z.number().min(0).max(1);

export const ProjectEconomicsRequest = z
  .object({
    project_config: z.object({
      capital_cost: amount.positive(),
      annual_revenue: amount.min(0).optional(),
      annual_expenses: amount.min(0).default(0),
      project_lifetime: z.number().int().min(1).max(MAX_PROJECT_LIFETIME),
      discount_rate: z.number().gt(-1).max(1),
      degradation_rate: fraction.default(0),
      /** Not in the spec: year-1 energy (kWh), which LCOE needs. */
      annual_energy_kwh: energyKwh().positive().optional(),
      /** Not in the spec: the rate of the depreciation tax shield (default 0.21). */
      tax_rate: fraction.optional(),
      /** Not in the spec: yearly growth of expenses (default 0). */
      expense_escalation: z.number().gt(-1).max(1).optional(),
    }),
    revenue_streams: z
      .object({ energy_sales: amount.min(0).optional(), capacity_payments: amount.min(0).optional(), ancillary_services: amount.min(0).optional(), carbon_credits: amount.min(0).optional() })
      .optional(),
    incentives: z.object({ tax_credit: fraction.optional(), depreciation_schedule: z.enum(DEPRECIATION_SCHEDULES).default('none'), grant_funding: amount.min(0).optional() }).optional(),
  })
  .refine((b) => b.project_config.annual_revenue !== undefined || b.revenue_streams !== undefined, {
    message: 'is required unless revenue_streams is given',
    path: ['project_config', 'annual_revenue'],
  });
export type ProjectEconomicsRequest = z.infer<typeof ProjectEconomicsRequest>;
