/**
 * The precision of POST /api/project-economics answers (README "Choices where the spec is silent"): the
 * figures are computed unrounded and rounded once, here, on the way out.
 */
import { round, roundOrNull } from '../rounding';
import type { CashFlowRow } from './cash-flows';
import type { EconomicsResult } from './project-economics';
import type { SensitivityTable } from './sensitivity';

/** Amounts of currency: cents. */
export const MONEY_DECIMALS = 2;
/** Rates, fractions and ratios (irr, roi, discount and tax rates): a hundredth of a percentage point. */
export const RATE_DECIMALS = 4;
/** Years (payback periods): about four days. */
export const YEARS_DECIMALS = 2;
/** Currency per kWh (lcoe): a hundredth of a cent, as tariffs are quoted. */
export const PER_KWH_DECIMALS = 4;

const money = (x: number) => round(x, MONEY_DECIMALS);
const rate = (x: number) => round(x, RATE_DECIMALS);

const roundRow = (row: CashFlowRow): CashFlowRow => ({
  year: row.year,
  revenue: money(row.revenue),
  expenses: money(row.expenses),
  depreciation_tax_shield: money(row.depreciation_tax_shield),
  tax_credit: money(row.tax_credit),
  cash_flow: money(row.cash_flow),
  cumulative: money(row.cumulative),
  discounted_cash_flow: money(row.discounted_cash_flow),
});

const roundTable = (t: SensitivityTable): SensitivityTable =>
  Object.fromEntries(Object.entries(t).map(([label, p]) => [label, { npv: money(p.npv), irr: roundOrNull(p.irr, RATE_DECIMALS) }])) as SensitivityTable;

/** The result with every figure at its documented precision; texts and notes are left as they are. */
export function roundEconomics(result: EconomicsResult): EconomicsResult {
  const m = result.financial_metrics;
  const a = result.assumptions;
  return {
    ...result,
    financial_metrics: {
      ...m,
      npv: money(m.npv),
      irr: roundOrNull(m.irr, RATE_DECIMALS),
      payback_period: roundOrNull(m.payback_period, YEARS_DECIMALS),
      discounted_payback_period: roundOrNull(m.discounted_payback_period, YEARS_DECIMALS),
      lcoe: roundOrNull(m.lcoe, PER_KWH_DECIMALS),
      roi: rate(m.roi),
    },
    cash_flow_projection: result.cash_flow_projection.map(roundRow),
    sensitivity_analysis: {
      revenue_sensitivity: roundTable(result.sensitivity_analysis.revenue_sensitivity),
      capital_cost_sensitivity: roundTable(result.sensitivity_analysis.capital_cost_sensitivity),
    },
    assumptions: {
      ...a,
      tax_rate: rate(a.tax_rate),
      tax_credit_amount: money(a.tax_credit_amount),
      depreciable_basis: money(a.depreciable_basis),
      net_investment: money(a.net_investment),
      year1_revenue: money(a.year1_revenue),
      year1_energy_revenue: money(a.year1_energy_revenue),
      degradation_rate: rate(a.degradation_rate),
      expense_escalation: rate(a.expense_escalation),
    },
  };
}
