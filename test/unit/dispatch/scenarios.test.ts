/**
 * Solar scenarios (scenario-program.ts) on a case solved by hand: a cheap night, then a day whose sun is either
 * none or plenty, then an evening to serve. 10 kWh battery, lossless, empty; no feed-in pay.
 */
import { buildDispatchProgram } from '../../../shared/domain/dispatch/formulation';
import { optimiseDispatch, solveDispatch } from '../../../shared/domain/dispatch/optimise';
import { checkDispatchProblem, DispatchInputError, type DispatchProblem } from '../../../shared/domain/dispatch/problem';

const problem = (solarKw: number[], over: Partial<DispatchProblem> = {}): DispatchProblem => ({
  solarKw,
  loadKw: [0, 0, 10],
  importPrice: [0.1, 0.3, 0.3],
  exportPrice: [0, 0, 0],
  battery: { capacityKwh: 10, powerKw: 20, minSoc: 0, maxSoc: 1, initialSoc: 0, roundtripEfficiency: 1 },
  objective: 'cost',
  intervalMinutes: 60,
  exportLimitKw: Infinity,
  importLimitKw: Infinity,
  demandChargePerKw: 0,
  terminalSoc: 'free',
  ...over,
});

describe('solar scenarios', () => {
  it('plans on the average sun: no charge at night, the surplus fills the battery', async () => {
    const s = await solveDispatch(problem([0, 10, 0]));
    expect(s.flows[0].import).toBeCloseTo(0, 6);
    expect(s.objective).toBeCloseTo(0, 6);
  });

  it('with no sun or plenty equally likely, charges at night: 0.1 x 10 against 0.3 x 10 half the time', async () => {
    // Charging x at night costs 0.1x; without sun the rest, 10 - x, is bought at 0.3; with sun it is free.
    // Expected cost 0.1x + 0.5 x 0.3 (10 - x) = 1.5 - 0.05x: least at x = 10, cost 1.
    const s = await solveDispatch(problem([0, 0, 0], { solarScenarios: [[0, 20, 0]] }));
    expect(s.flows[0].import).toBeCloseTo(10, 6);
    expect(s.flows[0].charge).toBeCloseTo(10, 6);
    expect(s.objective).toBeCloseTo(1, 6);
    // The schedule is the forecast's own (no sun): the evening runs on the battery.
    expect(s.flows[2].discharge).toBeCloseTo(10, 6);
    expect(s.flows[2].import).toBeCloseTo(0, 6);
  });

  it("reads the first interval from the forecast in every scenario: one decision on one outlook", async () => {
    const s = await solveDispatch(problem([0, 0, 0], { solarScenarios: [[50, 20, 0]] }));
    expect(s.flows[0].import).toBeCloseTo(10, 6);
    expect(s.objective).toBeCloseTo(1, 6);
  });

  it('stacks one programme per scenario with one shared-grid row per later scenario; the baseline has none', async () => {
    const one = buildDispatchProgram(problem([0, 0, 0])).lp;
    const stacked = buildDispatchProgram(problem([0, 0, 0], { solarScenarios: [[0, 20, 0], [0, 5, 0]] })).lp;
    expect(stacked.colCost.length).toBe(3 * one.colCost.length);
    expect(stacked.rowLower.length).toBe(3 * one.rowLower.length + 2);
    expect(stacked.rowNames.slice(-2)).toEqual(['shared_first_interval_s1', 'shared_first_interval_s2']);
    expect(stacked.colNames[one.colCost.length]).toBe(`s1_${one.colNames[0]}`);
    const outcome = await optimiseDispatch(problem([0, 0, 0], { solarScenarios: [[0, 20, 0]] }));
    expect(outcome.baseline?.problem.solarScenarios).toBeUndefined();
  });

  it.each([
    ['a scenario of another length', [[0, 1]], /solar_forecast_scenarios\[0\] has 2 values; solar_forecast has 3/],
    ['a negative value', [[0, -1, 0]], /solar_forecast_scenarios\[0\]\[1\] \(-1\) is not a power/],
    ['too many scenarios', Array.from({ length: 21 }, () => [0, 0, 0]), /21 scenarios; at most 20/],
  ])('refuses %s', (_case, scenarios, message) => {
    const call = () => checkDispatchProblem(problem([0, 0, 0], { solarScenarios: scenarios }));
    expect(call).toThrow(DispatchInputError);
    expect(call).toThrow(message);
  });
});
