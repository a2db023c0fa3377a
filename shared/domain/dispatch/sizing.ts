/**
 * Battery sizing (ARCHITECTURE 9, POST /api/battery-sizing; issue 24): the energy and power capacity that
 * maximise the project's NPV over a year of load, solar and tariff.
 *
 * Method: one LP over the horizon with the capacity and power as variables (DispatchProblem.sizing), each
 * kWh and kW costing the share of its investment one year must carry. With discount rate r, lifetime L and
 * degradation d, the year's savings S recur as S (1 - d)^(y - 1) in year y, so
 *   NPV = S A - k C - PV(O&M),   A = sum_{y=1..L} (1 - d)^(y - 1) / (1 + r)^y,
 * where C = cost_per_kwh E + cost_per_kw P and k is what one unit of investment costs net of its tax
 * benefits: 1 - tax_credit / (1 + r) - tax_rate x PV of the depreciation of (1 - tax_credit / 2).
 * Maximising NPV is then minimising the year's bill + C k / A: exact for these cash flows, because every
 * term is linear in the size or independent of it. Captured exactly: discounting, degradation of the savings,
 * the investment tax credit and the depreciation shield, as shared/domain/economics computes them. Not
 * captured by the LP: O&M (annual_expenses) is a fixed amount, independent of the size, so it moves the NPV
 * but not the best size, and the comparison with no battery decides whether to build at all; grants are not
 * taken (a fixed amount likewise); the battery's fade does not change its dispatch (the year is solved at
 * full size and its savings degrade as a whole); no price escalation, no replacement. A horizon other than a
 * year stands for the year: its savings are scaled by 365 days over its length.
 *
 * The chosen size is then solved at fixed size, its NPV and IRR computed by the economics module, and
 * compared with no battery and its two neighbours (NEIGHBOUR_STEP).
 */
import { depreciationByYear } from '../economics/depreciation';
import { projectEconomics, type EconomicsInput, type EconomicsResult, type Incentives, type ProjectConfig } from '../economics';
import { resolveEconomicsInput } from '../economics/input';
import { solveDispatch, withoutBattery, type DispatchOutcome, type SolvedDispatch } from './optimise';
import { checkDispatchProblem, hoursPerInterval, type BatterySizing, type DispatchProblem } from './problem';
import { siteEconomics } from './report';

/** Minutes in the 365-day year the savings are stated for. */
const YEAR_MINUTES = 365 * 1440;
/**
 * The neighbours of a chosen size: its energy divided and multiplied by this, at the same power-to-energy
 * ratio (a geometric grid of 4 steps per doubling, roughly). Close enough to show the optimum's curvature,
 * far enough for the NPV differences to exceed the solver's tolerances.
 */
export const NEIGHBOUR_STEP = 1.25;
/** A size below this share of its bound is no battery (the LP's zero, within its tolerances). */
export const ZERO_SIZE_SHARE = 1e-4;
/** When the LP answers no battery, the one size it is compared with: this share of both bounds. */
export const SMALLEST_COMPARED_SHARE = 1 / 20;

/** The financial inputs of project economics that do not depend on the size. */
export interface SizingFinance {
  project: Omit<ProjectConfig, 'capital_cost' | 'annual_revenue' | 'annual_energy_kwh'>;
  incentives?: Pick<Incentives, 'tax_credit' | 'depreciation_schedule'>;
}

export interface SizingCosts {
  /** Currency per kWh of energy capacity, at year 0. */
  costPerKwh: number;
  /** Currency per kW of power capacity (inverter, connection), at year 0. */
  costPerKw: number;
}

export interface SizingBounds {
  maxEnergyKwh: number;
  maxPowerKw: number;
}

export interface BatterySize {
  energyKwh: number;
  powerKw: number;
}

export interface SizeEvaluation extends BatterySize {
  capitalCost: number;
  /** Year-1 bill savings against no battery (the horizon's, scaled to 365 days). */
  annualSavings: number;
  /** kWh discharged in a year (the economics' annual_energy_kwh, so its LCOE is a cost per kWh delivered). */
  annualDischargeKwh: number;
  npv: number;
  irr: number | null;
  /** The economics module's answer; absent for no battery. */
  economics?: EconomicsResult;
  outcome?: DispatchOutcome;
}

export interface ComparedSize extends SizeEvaluation {
  role: 'no_battery' | 'smaller' | 'chosen' | 'larger';
}

export interface SizingResult {
  /** The recommended size: the LP's, or no battery when the LP answers zero or no battery beats it. */
  chosen: SizeEvaluation;
  /** What the sizing LP answered, before the comparison with no battery. */
  lpSize: BatterySize;
  compared: ComparedSize[];
  /** Why the answer is no battery; absent otherwise. */
  zeroReason?: string;
  /** Whether the chosen size's NPV is at least each compared size's (within NPV_TIE). */
  chosenIsBest: boolean;
  /** Whether the LP's answer sits on a bound (then a larger bound might pay more). */
  atBound: { energy: boolean; power: boolean };
  annuityFactor: number;
  capexFactor: number;
  /** The costs per kWh and per kW the LP charged for the horizon. */
  annualised: Pick<BatterySizing, 'costPerKwh' | 'costPerKw'>;
  solves: number;
  milliseconds: number;
}

/** Currency: NPVs this close count as equal (solver tolerances on a year's bill). */
export const NPV_TIE = 1e-3;

/** A = sum over the lifetime of (1 - d)^(y - 1) / (1 + r)^y: the present value of savings of 1 in year 1. */
export function annuityFactor(project: SizingFinance['project']): number {
  const r = project.discount_rate;
  const d = project.degradation_rate ?? 0;
  let a = 0;
  for (let y = 1; y <= project.project_lifetime; y++) a += (1 - d) ** (y - 1) / (1 + r) ** y;
  return a;
}

/** The present cost of one unit of investment net of the tax credit and the depreciation shield, as the economics module counts them. */
export function capexFactor(finance: SizingFinance): number {
  // The economics module's own defaults and checks, on a unit investment.
  const model = resolveEconomicsInput({ project_config: { ...finance.project, capital_cost: 1, annual_revenue: 0 }, incentives: finance.incentives });
  const r = model.discountRate;
  const deductions = depreciationByYear(model.depreciationSchedule, model.depreciableBasis, model.lifetime);
  const shield = deductions.reduce((a, dep, i) => a + (model.taxRate * dep) / (1 + r) ** (i + 1), 0);
  return 1 - model.taxCreditAmount / (1 + r) - shield;
}

/** The horizon's length in 365-day years. */
export const horizonYears = (p: Pick<DispatchProblem, 'loadKw' | 'intervalMinutes'>): number => (p.loadKw.length * p.intervalMinutes) / YEAR_MINUTES;

/** The sizing costs for the LP: each unit's net investment spread over the annuity, for the horizon's share of a year. */
export function annualisedSizing(p: DispatchProblem, finance: SizingFinance, costs: SizingCosts, bounds: SizingBounds): BatterySizing {
  const perYear = (capexFactor(finance) * horizonYears(p)) / annuityFactor(finance.project);
  return { maxEnergyKwh: bounds.maxEnergyKwh, maxPowerKw: bounds.maxPowerKw, costPerKwh: costs.costPerKwh * perYear, costPerKw: costs.costPerKw * perYear };
}

const atSize = (p: DispatchProblem, size: BatterySize): DispatchProblem => ({ ...p, sizing: undefined, battery: { ...p.battery, capacityKwh: size.energyKwh, powerKw: size.powerKw } });

/** The site without a battery, solved once for every comparison. */
export const solveBaseline = (p: DispatchProblem): Promise<SolvedDispatch> => solveDispatch(withoutBattery({ ...p, sizing: undefined }));

/** The project-economics input of a size that saves `annualSavings` a year. */
export function economicsInput(finance: SizingFinance, costs: SizingCosts, size: BatterySize, annualSavings: number, annualDischargeKwh: number): EconomicsInput {
  return {
    project_config: {
      ...finance.project,
      capital_cost: costs.costPerKwh * size.energyKwh + costs.costPerKw * size.powerKw,
      annual_revenue: annualSavings,
      ...(annualDischargeKwh > 0 ? { annual_energy_kwh: annualDischargeKwh } : {}),
    },
    incentives: finance.incentives,
  };
}

const NO_BATTERY: SizeEvaluation = { energyKwh: 0, powerKw: 0, capitalCost: 0, annualSavings: 0, annualDischargeKwh: 0, npv: 0, irr: null };

/** Solves the horizon at a fixed size and values it: its savings against the baseline, its NPV and IRR by the economics module. */
export async function evaluateSize(p: DispatchProblem, baseline: SolvedDispatch, finance: SizingFinance, costs: SizingCosts, size: BatterySize): Promise<SizeEvaluation> {
  if (!(size.energyKwh > 0 && size.powerKw > 0)) return NO_BATTERY;
  const problem = atSize(p, size);
  checkDispatchProblem(problem);
  const optimised = await solveDispatch(problem);
  const years = horizonYears(p);
  // The bill as the report measures it (energy and demand charges less export revenue); the LP can always idle, so a negative is solver noise.
  const annualSavings = Math.max(0, siteEconomics(baseline).net_cost - siteEconomics(optimised).net_cost) / years;
  const annualDischargeKwh = (optimised.flows.reduce((a, f) => a + f.discharge, 0) * hoursPerInterval(p)) / years;
  const economics = projectEconomics(economicsInput(finance, costs, size, annualSavings, annualDischargeKwh));
  const m = economics.financial_metrics;
  return { ...size, capitalCost: costs.costPerKwh * size.energyKwh + costs.costPerKw * size.powerKw, annualSavings, annualDischargeKwh, npv: m.npv, irr: m.irr, economics, outcome: { optimised, baseline } };
}

/** The two sizes beside `size`: energy / and x NEIGHBOUR_STEP at the same power ratio, within the bounds. */
export function neighbourSizes(size: BatterySize, bounds: SizingBounds): { smaller: BatterySize; larger?: BatterySize } {
  const ratio = size.powerKw / size.energyKwh;
  const smaller = { energyKwh: size.energyKwh / NEIGHBOUR_STEP, powerKw: size.powerKw / NEIGHBOUR_STEP };
  // Larger: as far as the tighter bound allows along the same ratio; none when the size already sits on it.
  const energy = Math.min(size.energyKwh * NEIGHBOUR_STEP, bounds.maxEnergyKwh, bounds.maxPowerKw / ratio);
  return energy > size.energyKwh * (1 + 1e-6) ? { smaller, larger: { energyKwh: energy, powerKw: energy * ratio } } : { smaller };
}

/** Whether a size is the LP's zero: either capacity below ZERO_SIZE_SHARE of its bound. */
export const isZeroSize = (size: BatterySize, bounds: SizingBounds): boolean => size.energyKwh < ZERO_SIZE_SHARE * bounds.maxEnergyKwh || size.powerKw < ZERO_SIZE_SHARE * bounds.maxPowerKw;

/**
 * Sizes the battery of `p` (its battery's SOC limits and efficiency; its capacity and power are replaced).
 * @throws DispatchInputError when the problem is inconsistent, EconomicsInputError when the finance is.
 */
export async function sizeBattery(p: DispatchProblem, finance: SizingFinance, costs: SizingCosts, bounds: SizingBounds): Promise<SizingResult> {
  const started = performance.now();
  const sizing = annualisedSizing(p, finance, costs, bounds);
  const lpProblem: DispatchProblem = { ...p, battery: { ...p.battery, capacityKwh: bounds.maxEnergyKwh, powerKw: bounds.maxPowerKw }, sizing };
  checkDispatchProblem(lpProblem);
  const baseline = await solveBaseline(p);
  const lp = await solveDispatch(lpProblem);
  if (!lp.sized) throw new Error('The sizing programme answered no size');
  const lpSize = { energyKwh: lp.sized.energyKwh, powerKw: lp.sized.powerKw };
  let solves = baseline.solver.solves + lp.solver.solves;

  const evaluate = async (size: BatterySize) => {
    const e = await evaluateSize(p, baseline, finance, costs, size);
    solves += e.outcome?.optimised.solver.solves ?? 0;
    return e;
  };
  const zero = isZeroSize(lpSize, bounds);
  const compared: ComparedSize[] = [{ ...NO_BATTERY, role: 'no_battery' }];
  let candidate: SizeEvaluation;
  let zeroReason: string | undefined;
  if (zero) {
    candidate = NO_BATTERY;
    zeroReason = 'the price spreads, solar surplus and demand charges do not repay the battery: the sizing LP builds nothing';
    const smallest = await evaluate({ energyKwh: bounds.maxEnergyKwh * SMALLEST_COMPARED_SHARE, powerKw: bounds.maxPowerKw * SMALLEST_COMPARED_SHARE });
    compared.push({ ...smallest, role: 'larger' });
  } else {
    candidate = await evaluate(lpSize);
    const { smaller, larger } = neighbourSizes(lpSize, bounds);
    compared.push({ ...(await evaluate(smaller)), role: 'smaller' }, { ...candidate, role: 'chosen' });
    if (larger) compared.push({ ...(await evaluate(larger)), role: 'larger' });
    if (candidate.npv < 0) {
      // Only a cost the LP does not see (fixed O&M) can make its optimum worse than not building.
      zeroReason = `the best size's NPV (${candidate.npv.toFixed(2)}) is below 0 once the fixed annual_expenses are counted: no battery is better`;
    }
  }
  const chosen = zeroReason ? NO_BATTERY : candidate;
  return {
    chosen,
    lpSize,
    compared,
    ...(zeroReason ? { zeroReason } : {}),
    chosenIsBest: compared.every((c) => chosen.npv >= c.npv - NPV_TIE),
    atBound: { energy: !zero && lpSize.energyKwh >= bounds.maxEnergyKwh * (1 - 1e-6), power: !zero && lpSize.powerKw >= bounds.maxPowerKw * (1 - 1e-6) },
    annuityFactor: annuityFactor(finance.project),
    capexFactor: capexFactor(finance),
    annualised: { costPerKwh: sizing.costPerKwh, costPerKw: sizing.costPerKw },
    solves,
    milliseconds: performance.now() - started,
  };
}

/** Every combination of `energies` and power-to-energy `ratios` (kW per kWh), each a fixed-size solve: the exhaustive check of the LP's answer. */
export async function gridSearch(p: DispatchProblem, finance: SizingFinance, costs: SizingCosts, energies: readonly number[], ratios: readonly number[]): Promise<SizeEvaluation[]> {
  const baseline = await solveBaseline(p);
  const out: SizeEvaluation[] = [NO_BATTERY];
  for (const energyKwh of energies) for (const ratio of ratios) out.push(await evaluateSize(p, baseline, finance, costs, { energyKwh, powerKw: energyKwh * ratio }));
  return out;
}
