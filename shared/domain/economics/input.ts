/**
 * The body of POST /api/project-economics as the domain reads it (SPEC 4.1; ARCHITECTURE 9, "Project
 * economics inputs"), and its checks beyond types: ranges, and the agreement of `annual_revenue` with
 * `revenue_streams`. The HTTP schema checks the types; this module still refuses non-finite numbers so
 * that a NaN can never reach a result. Absent and null optional fields take their defaults.
 */
import { depreciableBasis, DEPRECIATION_SCHEDULES, type DepreciationSchedule } from './depreciation';
import { EconomicsInputError } from './errors';

/** US federal corporate income tax rate since 2018, 26 U.S.C. 11(b): the default for the depreciation shield. */
export const DEFAULT_TAX_RATE = 0.21;
/** `annual_revenue` and the sum of `revenue_streams` must agree within this fraction of `annual_revenue`. */
export const REVENUE_AGREEMENT_TOLERANCE = 0.01;
/** Longest project evaluated, in years; utility-scale assets are rarely financed beyond 40. */
export const MAX_PROJECT_LIFETIME = 60;

export interface ProjectConfig {
  /** Investment at year 0, currency; > 0. */
  capital_cost: number;
  /** Total year-1 revenue; optional when `revenue_streams` is given (then their sum). */
  annual_revenue?: number | null;
  /** Year-1 operating and maintenance cost, >= 0. */
  annual_expenses: number;
  /** Whole years, 1..60. */
  project_lifetime: number;
  /** Fraction (0.08 is 8%), > -1. */
  discount_rate: number;
  /** Yearly loss of output, fraction 0..1, applied to energy revenue and energy only. @default 0 */
  degradation_rate?: number | null;
  /** Year-1 energy delivered, kWh, > 0; needed for LCOE. */
  annual_energy_kwh?: number | null;
  /** Fraction 0..1 applied to depreciation for its tax shield. @default 0.21 */
  tax_rate?: number | null;
  /** Yearly growth of expenses, fraction > -1 (nominal O&M escalation). @default 0 */
  expense_escalation?: number | null;
}

/** Year-1 revenue by source; absent sources are 0. Only `energy_sales` degrades. */
export interface RevenueStreams {
  energy_sales?: number | null;
  capacity_payments?: number | null;
  ancillary_services?: number | null;
  carbon_credits?: number | null;
}

export interface Incentives {
  /** Investment tax credit, fraction 0..1 of capital cost, received in year 1. @default 0 */
  tax_credit?: number | null;
  /** @default 'none' */
  depreciation_schedule?: string | null;
  /** Amount received at year 0, 0 <= grant < capital cost; reduces the net investment. @default 0 */
  grant_funding?: number | null;
}

export interface EconomicsInput {
  project_config: ProjectConfig;
  revenue_streams?: RevenueStreams | null;
  incentives?: Incentives | null;
}

/** The validated project with every default applied, in the units of the input. */
export interface ProjectModel {
  capitalCost: number;
  grantFunding: number;
  /** Tax credit as an amount (fraction x capital cost), received in year 1. */
  taxCreditAmount: number;
  taxCreditFraction: number;
  taxRate: number;
  depreciationSchedule: DepreciationSchedule;
  depreciableBasis: number;
  lifetime: number;
  discountRate: number;
  degradationRate: number;
  expenseEscalation: number;
  annualExpenses: number;
  /** Year-1 revenue that degrades (energy sales). */
  energyRevenue: number;
  /** Year-1 revenue that does not degrade (capacity, ancillary, carbon). */
  otherRevenue: number;
  annualEnergyKwh: number | null;
  /** Names of the optional fields that took their default. */
  defaultsApplied: string[];
}

const isAbsent = (v: unknown): v is null | undefined => v === undefined || v === null;

function finite(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new EconomicsInputError(field, `must be a finite number; got ${String(value)}`);
  return value;
}

function inRange(field: string, value: unknown, ok: (v: number) => boolean, range: string): number {
  const v = finite(field, value);
  if (!ok(v)) throw new EconomicsInputError(field, `must be ${range}; got ${v}`);
  return v;
}

const nonNegative = (field: string, value: unknown) => inRange(field, value, (v) => v >= 0, 'at least 0');
const fraction = (field: string, value: unknown) => inRange(field, value, (v) => v >= 0 && v <= 1, 'a fraction between 0 and 1');
const aboveMinusOne = (field: string, value: unknown) => inRange(field, value, (v) => v > -1, 'a fraction greater than -1');

/**
 * Checks `input` and applies the defaults.
 * @throws EconomicsInputError naming the first offending field.
 */
export function resolveEconomicsInput(input: EconomicsInput): ProjectModel {
  const config = input.project_config;
  if (isAbsent(config) || typeof config !== 'object') throw new EconomicsInputError('project_config', 'is required');
  const defaultsApplied: string[] = [];
  const optional = <T>(field: string, value: T | null | undefined, fallback: T, check: (f: string, v: T) => T): T => {
    if (isAbsent(value)) {
      defaultsApplied.push(field);
      return fallback;
    }
    return check(field, value);
  };

  const capitalCost = inRange('project_config.capital_cost', config.capital_cost, (v) => v > 0, 'greater than 0');
  const annualExpenses = nonNegative('project_config.annual_expenses', config.annual_expenses);
  const lifetime = inRange(
    'project_config.project_lifetime',
    config.project_lifetime,
    (v) => Number.isInteger(v) && v >= 1 && v <= MAX_PROJECT_LIFETIME,
    `a whole number of years from 1 to ${MAX_PROJECT_LIFETIME}`,
  );
  const discountRate = aboveMinusOne('project_config.discount_rate', config.discount_rate);
  const degradationRate = optional('project_config.degradation_rate', config.degradation_rate, 0, fraction);
  const taxRate = optional('project_config.tax_rate', config.tax_rate, DEFAULT_TAX_RATE, fraction);
  const expenseEscalation = optional('project_config.expense_escalation', config.expense_escalation, 0, aboveMinusOne);
  const annualEnergyKwh = isAbsent(config.annual_energy_kwh)
    ? null
    : inRange('project_config.annual_energy_kwh', config.annual_energy_kwh, (v) => v > 0, 'greater than 0');

  const { energyRevenue, otherRevenue } = resolveRevenue(config.annual_revenue, input.revenue_streams);

  const incentives = input.incentives ?? {};
  const taxCreditFraction = optional('incentives.tax_credit', incentives.tax_credit, 0, fraction);
  const grantFunding = optional('incentives.grant_funding', incentives.grant_funding, 0, (f, v) =>
    inRange(f, v, (g) => g >= 0 && g < capitalCost, `at least 0 and less than project_config.capital_cost (${capitalCost})`),
  );
  const depreciationSchedule = optional<string>('incentives.depreciation_schedule', incentives.depreciation_schedule, 'none', (f, v) => {
    if (!(DEPRECIATION_SCHEDULES as readonly string[]).includes(v)) {
      throw new EconomicsInputError(f, `must be one of ${DEPRECIATION_SCHEDULES.join(', ')}; got ${JSON.stringify(v)}`);
    }
    return v;
  }) as DepreciationSchedule;

  const taxCreditAmount = taxCreditFraction * capitalCost;
  return {
    capitalCost,
    grantFunding,
    taxCreditAmount,
    taxCreditFraction,
    taxRate,
    depreciationSchedule,
    depreciableBasis: depreciableBasis(capitalCost, taxCreditAmount),
    lifetime,
    discountRate,
    degradationRate,
    expenseEscalation,
    annualExpenses,
    energyRevenue,
    otherRevenue,
    annualEnergyKwh,
    defaultsApplied,
  };
}

/**
 * Year-1 revenue split into the part that degrades and the rest. Without streams, all of
 * `annual_revenue` is energy revenue. With both, the streams are used (they carry the split) once their
 * sum agrees with `annual_revenue` within 1%.
 */
function resolveRevenue(annualRevenue: unknown, streams: RevenueStreams | null | undefined): { energyRevenue: number; otherRevenue: number } {
  if (isAbsent(streams)) {
    if (isAbsent(annualRevenue)) throw new EconomicsInputError('project_config.annual_revenue', 'is required when revenue_streams is not given');
    return { energyRevenue: nonNegative('project_config.annual_revenue', annualRevenue), otherRevenue: 0 };
  }
  const stream = (name: keyof RevenueStreams) => (isAbsent(streams[name]) ? 0 : nonNegative(`revenue_streams.${name}`, streams[name]));
  const energyRevenue = stream('energy_sales');
  const otherRevenue = stream('capacity_payments') + stream('ancillary_services') + stream('carbon_credits');
  if (!isAbsent(annualRevenue)) {
    const stated = nonNegative('project_config.annual_revenue', annualRevenue);
    const sum = energyRevenue + otherRevenue;
    if (Math.abs(sum - stated) > REVENUE_AGREEMENT_TOLERANCE * stated) {
      throw new EconomicsInputError(
        'project_config.annual_revenue',
        `(${stated}) must agree within ${REVENUE_AGREEMENT_TOLERANCE * 100}% with the sum of revenue_streams (${sum})`,
      );
    }
  }
  return { energyRevenue, otherRevenue };
}
