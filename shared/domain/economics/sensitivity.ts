/**
 * One-at-a-time sensitivity: NPV and IRR with all revenue streams, or the capital cost, scaled by each step.
 * Scaling the capital cost scales the tax credit and depreciation basis with it (they are fractions of it);
 * the grant is an amount and stays.
 */
import { projectCashFlows } from './cash-flows';
import { depreciableBasis } from './depreciation';
import { netPresentValue } from './discounting';
import type { ProjectModel } from './input';
import { internalRateOfReturn } from './irr';

export const SENSITIVITY_STEPS = { '-20%': -0.2, '-10%': -0.1, '+10%': 0.1, '+20%': 0.2 } as const;
export type SensitivityLabel = keyof typeof SENSITIVITY_STEPS;

export type SensitivityPoint = {
  npv: number;
  /** Null when the scaled project has no IRR. */
  irr: number | null;
};
export type SensitivityTable = Record<SensitivityLabel, SensitivityPoint>;

export type SensitivityAnalysis = {
  revenue_sensitivity: SensitivityTable;
  capital_cost_sensitivity: SensitivityTable;
};

function evaluate(project: ProjectModel): SensitivityPoint {
  const flows = projectCashFlows(project).map((row) => row.cash_flow);
  return { npv: netPresentValue(flows, project.discountRate), irr: internalRateOfReturn(flows, project.discountRate).irr };
}

function table(scale: (factor: number) => ProjectModel): SensitivityTable {
  const entries = Object.entries(SENSITIVITY_STEPS).map(([label, step]) => [label, evaluate(scale(1 + step))]);
  return Object.fromEntries(entries) as SensitivityTable;
}

export function sensitivityAnalysis(project: ProjectModel): SensitivityAnalysis {
  return {
    revenue_sensitivity: table((factor) => ({
      ...project,
      energyRevenue: project.energyRevenue * factor,
      otherRevenue: project.otherRevenue * factor,
    })),
    capital_cost_sensitivity: table((factor) => {
      const capitalCost = project.capitalCost * factor;
      const taxCreditAmount = project.taxCreditFraction * capitalCost;
      return { ...project, capitalCost, taxCreditAmount, depreciableBasis: depreciableBasis(capitalCost, taxCreditAmount) };
    }),
  };
}
