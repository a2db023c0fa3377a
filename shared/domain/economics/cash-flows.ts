/**
 * The yearly cash-flow projection: end-of-year flows, year 0 the investment net of the grant. Pre-tax
 * operating cash flows plus tax benefits: the investment tax credit in year 1 and the depreciation tax
 * shield (tax rate x the year's deduction), on the assumption that the owner has tax liability to use them.
 * Income tax on operating profit is not modelled.
 */
import { depreciationByYear } from './depreciation';
import { discounted } from './discounting';
import type { ProjectModel } from './input';

export type CashFlowRow = {
  year: number;
  /** Revenue of the year: energy sales degraded by (1 - d)^(year - 1), plus the other streams. */
  revenue: number;
  /** Expenses of the year: year-1 expenses x (1 + escalation)^(year - 1). */
  expenses: number;
  depreciation_tax_shield: number;
  tax_credit: number;
  /**
   * Year 0: -(capital cost - grant). Later years: revenue - expenses + depreciation_tax_shield + tax_credit.
   */
  cash_flow: number;
  /** Running sum of cash_flow: each row's is the previous row's plus its cash_flow. */
  cumulative: number;
  /** cash_flow / (1 + discount rate)^year. */
  discounted_cash_flow: number;
};

/** Output factor of year `year` (1-based) under yearly degradation `rate`: (1 - rate)^(year - 1). */
export function degradationFactor(rate: number, year: number): number {
  return (1 - rate) ** (year - 1);
}

/** Energy delivered in years 1..lifetime (index 0 = year 1), or null when the input gave none. */
export function energyByYear(project: ProjectModel): number[] | null {
  const e1 = project.annualEnergyKwh;
  if (e1 === null) return null;
  return Array.from({ length: project.lifetime }, (_, i) => e1 * degradationFactor(project.degradationRate, i + 1));
}

export function projectCashFlows(project: ProjectModel): CashFlowRow[] {
  const depreciation = depreciationByYear(project.depreciationSchedule, project.depreciableBasis, project.lifetime);
  const investment = -(project.capitalCost - project.grantFunding);
  const rows: CashFlowRow[] = [
    {
      year: 0,
      revenue: 0,
      expenses: 0,
      depreciation_tax_shield: 0,
      tax_credit: 0,
      cash_flow: investment,
      cumulative: investment,
      discounted_cash_flow: investment,
    },
  ];
  for (let year = 1; year <= project.lifetime; year++) {
    const revenue = project.energyRevenue * degradationFactor(project.degradationRate, year) + project.otherRevenue;
    const expenses = project.annualExpenses * (1 + project.expenseEscalation) ** (year - 1);
    const shield = project.taxRate * depreciation[year - 1];
    const credit = year === 1 ? project.taxCreditAmount : 0;
    const cashFlow = revenue - expenses + shield + credit;
    rows.push({
      year,
      revenue,
      expenses,
      depreciation_tax_shield: shield,
      tax_credit: credit,
      cash_flow: cashFlow,
      cumulative: rows[year - 1].cumulative + cashFlow,
      discounted_cash_flow: discounted(cashFlow, project.discountRate, year),
    });
  }
  return rows;
}
