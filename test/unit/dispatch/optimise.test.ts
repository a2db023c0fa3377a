/**
 * The dispatch programme on cases small enough to solve by hand; every solution is also checked interval by
 * interval against the invariants (power balance, SOC dynamics, bounds, limits, no simultaneous flows).
 */
import { buildDispatchProgram } from '../../../shared/domain/dispatch/formulation';
import { solveWithHighs } from '../../../shared/domain/dispatch/highs-solver';
import { optimiseDispatch, solveDispatch, type SolvedDispatch } from '../../../shared/domain/dispatch/optimise';
import { DispatchInputError, type DispatchProblem } from '../../../shared/domain/dispatch/problem';
import { dispatchReport } from '../../../shared/domain/dispatch/report';

const START = Date.parse('2026-06-01T00:00:00Z');

function problem(over: Partial<Omit<DispatchProblem, 'battery'>> & { battery?: Partial<DispatchProblem['battery']> } = {}): DispatchProblem {
  const n = (over.loadKw ?? [10, 10, 10, 10]).length;
  const price = over.importPrice ?? Array(n).fill(0.2);
  return {
    solarKw: Array(n).fill(0),
    loadKw: Array(n).fill(10),
    importPrice: price,
    exportPrice: over.exportPrice ?? price,
    objective: 'cost',
    intervalMinutes: 60,
    exportLimitKw: Infinity,
    importLimitKw: Infinity,
    demandChargePerKw: 0,
    terminalSoc: 'at_least_initial',
    ...over,
    battery: { capacityKwh: 100, powerKw: 20, minSoc: 0, maxSoc: 1, initialSoc: 0, roundtripEfficiency: 1, ...over.battery },
  };
}

/** Every invariant of the formulation, on every interval. */
function expectFeasible(s: SolvedDispatch) {
  const p = s.problem;
  const b = p.battery;
  const eta = Math.sqrt(b.roundtripEfficiency);
  const dt = p.intervalMinutes / 60;
  const tol = 1e-6 * Math.max(1, b.powerKw, b.capacityKwh);
  let previous = b.initialSoc * b.capacityKwh;
  s.flows.forEach((f, t) => {
    // balance: what arrives equals what leaves
    expect(p.solarKw[t] - f.curtail + f.discharge + f.import).toBeCloseTo(p.loadKw[t] + f.charge + f.export, 6);
    // SOC dynamics with the round trip split evenly
    expect(f.soc).toBeCloseTo(previous + (eta * f.charge - f.discharge / eta) * dt, 6);
    previous = f.soc;
    // bounds and limits
    expect(f.soc).toBeGreaterThanOrEqual(b.minSoc * b.capacityKwh - tol);
    expect(f.soc).toBeLessThanOrEqual(b.maxSoc * b.capacityKwh + tol);
    for (const v of [f.charge, f.discharge, f.import, f.export, f.curtail]) expect(v).toBeGreaterThanOrEqual(0);
    expect(Math.max(f.charge, f.discharge)).toBeLessThanOrEqual(b.powerKw + tol);
    expect(f.export).toBeLessThanOrEqual(p.exportLimitKw + tol);
    expect(f.import).toBeLessThanOrEqual(p.importLimitKw + tol);
    expect(f.curtail).toBeLessThanOrEqual(p.solarKw[t] + tol);
    if (p.objective === 'cost') expect(f.export + f.curtail).toBeLessThanOrEqual(p.solarKw[t] + tol);
    // never both directions at once
    expect(Math.min(f.charge, f.discharge)).toBeLessThanOrEqual(tol);
    expect(Math.min(f.import, f.export)).toBeLessThanOrEqual(tol);
  });
  if (p.terminalSoc === 'at_least_initial') expect(previous).toBeGreaterThanOrEqual(b.initialSoc * b.capacityKwh - tol);
}

async function optimise(p: DispatchProblem) {
  const outcome = await optimiseDispatch(p);
  expectFeasible(outcome.optimised);
  if (outcome.baseline) expectFeasible(outcome.baseline);
  return { outcome, report: dispatchReport(outcome, START) };
}

describe('dispatch optimisation', () => {
  it('arbitrage for a site that may not export from its battery (cost): charges cheap, serves the dear hours', async () => {
    // Prepare: lossless battery, 0.1 then 0.5 per kWh, 10 kW load. Serving hours 2-3 from the battery needs
    // 20 kWh bought at 0.1: cost 0.1 * (10 + 10 + 20) = 4.0; without the battery 0.1 * 20 + 0.5 * 20 = 12.
    const p = problem({ importPrice: [0.1, 0.1, 0.5, 0.5] });

    // Act
    const { report } = await optimise(p);

    // Assess
    const s = report.economic_summary;
    expect(s.electricity_cost).toBeCloseTo(4, 6);
    expect(s.baseline_without_battery!.net_cost).toBeCloseTo(12, 6);
    expect(s.net_benefit).toBeCloseTo(8, 6);
    expect(s.total_revenue).toBeCloseTo(0, 6);
    expect(report.dispatch_schedule.slice(2).map((r) => [r.battery_power, r.grid_power, r.action])).toEqual([
      [10, 0, 'discharge'],
      [10, 0, 'discharge'],
    ]);
    expect(report.dispatch_schedule.map((r) => r.soc)).toEqual([expect.any(Number), 0.2, 0.1, 0]);
  });

  it('arbitrage for a merchant site (revenue): also exports from the battery in the dear hours', async () => {
    // Two cheap hours at 20 kW fill 40 kWh; each dear hour discharges 20 kW: 10 to the load, 10 exported.
    // Net cost 0.1 * 30 * 2 - 0.5 * 10 * 2 = -4 against 12 without the battery: benefit 16.
    const { report } = await optimise(problem({ importPrice: [0.1, 0.1, 0.5, 0.5], objective: 'revenue' }));
    expect(report.economic_summary.net_cost).toBeCloseTo(-4, 6);
    expect(report.economic_summary.total_revenue).toBeCloseTo(10, 6);
    expect(report.economic_summary.net_benefit).toBeCloseTo(16, 6);
    expect(report.dispatch_schedule.map((r) => r.grid_power)).toEqual([30, 30, -10, -10]);
    expect(report.dispatch_schedule.map((r) => r.grid_action)).toEqual(['import', 'import', 'export', 'export']);
  });

  it('pays for round-trip losses only when the spread covers them', async () => {
    // With 81 % round trip, a kWh bought at 0.1 returns 0.81 kWh: worth it at 0.5, not at 0.12.
    const lossy = { battery: { roundtripEfficiency: 0.81 } };
    const wide = await optimise(problem({ importPrice: [0.1, 0.1, 0.5, 0.5], ...lossy }));
    expect(wide.report.economic_summary.net_benefit).toBeGreaterThan(0);
    const narrow = await optimise(problem({ importPrice: [0.1, 0.1, 0.12, 0.12], ...lossy }));
    expect(narrow.report.economic_summary.net_benefit).toBeCloseTo(0, 6);
    expect(narrow.report.dispatch_schedule.every((r) => r.action === 'idle')).toBe(true);
    expect(narrow.report.operational_insights.join(' ')).toMatch(/stays idle/);
  });

  it('stores midday solar for the evening when exports earn nothing (self-consumption)', async () => {
    // 30 kW of solar in hour 0, 10 kW load throughout, 0.3 per kWh bought, exports unpaid: 20 kWh go into the
    // battery and serve hours 1 and 2; only hour 3 is bought: 3.0 against 9.0 without the battery.
    const { report } = await optimise(problem({ solarKw: [30, 0, 0, 0], importPrice: [0.3, 0.3, 0.3, 0.3], exportPrice: [0, 0, 0, 0] }));
    expect(report.dispatch_schedule.map((r) => r.battery_power)).toEqual([-20, 10, 10, 0]);
    expect(report.economic_summary.electricity_cost).toBeCloseTo(3, 6);
    expect(report.economic_summary.net_benefit).toBeCloseTo(6, 6);
  });

  it('curtails solar that neither the export limit nor the battery can take', async () => {
    // 50 kW of solar, no load, 20 kW export limit, a 10 kW / 10 kWh battery empty at the start:
    // 20 exported, 10 charged, 20 curtailed.
    const p = problem({ solarKw: [50], loadKw: [0], importPrice: [0.2], exportLimitKw: 20, objective: 'revenue', terminalSoc: 'free', battery: { capacityKwh: 10, powerKw: 10 } });
    const { report } = await optimise(p);
    expect(report.dispatch_schedule[0]).toMatchObject({ grid_power: -20, battery_power: -10, curtailed_kw: 20, action: 'charge', grid_action: 'export' });
    expect(report.operational_insights.join(' ')).toMatch(/Curtails 20\.0 kWh of solar: export is limited to 20\.0 kW/);
  });

  it('shaves the peak when a demand charge makes it pay', async () => {
    // Load 10, 40, 10, 10 kW at a flat 0.1 and 10 per kW of peak. A 20 kW battery covers 20 of the 40 and
    // recharges in the other hours within the 20 kW peak: 0.1 * 70 + 10 * 20 = 207 against 7 + 400 = 407.
    const p = problem({ loadKw: [10, 40, 10, 10], importPrice: [0.1, 0.1, 0.1, 0.1], demandChargePerKw: 10, battery: { capacityKwh: 40, initialSoc: 0.5 } });
    const { report } = await optimise(p);
    expect(report.economic_summary.peak_import_kw).toBeCloseTo(20, 6);
    expect(report.economic_summary.electricity_cost).toBeCloseTo(207, 6);
    expect(report.economic_summary.peak_shaving_savings).toBeCloseTo(200, 6);
    expect(report.economic_summary.net_benefit).toBeCloseTo(200, 6);
    expect(report.dispatch_schedule[1].battery_power).toBeCloseTo(20, 6);
    expect(report.operational_insights.join(' ')).toMatch(/Peak import 20\.0 kW against 40\.0 kW without the battery/);
  });

  it("charges each billing period's own peak once", async () => {
    // Two periods of 4 h at 10 per kW each: 10 kW in the first, 30 kW in the second. A battery that can do
    // nothing (0.001 kW) leaves both peaks: 10 * 10 + 10 * 30 = 400, where one peak over both would be 300.
    const flat = problem({ loadKw: [10, 10, 10, 10, 30, 30, 30, 30], importPrice: Array(8).fill(0), demandPeriods: [{ start: 0, chargePerKw: 10 }, { start: 4, chargePerKw: 10 }], battery: { powerKw: 0.001 } });
    const { report } = await optimise(flat);
    expect(report.economic_summary.demand_charge).toBeCloseTo(400, 3);
    expect(report.economic_summary.demand_charge_periods!.map((x) => [x.start, x.end, x.peak_import_kw])).toEqual([
      ['2026-06-01T00:00:00.000Z', '2026-06-01T04:00:00.000Z', expect.closeTo(10, 3)],
      ['2026-06-01T04:00:00.000Z', '2026-06-01T08:00:00.000Z', expect.closeTo(30, 3)],
    ]);

    // Each period's peak at its own rate: with the second charged 20 per kW and the first 10, it pays to charge
    // 2.5 kW through the first (its peak 12.5, +25) to discharge the full 5 kW through the second (25, -100).
    const periods = [{ start: 0, chargePerKw: 10 }, { start: 4, chargePerKw: 20 }];
    const shaved = await optimise(problem({ ...flat, demandPeriods: periods, battery: { capacityKwh: 20, powerKw: 5, initialSoc: 0.5 }, terminalSoc: 'free' }));
    const [first, second] = shaved.report.economic_summary.demand_charge_periods!;
    expect(first.peak_import_kw).toBeCloseTo(12.5, 4);
    expect(second.peak_import_kw).toBeCloseTo(25, 4);
    expect(shaved.report.economic_summary.demand_charge).toBeCloseTo(10 * 12.5 + 20 * 25, 3);
    expect(shaved.report.economic_summary.peak_shaving_savings).toBeCloseTo(75, 4);
  });

  it('refuses billing periods that do not start at the first interval or are out of order', async () => {
    await expect(optimiseDispatch(problem({ demandPeriods: [{ start: 1, chargePerKw: 10 }] }))).rejects.toThrow(DispatchInputError);
    await expect(optimiseDispatch(problem({ demandPeriods: [{ start: 0, chargePerKw: 10 }, { start: 0, chargePerKw: 5 }] }))).rejects.toThrow('Demand charge period 1 is out of order');
  });

  it('never charges and discharges at once, even where negative prices would pay for burning energy', async () => {
    // Prepare: at -0.2 per kWh every kWh imported earns money. The LP alone would charge and discharge at once
    // to waste energy in round-trip losses; the binaries forbid it.
    const p = problem({ importPrice: [-0.2, -0.2, 0.3, 0.3], loadKw: [5, 5, 5, 5], objective: 'revenue', battery: { roundtripEfficiency: 0.81, capacityKwh: 30, initialSoc: 0.5 } });
    const relaxed = await solveWithHighs(buildDispatchProgram(p).lp);
    const both = (x: Float64Array, t: number) => Math.min(x[6 * t], x[6 * t + 1]);
    expect(Math.max(both(relaxed.x, 0), both(relaxed.x, 1))).toBeGreaterThan(1); // the LP does burn energy

    // Act
    const solved = await solveDispatch(p);

    // Assess
    expectFeasible(solved);
    expect(solved.solver.kind).toBe('MIP');
    expect(solved.objective).toBeGreaterThanOrEqual(relaxed.objective - 1e-9); // a restriction cannot do better
    const { report } = await optimise(p);
    // It ends the paid-to-import hours full. (It even discharges 2.7 kW in hour 0 to make room for a full
    // 20 kW charge in hour 1: 27.3 kWh imported in the two hours instead of 26.7 by filling up in hour 0.)
    expect(report.dispatch_schedule[1].soc).toBeCloseTo(1, 6);
    expect(solved.objective).toBeCloseTo(-6.51, 6);
    expect(report.operational_insights.join(' ')).toMatch(/Negative prices in 2 intervals/);
  });

  it('keeps the battery from being emptied for free at the end, unless told otherwise', async () => {
    // Flat prices, a battery half full: with the terminal floor it stays; with `free` it serves the load.
    const held = await optimise(problem({ battery: { initialSoc: 0.5 } }));
    expect(held.report.dispatch_schedule.at(-1)!.soc).toBeCloseTo(0.5, 6);
    const free = await optimise(problem({ battery: { initialSoc: 0.5 }, terminalSoc: 'free' }));
    expect(free.report.economic_summary.electricity_cost).toBeCloseTo(0, 6); // 40 kWh of load from 50 kWh stored
    const floor = await optimise(problem({ battery: { initialSoc: 0.2 }, terminalSoc: 0.4, importPrice: [0.1, 0.2, 0.3, 0.4] }));
    expect(floor.report.dispatch_schedule.at(-1)!.soc).toBeGreaterThanOrEqual(0.4 - 1e-9);
  });

  it('pays export above import only through one meter direction at a time', async () => {
    // Export earns more than import costs: without the direction binaries importing to export would pay.
    const p = problem({ importPrice: [0.1, 0.1], exportPrice: [0.3, 0.3], loadKw: [5, 5], solarKw: [10, 0], objective: 'revenue', exportLimitKw: 50 });
    const solved = await solveDispatch(p);
    expectFeasible(solved);
    expect(solved.solver.kind).toBe('MIP');
  });

  it('handles 15-minute intervals: energy per interval is a quarter of the power', async () => {
    const p = problem({ intervalMinutes: 15, importPrice: [0.1, 0.1, 0.5, 0.5] });
    const { report } = await optimise(p);
    // 10 kW for two quarters in the dear half: 5 kWh bought beforehand at 0.1.
    expect(report.economic_summary.electricity_cost).toBeCloseTo(0.1 * (2.5 + 2.5 + 5), 6);
    expect(Date.parse(report.dispatch_schedule[1].timestamp) - START).toBe(15 * 60_000);
  });
});

describe('dispatch input errors', () => {
  const rejects = (p: DispatchProblem, message: RegExp) => expect(optimiseDispatch(p)).rejects.toThrow(message);

  it('names forecasts of different lengths', () =>
    rejects(problem({ solarKw: [0, 0, 0] }), /The forecasts must have the same length: solar_forecast has 3, load_forecast has 4, price_forecast has 4/));
  it('names inverted SOC bounds', () => rejects(problem({ battery: { minSoc: 0.9, maxSoc: 0.1 } }), /battery_min_soc \(0\.9\) must be below battery_max_soc \(0\.1\)/));
  it('names an initial SOC outside the bounds', () => rejects(problem({ battery: { minSoc: 0.2, maxSoc: 0.8, initialSoc: 0.1 } }), /initial_soc \(0\.1\) is outside \[battery_min_soc 0\.2, battery_max_soc 0\.8\]/));
  it('names a terminal SOC that cannot be reached', () => rejects(problem({ terminalSoc: 1 }), /terminal_soc cannot be reached/));
  it('names a negative load', () => rejects(problem({ loadKw: [10, -1, 10, 10] }), /load_forecast\[1\] is negative/));
  it('names an efficiency above 1', () => rejects(problem({ battery: { roundtripEfficiency: 1.2 } }), /roundtrip_efficiency \(1\.2\)/));
  it('throws DispatchInputError, which the API answers with 400', () => expect(optimiseDispatch(problem({ solarKw: [] }))).rejects.toBeInstanceOf(DispatchInputError));
  it('reports an import limit the load cannot live within as infeasible', () =>
    rejects(problem({ loadKw: [30, 30, 30, 30], importLimitKw: 15, battery: { powerKw: 20, capacityKwh: 20, initialSoc: 0.5 } }), /infeasible/));
});
