/**
 * Sizing benchmark: POST /api/battery-sizing's domain (shared/domain/dispatch/sizing.ts) on a year of hourly
 * data, its time and its answer, cross-checked in the same run against an exhaustive grid of sizes (8
 * energies x 4 power-to-energy ratios, each a fixed-size year solve valued by the economics module): the
 * grid's best NPV must not beat the LP's chosen size.
 * Data as bench/dispatch.ts: Nord Pool system prices 2017 (epftoolbox) and load scaled to a 20 kW mean, NREL
 * SERF East AC power x10 (54 kW peak) repeated through the year. Retail tariff: import at spot plus a flat
 * network and tax adder, export at spot, and a monthly demand charge. Writes bench/results/sizing.{json,md}.
 */
import { hourly, nordPool2017, serfEast15Min, tile } from './dispatch';
import { writeResults } from './results-files';
import { highs } from '../shared/domain/dispatch/highs-solver';
import type { DispatchProblem } from '../shared/domain/dispatch/problem';
import { gridSearch, sizeBattery, type SizeEvaluation, type SizingFinance } from '../shared/domain/dispatch/sizing';
import { resolveTariff } from '../shared/domain/dispatch/tariff';
import { roundHalfUp } from '../shared/domain/rounding';

/** EUR per kWh on top of the spot price for imports (network charges and levies, roughly a German commercial site's). */
const IMPORT_ADDER = 0.12;
/** EUR per kW of each month's peak import. */
const MONTHLY_DEMAND_CHARGE = 8;
const COSTS = { costPerKwh: 300, costPerKw: 100 };
const FINANCE: SizingFinance = { project: { project_lifetime: 15, discount_rate: 0.06, degradation_rate: 0.02, annual_expenses: 0 } };
const BOUNDS = { maxEnergyKwh: 400, maxPowerKw: 100 };
const GRID_ENERGIES = [10, 20, 40, 60, 80, 120, 160, 240];
const GRID_RATIOS = [0.125, 0.25, 0.5, 1];

function yearProblem(): DispatchProblem {
  const np = nordPool2017();
  const n = 8760;
  const start = Date.UTC(2017, 0, 1);
  const { demandPeriods } = resolveTariff({ importPrice: 0, monthlyDemandChargePerKw: MONTHLY_DEMAND_CHARGE }, start, 60, n);
  const spot = np.price.slice(0, n);
  return {
    solarKw: tile(hourly(serfEast15Min()), n),
    loadKw: np.load.slice(0, n),
    importPrice: spot.map((p) => p + IMPORT_ADDER),
    exportPrice: spot,
    battery: { capacityKwh: 1, powerKw: 1, minSoc: 0.1, maxSoc: 0.9, initialSoc: 0.5, roundtripEfficiency: 0.9 },
    objective: 'cost',
    intervalMinutes: 60,
    exportLimitKw: Infinity,
    importLimitKw: Infinity,
    demandChargePerKw: 0,
    demandPeriods,
    terminalSoc: 'at_least_initial',
  };
}

const row = (e: SizeEvaluation) => ({
  energy_kwh: roundHalfUp(e.energyKwh, 3),
  power_kw: roundHalfUp(e.powerKw, 3),
  capital_cost: roundHalfUp(e.capitalCost, 2),
  annual_savings: roundHalfUp(e.annualSavings, 2),
  npv: roundHalfUp(e.npv, 2),
  irr: e.irr === null ? null : roundHalfUp(e.irr, 4),
});

export async function benchSizing(): Promise<void> {
  const p = yearProblem();
  await highs();
  const started = performance.now();
  const result = await sizeBattery(p, FINANCE, COSTS, BOUNDS);
  const sizingMs = performance.now() - started;

  const gridStarted = performance.now();
  const grid = await gridSearch(p, FINANCE, COSTS, GRID_ENERGIES, GRID_RATIOS);
  const gridMs = performance.now() - gridStarted;
  const best = grid.reduce((a, b) => (b.npv > a.npv ? b : a));
  const chosen = result.chosen;

  const out = {
    measured_at: new Date().toISOString(),
    data: `Nord Pool system price 2017 (epftoolbox) + ${IMPORT_ADDER} EUR/kWh on imports, exports at spot, ${MONTHLY_DEMAND_CHARGE} EUR/kW-month demand charge; load scaled to a 20 kW mean; NREL SERF East AC power x10 (54 kW peak), measured days repeated; 8,760 hourly intervals`,
    assumptions: { ...COSTS, ...FINANCE.project, ...BOUNDS, battery: '10-90% SOC, 90% round trip', grid: { energies_kwh: GRID_ENERGIES, kw_per_kwh: GRID_RATIOS } },
    sizing: {
      milliseconds: roundHalfUp(sizingMs, 1),
      solves: result.solves,
      lp_size: { energy_kwh: roundHalfUp(result.lpSize.energyKwh, 3), power_kw: roundHalfUp(result.lpSize.powerKw, 3) },
      chosen: row(chosen),
      zero_reason: result.zeroReason ?? null,
      compared: result.compared.map((c) => ({ role: c.role, ...row(c) })),
      chosen_is_best_of_compared: result.chosenIsBest,
      annuity_factor: roundHalfUp(result.annuityFactor, 6),
    },
    grid: { milliseconds: roundHalfUp(gridMs, 1), sizes: grid.length, best: row(best), rows: grid.map(row) },
    check: {
      chosen_npv_minus_grid_best: roundHalfUp(chosen.npv - best.npv, 2),
      grid_beats_chosen: best.npv > chosen.npv + 1e-3,
    },
  };
  const lines = [
    '# Battery sizing benchmark',
    '',
    `${out.data}. Costs ${COSTS.costPerKwh} EUR/kWh and ${COSTS.costPerKw} EUR/kW; ${FINANCE.project.project_lifetime} years at ${FINANCE.project.discount_rate * 100}%, ${(FINANCE.project.degradation_rate ?? 0) * 100}% yearly degradation of the savings; bounds ${BOUNDS.maxEnergyKwh} kWh and ${BOUNDS.maxPowerKw} kW.`,
    '',
    `Sizing (LP with size variables, then the chosen size, its two neighbours and no battery at fixed size): ${out.sizing.milliseconds} ms, ${result.solves} HiGHS solves.`,
    '',
    '| size | energy kWh | power kW | capital cost | annual savings | NPV | IRR |',
    '|---|---|---|---|---|---|---|',
    ...out.sizing.compared.map((c) => `| ${c.role} | ${c.energy_kwh} | ${c.power_kw} | ${c.capital_cost} | ${c.annual_savings} | ${c.npv} | ${c.irr ?? '-'} |`),
    `| grid best of ${grid.length} | ${out.grid.best.energy_kwh} | ${out.grid.best.power_kw} | ${out.grid.best.capital_cost} | ${out.grid.best.annual_savings} | ${out.grid.best.npv} | ${out.grid.best.irr ?? '-'} |`,
    '',
    `Exhaustive grid (${GRID_ENERGIES.length} energies x ${GRID_RATIOS.length} ratios, fixed-size year solves): ${out.grid.milliseconds} ms. Chosen NPV minus the grid's best: ${out.check.chosen_npv_minus_grid_best} EUR (${out.check.grid_beats_chosen ? 'the grid beats the LP: a defect' : 'the LP is at least as good'}).`,
    ...(result.zeroReason ? ['', `No battery: ${result.zeroReason}.`] : []),
    '',
  ];
  writeResults('sizing', out, lines.join('\n'));
}
