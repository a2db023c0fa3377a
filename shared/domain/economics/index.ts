/** Project economics: the evaluation behind POST /api/project-economics. */
export { projectEconomics, type EconomicsAssumptions, type EconomicsResult, type FinancialMetrics } from './project-economics';
export { EconomicsInputError } from './errors';
export {
  DEFAULT_TAX_RATE,
  MAX_PROJECT_LIFETIME,
  REVENUE_AGREEMENT_TOLERANCE,
  type EconomicsInput,
  type Incentives,
  type ProjectConfig,
  type RevenueStreams,
} from './input';
export { DEPRECIATION_SCHEDULES, MACRS_PERCENTAGES, type DepreciationSchedule } from './depreciation';
export { type CashFlowRow } from './cash-flows';
export { SENSITIVITY_STEPS, type SensitivityAnalysis, type SensitivityLabel, type SensitivityPoint, type SensitivityTable } from './sensitivity';
export { LCOE_NEEDS_ENERGY } from './lcoe';
export { IRR_SEARCH_LOWER, IRR_SEARCH_UPPER, IRR_TOLERANCE, internalRateOfReturn, internalRatesOfReturn, type IrrResult } from './irr';
export { roundEconomics, MONEY_DECIMALS, RATE_DECIMALS, YEARS_DECIMALS, PER_KWH_DECIMALS } from './precision';
