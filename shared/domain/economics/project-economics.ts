/**
 * Project economics (SPEC 4.1 POST /api/project-economics; ARCHITECTURE 7, 9): NPV, IRR, simple and
 * discounted payback, LCOE, ROI, the yearly cash flows, a sensitivity table and a recommendation, from
 * end-of-year cash flows that every row of the projection lets a reader recompute by hand. Pure.
 */
import { projectCashFlows, type CashFlowRow } from './cash-flows';
import type { DepreciationSchedule } from './depreciation';
import { netPresentValue } from './discounting';
import { resolveEconomicsInput, type EconomicsInput } from './input';
import { internalRateOfReturn } from './irr';
import { levelizedCostOfEnergy } from './lcoe';
import { paybackPeriod } from './payback';
import { investmentRecommendation } from './recommendation';
import { sensitivityAnalysis, type SensitivityAnalysis } from './sensitivity';

// Object types rather than interfaces: the service's answer is typed by its zod response schema
// (shared/schemas/responses/policy.ts), whose loose objects carry an index signature that interfaces lack.
export type FinancialMetrics = {
  /** Net present value at the discount rate, year 0 included undiscounted; currency. */
  npv: number;
  /** Fraction, or null when no IRR exists (see irr_note). */
  irr: number | null;
  /** Why irr is null, or which of several IRRs is reported; absent otherwise. */
  irr_note?: string;
  /** Years, interpolated within the year; null when never paid back within the lifetime. */
  payback_period: number | null;
  /** The same on discounted cash flows. */
  discounted_payback_period: number | null;
  /** Currency per kWh; null without annual_energy_kwh (see lcoe_note). */
  lcoe: number | null;
  lcoe_note?: string;
  /** (Sum of all undiscounted cash flows, year 0 included) / (capital cost - grant); a fraction. */
  roi: number;
};

/** What the figures rest on: the defaults taken and the conventions, so each figure can be reproduced. */
export type EconomicsAssumptions = {
  tax_rate: number;
  tax_rate_source: string;
  tax_treatment: string;
  tax_credit_amount: number;
  depreciation_schedule: DepreciationSchedule;
  depreciable_basis: number;
  depreciable_basis_rule: string;
  depreciation_convention: string;
  net_investment: number;
  year1_revenue: number;
  year1_energy_revenue: number;
  degradation_rate: number;
  degradation_applies_to: string;
  expense_escalation: number;
  cash_flow_timing: string;
  /** The optional input fields that took their default, by dotted path. */
  defaults_applied: string[];
};

export type EconomicsResult = {
  financial_metrics: FinancialMetrics;
  /** Years 0..project_lifetime. */
  cash_flow_projection: CashFlowRow[];
  sensitivity_analysis: SensitivityAnalysis;
  investment_recommendation: string;
  assumptions: EconomicsAssumptions;
};

const DEPRECIATION_CONVENTIONS: Record<DepreciationSchedule, string> = {
  none: 'no depreciation deducted',
  straight_line: 'basis spread evenly over the project lifetime, no half-year convention',
  macrs_5: 'MACRS 5-year, half-year convention, IRS Publication 946 Table A-1; any rest beyond the lifetime deducted in the final year',
  macrs_7: 'MACRS 7-year, half-year convention, IRS Publication 946 Table A-1; any rest beyond the lifetime deducted in the final year',
};

/**
 * Evaluates a project.
 * @throws EconomicsInputError when a value is out of range or annual_revenue and revenue_streams disagree.
 */
export function projectEconomics(input: EconomicsInput): EconomicsResult {
  const project = resolveEconomicsInput(input);
  const rows = projectCashFlows(project);
  const flows = rows.map((row) => row.cash_flow);
  const netInvestment = project.capitalCost - project.grantFunding;

  const npv = netPresentValue(flows, project.discountRate);
  const irr = internalRateOfReturn(flows, project.discountRate);
  const lcoe = levelizedCostOfEnergy(project, rows);
  const payback = paybackPeriod(flows);
  const sensitivity = sensitivityAnalysis(project);

  const financial_metrics: FinancialMetrics = {
    npv,
    irr: irr.irr,
    ...(irr.note === undefined ? {} : { irr_note: irr.note }),
    payback_period: payback,
    discounted_payback_period: paybackPeriod(rows.map((row) => row.discounted_cash_flow)),
    lcoe: lcoe.lcoe,
    ...(lcoe.note === undefined ? {} : { lcoe_note: lcoe.note }),
    roi: rows[rows.length - 1].cumulative / netInvestment,
  };

  const taxRateDefaulted = project.defaultsApplied.includes('project_config.tax_rate');
  return {
    financial_metrics,
    cash_flow_projection: rows,
    sensitivity_analysis: sensitivity,
    investment_recommendation: investmentRecommendation({
      npv,
      irr: irr.irr,
      irrNote: irr.note,
      irrCount: irr.rates.length,
      discountRate: project.discountRate,
      paybackPeriod: payback,
      lifetime: project.lifetime,
      sensitivity,
    }),
    assumptions: {
      tax_rate: project.taxRate,
      tax_rate_source: taxRateDefaulted ? 'default: US federal corporate income tax rate, 26 U.S.C. 11(b)' : 'input',
      tax_treatment:
        'pre-tax cash flows plus tax benefits: the tax credit in year 1 and the depreciation tax shield (tax_rate x deduction); no income tax on operating profit',
      tax_credit_amount: project.taxCreditAmount,
      depreciation_schedule: project.depreciationSchedule,
      depreciable_basis: project.depreciableBasis,
      depreciable_basis_rule: 'capital cost less half the tax credit (26 U.S.C. 50(c)(3)); the grant is not deducted',
      depreciation_convention: DEPRECIATION_CONVENTIONS[project.depreciationSchedule],
      net_investment: netInvestment,
      year1_revenue: project.energyRevenue + project.otherRevenue,
      year1_energy_revenue: project.energyRevenue,
      degradation_rate: project.degradationRate,
      degradation_applies_to:
        'energy_sales (all of annual_revenue when revenue_streams is absent) and annual_energy_kwh, by (1 - degradation_rate)^(year - 1)',
      expense_escalation: project.expenseEscalation,
      cash_flow_timing: 'end of year; year 0 is the investment net of the grant, undiscounted',
      defaults_applied: project.defaultsApplied,
    },
  };
}
