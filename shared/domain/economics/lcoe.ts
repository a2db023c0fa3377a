/**
 * Levelized cost of energy: the present value of the project's costs net of its incentives divided by the
 * present value of the energy it delivers, both at the discount rate (Short, Packey & Holt 1995, "A Manual
 * for the Economic Evaluation of Energy Efficiency and Renewable Energy Technologies", NREL/TP-462-5173,
 * levelized cost of energy). Costs are the year-0 investment net of the
 * grant, and each year's expenses; the tax credit (year 1) and the depreciation tax shields are
 * subtracted, as the cash flows carry them. With constant energy and expenses and no tax benefits this is
 * the formula of NREL's "Simple Levelized Cost of Energy (LCOE) Calculator Documentation",
 * (CRF x capital cost + fixed O&M) / annual energy, CRF the capital recovery factor.
 */
import { energyByYear, type CashFlowRow } from './cash-flows';
import { discounted } from './discounting';
import type { ProjectModel } from './input';

export const LCOE_NEEDS_ENERGY = 'annual_energy_kwh is required to compute LCOE';

/** Currency per kWh, or null (with the reason) when the input gave no energy. */
export function levelizedCostOfEnergy(project: ProjectModel, rows: readonly CashFlowRow[]): { lcoe: number | null; note?: string } {
  const energy = energyByYear(project);
  if (energy === null) return { lcoe: null, note: LCOE_NEEDS_ENERGY };
  let costs = project.capitalCost - project.grantFunding;
  let delivered = 0;
  for (const row of rows) {
    if (row.year === 0) continue;
    costs += discounted(row.expenses - row.tax_credit - row.depreciation_tax_shield, project.discountRate, row.year);
    delivered += discounted(energy[row.year - 1], project.discountRate, row.year);
  }
  // Degradation of 1 leaves energy only in year 1, which is positive: `delivered` is never 0 here.
  return { lcoe: costs / delivered };
}
