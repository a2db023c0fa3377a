/**
 * Dispatch benchmark: the dispatch programme for 24 h hourly, one week at 15 min (672 intervals) and one year
 * hourly (8,760 intervals), solved by HiGHS as the service solves it, and the same LP (same rows, same
 * bounds, same costs) solved independently by GLPK (glpk.js, a bench-only dependency) in the same run.
 * Data: Nord Pool system day-ahead prices and grid load forecast of 2017 (epftoolbox, Lago et al. 2021),
 * the load scaled to a 20 kW mean site; NREL SERF East AC power (pvlib/pvanalytics) scaled to a 54 kW peak,
 * its 104 measured days repeated through the year. Writes bench/results/dispatch.{json,md}.
 */
import GLPK, { type LP } from 'glpk.js/node';
import { buildDispatchProgram, type LinearProgram } from '../shared/domain/dispatch/formulation';
import { solveWithHighs, highs } from '../shared/domain/dispatch/highs-solver';
import { FLEXIBLE_MIP_GAP, FLEXIBLE_MIP_SECONDS, mipStart, optimiseDispatch } from '../shared/domain/dispatch/optimise';
import type { DeferrableLoad, DispatchProblem } from '../shared/domain/dispatch/problem';
import { resolveTariff } from '../shared/domain/dispatch/tariff';
import { windowShares } from '../shared/domain/dispatch/windows';
import { readCsv } from './shared-data';
import { roundHalfUp } from '../shared/domain/rounding';
import { DAY_MS, HOUR_MS } from '../shared/domain/time';
import { writeResults } from './results-files';

/** Nord Pool 2017, hourly: price per kWh and the system load scaled to a 20 kW mean. */
export function nordPool2017() {
  const rows = readCsv('prices/NP.csv').filter(([date]) => date.startsWith('2017-'));
  const load = rows.map((r) => Number(r[2]));
  const mean = load.reduce((a, b) => a + b, 0) / load.length;
  return { price: rows.map((r) => Number(r[1]) / 1000), load: load.map((v) => (20 * v) / mean) };
}

/** SERF East, 15 min, kW scaled x10 (5.4 kW peak to 54 kW); night self-consumption clipped to 0. */
export function serfEast15Min(): number[] {
  return readCsv('solar/serf_east_15min_ac_power.csv').map(([, v]) => Math.max(0, (10 * Number(v)) / 1000));
}

export const hourly = (quarter: number[]) => Array.from({ length: Math.floor(quarter.length / 4) }, (_, h) => (quarter[4 * h] + quarter[4 * h + 1] + quarter[4 * h + 2] + quarter[4 * h + 3]) / 4);
export const tile = (values: number[], n: number) => Array.from({ length: n }, (_, i) => values[i % values.length]);
const repeatEach = (values: number[], k: number) => values.flatMap((v) => Array(k).fill(v) as number[]);

function scenario(name: string, solar: number[], load: number[], price: number[], intervalMinutes: number, demandChargePerKw: number): { name: string; problem: DispatchProblem } {
  return {
    name,
    problem: {
      solarKw: solar,
      loadKw: load,
      importPrice: price,
      exportPrice: price,
      battery: { capacityKwh: 100, powerKw: 25, minSoc: 0.1, maxSoc: 0.9, initialSoc: 0.5, roundtripEfficiency: 0.9 },
      objective: 'revenue',
      intervalMinutes,
      exportLimitKw: 30,
      importLimitKw: Infinity,
      demandChargePerKw,
      terminalSoc: 'at_least_initial',
    },
  };
}

/** The LP in glpk.js's JSON form, bound for bound. */
function asGlpk(lp: LinearProgram, glpk: Awaited<ReturnType<typeof GLPK>>): LP {
  const bound = (lb: number, ub: number) =>
    lb === ub ? { type: glpk.GLP_FX, lb, ub }
    : lb === -Infinity && ub === Infinity ? { type: glpk.GLP_FR, lb: 0, ub: 0 }
    : lb === -Infinity ? { type: glpk.GLP_UP, lb: 0, ub }
    : ub === Infinity ? { type: glpk.GLP_LO, lb, ub: 0 }
    : { type: glpk.GLP_DB, lb, ub };
  return {
    name: 'dispatch',
    objective: { direction: glpk.GLP_MIN, name: 'cost', vars: lp.colNames.map((name, j) => ({ name, coef: lp.colCost[j] })) },
    subjectTo: lp.rowNames.map((name, i) => ({
      name,
      vars: Array.from({ length: lp.rowStarts[i + 1] - lp.rowStarts[i] }, (_, k) => ({ name: lp.colNames[lp.colIndex[lp.rowStarts[i] + k]], coef: lp.values[lp.rowStarts[i] + k] })),
      bnds: bound(lp.rowLower[i], lp.rowUpper[i]),
    })),
    bounds: lp.colNames.map((name, j) => ({ name, ...bound(lp.colLower[j], lp.colUpper[j]) })),
    binaries: lp.colNames.filter((_, j) => lp.integer[j] === 1),
  };
}

/** Seconds either solver may take on the year's MIP in this bench (the service stops at FLEXIBLE_MIP_SECONDS). */
const YEAR_MIP_SECONDS = 120;

/**
 * The year hourly with two deferrable loads that recur every day and a monthly demand charge of 10 per kW (2017,
 * UTC months): a pool pump (6 kWh at 1.5 kW, one block within 08:00-20:00) and a dishwasher (2.4 kWh at 1.2 kW,
 * runs of at least 2 h within 19:00-07:00): 730 windows, each an on/off MIP.
 */
function yearWithDeferrableLoads(base: DispatchProblem, anyLevel = false): DispatchProblem {
  const n = base.loadKw.length;
  const start = Date.UTC(2017, 0, 1);
  const deferrable: DeferrableLoad[] = [];
  for (let d = 0; d < 365; d++) {
    const day = start + d * DAY_MS;
    const shares = (fromHour: number, toHour: number) => windowShares(start, 60, n, day + fromHour * HOUR_MS, day + toHour * HOUR_MS);
    // anyLevel: the same energy at any power up to the rating, anywhere in the window (no binaries: an LP).
    const onOff = (minPowerKw: number, singleBlock: boolean, minRunIntervals: number) => (anyLevel ? { minPowerKw: 0, singleBlock: false, minRunIntervals: 1 } : { minPowerKw, singleBlock, minRunIntervals });
    deferrable.push({ id: `pool-pump-${d}`, share: shares(8, 20), energyKwh: 6, powerKw: 1.5, ...onOff(1.5, true, 1) });
    deferrable.push({ id: `dishwasher-${d}`, share: shares(19, 31), energyKwh: 2.4, powerKw: 1.2, ...onOff(1.2, false, 2) });
  }
  return { ...base, demandChargePerKw: 0, demandPeriods: resolveTariff({ importPrice: 0, monthlyDemandChargePerKw: 10 }, start, 60, n).demandPeriods, flexibleLoads: { deferrable } };
}

/** HiGHS and GLPK on the same MIP, to the same gap and time limit; and the service as it answers a request. */
async function benchYearMip(problem: DispatchProblem, glpk: Awaited<ReturnType<typeof GLPK>>) {
  const { lp, layout } = buildDispatchProgram(problem);
  // HiGHS from the service's start (each load in its cheapest block); glpk.js takes no MIP start.
  const viaHighs = await solveWithHighs(lp, { mipRelativeGap: FLEXIBLE_MIP_GAP, timeLimitSeconds: YEAR_MIP_SECONDS, start: mipStart(problem, layout) });
  const glpkStarted = performance.now();
  const viaGlpk = glpk.solve(asGlpk(lp, glpk), { msglev: glpk.GLP_MSG_OFF, presol: true, mipgap: FLEXIBLE_MIP_GAP, tmlim: YEAR_MIP_SECONDS });
  const glpkMs = performance.now() - glpkStarted;
  const glpkStatus = viaGlpk.result.status === glpk.GLP_OPT ? 'optimal' : viaGlpk.result.status === glpk.GLP_FEAS ? 'feasible (time limit)' : `no solution (status ${viaGlpk.result.status})`;
  const started = performance.now();
  const outcome = await optimiseDispatch(problem);
  const serviceMs = performance.now() - started;
  return {
    scenario: '1 year hourly, 2 daily deferrable loads, monthly demand charge (MIP)',
    intervals: problem.loadKw.length,
    variables: lp.colCost.length,
    constraints: lp.rowLower.length,
    binaries: lp.integer.reduce((a, v) => a + v, 0),
    highs_status: viaHighs.status,
    highs_mip_gap: viaHighs.mipGap ?? null,
    glpk_status: glpkStatus,
    highs_objective: viaHighs.objective,
    glpk_objective: viaGlpk.result.z,
    relative_difference: Math.abs(viaHighs.objective - viaGlpk.result.z) / Math.max(1, Math.abs(viaGlpk.result.z)),
    highs_lp_ms: roundHalfUp(viaHighs.milliseconds, 1),
    glpk_lp_ms: roundHalfUp(glpkMs, 1),
    service_ms: roundHalfUp(serviceMs, 1),
    service_status: outcome.optimised.solver.status,
    service_mip_gap: outcome.optimised.solver.mip_gap ?? null,
    service_solves: outcome.optimised.solver.solves + (outcome.baseline?.solver.solves ?? 0),
    service_kind: outcome.optimised.solver.kind,
    net_benefit_vs_no_battery: roundHalfUp((outcome.baseline?.objective ?? NaN) - outcome.optimised.objective, 2),
  };
}

export async function benchDispatch(): Promise<void> {
  const np = nordPool2017();
  const serf = serfEast15Min();
  const julyFirst = Math.round((Date.UTC(2017, 6, 1) - Date.UTC(2017, 0, 1)) / HOUR_MS);
  const scenarios = [
    scenario('24 h hourly', hourly(serf).slice(0, 24), np.load.slice(julyFirst, julyFirst + 24), np.price.slice(julyFirst, julyFirst + 24), 60, 0),
    scenario('1 week at 15 min', serf.slice(0, 672), repeatEach(np.load.slice(julyFirst, julyFirst + 168), 4), repeatEach(np.price.slice(julyFirst, julyFirst + 168), 4), 15, 15),
    scenario('1 year hourly', tile(hourly(serf), 8760), np.load.slice(0, 8760), np.price.slice(0, 8760), 60, 0),
  ];
  scenarios.push({ name: '1 year hourly, 2 daily deferrable loads at any level, monthly demand charge (LP)', problem: yearWithDeferrableLoads(scenarios[2].problem, true) });
  // Load once and solve once outside the timings, as a warm Lambda has it (the first solve compiles the WebAssembly paths).
  await highs();
  await solveWithHighs(buildDispatchProgram(scenarios[0].problem).lp);
  const glpk = await GLPK();
  const rows = [];
  for (const { name, problem } of scenarios) {
    const { lp } = buildDispatchProgram(problem);
    const viaHighs = await solveWithHighs(lp);
    const glpkStarted = performance.now();
    const viaGlpk = glpk.solve(asGlpk(lp, glpk), { msglev: glpk.GLP_MSG_OFF, presol: true });
    const glpkMs = performance.now() - glpkStarted;
    const started = performance.now();
    const outcome = await optimiseDispatch(problem);
    const serviceMs = performance.now() - started;
    const relative = Math.abs(viaHighs.objective - viaGlpk.result.z) / Math.max(1, Math.abs(viaGlpk.result.z));
    rows.push({
      scenario: name,
      intervals: problem.loadKw.length,
      variables: lp.colCost.length,
      constraints: lp.rowLower.length,
      highs_status: viaHighs.status,
      glpk_status: viaGlpk.result.status === glpk.GLP_OPT ? 'optimal' : String(viaGlpk.result.status),
      highs_objective: viaHighs.objective,
      glpk_objective: viaGlpk.result.z,
      relative_difference: relative,
      highs_lp_ms: roundHalfUp(viaHighs.milliseconds, 1),
      glpk_lp_ms: roundHalfUp(glpkMs, 1),
      service_ms: roundHalfUp(serviceMs, 1),
      service_solves: outcome.optimised.solver.solves + (outcome.baseline?.solver.solves ?? 0),
      service_kind: outcome.optimised.solver.kind,
      net_benefit_vs_no_battery: roundHalfUp((outcome.baseline?.objective ?? NaN) - outcome.optimised.objective, 2),
    });
  }
  // On/off at fixed power, one block or a minimum run: the MIP.
  const mip = await benchYearMip(yearWithDeferrableLoads(scenarios[2].problem), glpk);
  rows.push(mip);
  const out = {
    measured_at: new Date().toISOString(),
    data: 'Nord Pool system price and load forecast 2017 (epftoolbox), load scaled to a 20 kW mean; NREL SERF East AC power x10 (54 kW peak), measured days repeated; 100 kWh / 25 kW battery, 10-90% SOC, 90% round trip, 30 kW export limit, objective revenue; the week with a demand charge of 15 per kW',
    results: rows,
    mip: `the year's MIP: both solvers to a relative gap of ${FLEXIBLE_MIP_GAP} within ${YEAR_MIP_SECONDS} s (its "LP ms" columns are the MIP's); the service stops each solve at ${FLEXIBLE_MIP_SECONDS} s with its best schedule and states the gap`,
    targets: { wanted: 'objectives equal within 1e-6 relative (the MIP: within its gap); the week at 15 min under 1 s, the year hourly under 10 s (service_ms: the optimised solve and the no-battery baseline)' },
  };
  const lines = [
    '# Dispatch benchmark',
    '',
    `${out.data}.`,
    '',
    '| scenario | intervals | variables x constraints | HiGHS objective | GLPK objective | relative difference | HiGHS LP ms | GLPK LP ms | service ms (LP + baseline) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.scenario} | ${r.intervals} | ${r.variables} x ${r.constraints} | ${r.highs_objective.toFixed(6)} | ${r.glpk_objective.toFixed(6)} | ${r.relative_difference.toExponential(2)} | ${r.highs_lp_ms} | ${r.glpk_lp_ms} | ${r.service_ms} |`),
    '',
    `The MIP row: ${out.mip}; HiGHS starts from the service's first schedule (each load in its cheapest block), glpk.js takes no MIP start. It has ${mip.binaries} binaries; HiGHS ${mip.highs_status}${mip.highs_mip_gap !== null ? ` at gap ${mip.highs_mip_gap.toExponential(2)}` : ''}, GLPK ${mip.glpk_status}. The service answered in ${mip.service_ms} ms (${mip.service_status}${mip.service_mip_gap !== null ? `, gap ${mip.service_mip_gap.toExponential(2)}` : ''}).`,
    '',
    `Wanted: ${out.targets.wanted}.`,
    '',
  ];
  writeResults('dispatch', out, lines.join('\n'));
}
