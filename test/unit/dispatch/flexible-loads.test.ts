/**
 * Flexible loads, tariffs and receding-horizon fields of the dispatch programme, on cases whose optimum can
 * be worked out by hand (each case says how).
 */
import { optimiseDispatch, solveDispatch } from '../../../shared/domain/dispatch/optimise';
import { DispatchInputError, type DispatchProblem } from '../../../shared/domain/dispatch/problem';
import { dispatchReport } from '../../../shared/domain/dispatch/report';
import { resolveTariff } from '../../../shared/domain/dispatch/tariff';

const START = Date.parse('2026-06-01T00:00:00Z');
const sum = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);

/** A site with a battery too small to matter (1 kWh, 0.1 kW), so the flexible loads alone set the schedule. */
function problem(n: number, over: Partial<DispatchProblem> = {}): DispatchProblem {
  const price = over.importPrice ?? Array(n).fill(0.2);
  return {
    solarKw: Array(n).fill(0),
    loadKw: Array(n).fill(1),
    importPrice: price,
    exportPrice: price,
    objective: 'cost',
    intervalMinutes: 60,
    exportLimitKw: Infinity,
    importLimitKw: Infinity,
    demandChargePerKw: 0,
    terminalSoc: 'free',
    battery: { capacityKwh: 1, powerKw: 0.1, minSoc: 0, maxSoc: 1, initialSoc: 0, roundtripEfficiency: 0.81 },
    ...over,
  };
}

const window = (n: number, from: number, to: number) => Array.from({ length: n }, (_, t) => (t >= from && t < to ? 1 : 0));

describe('EV charging', () => {
  // 20 kWh by 07:00 at 7 kW from 01:00; 03:00-06:00 cost 0.10, the rest 0.30: the three cheap hours take 7 + 7 + 6.
  const price = Array.from({ length: 24 }, (_, t) => (t >= 3 && t < 6 ? 0.1 : 0.3));
  const p = problem(24, { importPrice: price, exportPrice: price, flexibleLoads: { ev: { share: window(24, 1, 7), energyKwh: 20, chargerKw: 7, deliverableAfterKwh: 0 } } });

  it('is fully charged by departure at least cost, only while plugged in', async () => {
    const s = await solveDispatch(p);
    const ev = s.flexible!.ev!;
    expect(sum(ev)).toBeCloseTo(20, 6);
    expect([...ev.slice(3, 6)].sort((a, b) => b - a)).toEqual([7, 7, 6].map((v) => expect.closeTo(v, 6)));
    expect(ev[0] + ev[1] + ev[2] + sum(ev.slice(6))).toBeCloseTo(0, 6);
    const report = dispatchReport({ optimised: s }, START);
    const summary = report.economic_summary.flexible_loads!.find((f) => f.id === 'ev')!;
    expect(summary.cost).toBeCloseTo(2.0, 6);
    const rows = report.dispatch_schedule.slice(3, 6);
    expect(sum(rows.map((r) => r.ev_kw!))).toBeCloseTo(20, 6);
    expect(sum(rows.map((r) => r.flexible_kw!))).toBeCloseTo(20, 6);
  });

  it('names a need the charger cannot meet in the window', () => {
    const tooMuch = problem(24, { flexibleLoads: { ev: { share: window(24, 1, 3), energyKwh: 20, chargerKw: 7, deliverableAfterKwh: 0 } } });
    return expect(optimiseDispatch(tooMuch)).rejects.toThrow(/ev: 20 kWh cannot be delivered.*at most 14\.000 kWh/);
  });

  it('leaves to after the horizon what full power there can still deliver', async () => {
    // Departs 5 h after the horizon: 35 kWh could still come then, so nothing must be charged now at 0.30.
    const later = problem(24, { flexibleLoads: { ev: { share: window(24, 20, 24), energyKwh: 30, chargerKw: 7, deliverableAfterKwh: 35 } } });
    const s = await solveDispatch(later);
    expect(sum(s.flexible!.ev!)).toBeCloseTo(0, 6);
  });
});

describe('deferrable loads', () => {
  // A pool pump, 1.5 kW for 4 h (6 kWh), 08:00-20:00. 09:00 alone costs 0.01; 12:00-16:00 cost 0.05; the rest 0.20.
  const price = Array.from({ length: 24 }, (_, t) => (t === 9 ? 0.01 : t >= 12 && t < 16 ? 0.05 : 0.2));
  const pump = { id: 'pool', share: window(24, 8, 20), energyKwh: 6, powerKw: 1.5, minPowerKw: 1.5, singleBlock: false, minRunIntervals: 1 };

  it('moves into the cheapest hours of its window', async () => {
    // Free to split: 09:00 and the three cheapest of 12-16 (cost 1.5 * (0.01 + 3 * 0.05) = 0.24).
    const s = await solveDispatch(problem(24, { importPrice: price, exportPrice: price, flexibleLoads: { deferrable: [pump] } }));
    const kw = s.flexible!.deferrable[0].kw;
    expect(kw[9]).toBeCloseTo(1.5, 6);
    expect(sum(kw.slice(12, 16))).toBeCloseTo(4.5, 6);
    expect(sum(kw)).toBeCloseTo(6, 6);
    expect(s.solver.kind).toBe('MIP');
    const summary = dispatchReport({ optimised: s }, START).economic_summary.flexible_loads![0];
    expect(summary.cost).toBeCloseTo(0.24, 6);
  });

  it('starts from a previous plan that no longer fits its bounds (the forecasts moved) without failing', async () => {
    // The start imports and curtails more than this programme allows; HiGHS refused such a start outright.
    const start = { flows: [{ charge: 0, discharge: 0, import: 1e4, export: 0, soc: 0, curtail: 5 }], deferrableOn: { pool: Array<number>(24).fill(1) } };
    const s = await solveDispatch(problem(24, { importPrice: price, exportPrice: price, flexibleLoads: { deferrable: [pump] } }), start);
    expect(sum(s.flexible!.deferrable[0].kw)).toBeCloseTo(6, 6);
    expect(s.flexible!.deferrable[0].kw[9]).toBeCloseTo(1.5, 6);
  });

  it('runs in one block when asked, in the cheapest block', async () => {
    // One block of 4 h: 12:00-16:00 (0.30) beats any block through 09:00 (at least 0.01 + 3 * 0.2 = 0.61).
    const s = await solveDispatch(problem(24, { importPrice: price, exportPrice: price, flexibleLoads: { deferrable: [{ ...pump, singleBlock: true }] } }));
    const kw = s.flexible!.deferrable[0].kw;
    expect(Array.from(kw.slice(12, 16))).toEqual([1.5, 1.5, 1.5, 1.5].map((v) => expect.closeTo(v, 6)));
    expect(sum(kw)).toBeCloseTo(6, 6);
  });

  it('keeps a minimum run once started', async () => {
    // Runs of at least 3 h: 09:00 alone is no longer allowed; 12-16 takes all four hours.
    const s = await solveDispatch(problem(24, { importPrice: price, exportPrice: price, flexibleLoads: { deferrable: [{ ...pump, minRunIntervals: 3 }] } }));
    const kw = s.flexible!.deferrable[0].kw;
    expect(kw[9]).toBeCloseTo(0, 6);
    expect(sum(kw.slice(12, 16))).toBeCloseTo(6, 6);
  });

  it('takes any power level up to its rating when its minimum is 0', async () => {
    // Continuous: 6 kWh at up to 1.5 kW goes wholly into 09:00 (1.5) and 12-16 (4.5), as before, but as an LP.
    const s = await solveDispatch(problem(24, { importPrice: price, exportPrice: price, flexibleLoads: { deferrable: [{ ...pump, minPowerKw: 0 }] } }));
    expect(s.solver.kind).toBe('LP');
    expect(sum(s.flexible!.deferrable[0].kw)).toBeCloseTo(6, 6);
  });
});

describe('thermal loads', () => {
  // A house at 20-22 C, 0 C outside: UA 0.2 kW/K, C 5 kWh/K, COP 3. Holding 20 C costs 0.2 * 20 / 3 = 1.33 kW.
  // Prices 0.50 from 17:00 to 21:00, else 0.10: heat stored by 17:00 (up to 22 C) carries part of the peak.
  const n = 24;
  const price = Array.from({ length: n }, (_, t) => (t >= 17 && t < 21 ? 0.5 : 0.1));
  const house = { id: 'house', uaKwPerK: 0.2, capacityKwhPerK: 5, cop: Array(n).fill(3), maxPowerKw: 4, tMinC: 20, tMaxC: 22, tInitialC: 20.5, outdoorTempC: Array(n).fill(0) };

  it('holds the comfort band and pre-heats before the price peak', async () => {
    const s = await solveDispatch(problem(n, { importPrice: price, exportPrice: price, flexibleLoads: { thermal: [house] } }));
    const h = s.flexible!.thermal[0];
    expect(h.violationKh).toBeCloseTo(0, 6);
    for (const temp of h.temperatureC) {
      expect(temp).toBeGreaterThanOrEqual(20 - 1e-6);
      expect(temp).toBeLessThanOrEqual(22 + 1e-6);
    }
    expect(h.temperatureC[16]).toBeGreaterThan(21.9);
    const holding = (0.2 * 20) / 3;
    const peakMean = sum(h.kw.slice(17, 21)) / 4;
    expect(peakMean).toBeLessThan(holding * 0.8);
    // The temperature follows the exact first-order model from its initial value.
    const a = Math.exp(-0.2 / 5);
    let temp = 20.5;
    h.kw.forEach((kw, t) => {
      temp = a * temp + (1 - a) * (0 + (3 * kw) / 0.2);
      expect(h.temperatureC[t]).toBeCloseTo(temp, 5);
    });
  });

  it('yields only where the heat pump cannot hold the band, and says by how much', async () => {
    // 2 kW of heat pump at COP 3 holds at most 0 + 6 / 0.2 = 30 C in steady state, but from 10 C the first hours are below 20.
    const cold = { ...house, tInitialC: 10 };
    const s = await solveDispatch(problem(n, { importPrice: price, exportPrice: price, flexibleLoads: { thermal: [cold] } }));
    const h = s.flexible!.thermal[0];
    expect(h.violationKh).toBeGreaterThan(0);
    expect(h.kw[0]).toBeCloseTo(4, 6);
  });
});

describe('tariffs', () => {
  it('prices each interval by the first period that covers its local time', () => {
    // 2026-06-01 is a Monday. Europe/Berlin is UTC+2 in June: 15:00Z is 17:00 local, inside the 17-20 peak.
    const t = resolveTariff(
      {
        timezone: 'Europe/Berlin',
        importPrice: 0.2,
        exportPrice: 0.05,
        periods: [
          { name: 'peak', weekdays: [1, 2, 3, 4, 5], hours: [17, 18, 19, 20], importPrice: 0.4 },
          { name: 'night', hours: [0, 1, 2, 3, 4, 5], importPrice: 0.1, exportPrice: 0 },
        ],
      },
      START,
      60,
      48,
    );
    expect(t.importPrice[15]).toBe(0.4);
    expect(t.periodName[15]).toBe('peak');
    expect(t.exportPrice[15]).toBe(0.05);
    expect(t.importPrice[22]).toBe(0.1); // 00:00 local on Tuesday
    expect(t.exportPrice[22]).toBe(0);
    expect(t.importPrice[10]).toBe(0.2);
    expect(t.periodName[10]).toBe('flat');
  });

  it('counts a monthly demand charge once in each month of a year', async () => {
    // 2025, hourly: 10 kW flat, and a 30 kW hour in the middle of each month. Without a battery's help each
    // month's peak is 30 kW, so the year pays 12 x 30 x 8 = 2,880 however the months' lengths differ.
    const start = Date.parse('2025-01-01T00:00:00Z');
    const n = 8760;
    const tariff = resolveTariff({ importPrice: 0.1, monthlyDemandChargePerKw: 8 }, start, 60, n);
    expect(tariff.demandPeriods).toHaveLength(12);
    expect(tariff.demandPeriods.every((d) => Math.abs(d.chargePerKw - 8) < 1e-9)).toBe(true);
    const load = Array<number>(n).fill(10);
    for (let m = 0; m < 12; m++) load[Math.floor((Date.UTC(2025, m, 15, 12) - start) / 3_600_000)] = 30;
    const p = problem(n, { loadKw: load, importPrice: tariff.importPrice, exportPrice: tariff.exportPrice, demandPeriods: tariff.demandPeriods, battery: { capacityKwh: 1, powerKw: 0.001, minSoc: 0, maxSoc: 1, initialSoc: 0, roundtripEfficiency: 0.81 } });
    const report = dispatchReport(await optimiseDispatch(p), start);
    const periods = report.economic_summary.demand_charge_periods!;
    expect(periods).toHaveLength(12);
    expect(periods[1]).toMatchObject({ start: '2025-02-01T00:00:00.000Z', end: '2025-03-01T00:00:00.000Z' });
    expect(report.economic_summary.baseline_without_battery!.demand_charge).toBeCloseTo(2880, 6);
    expect(report.economic_summary.demand_charge).toBeCloseTo(12 * 8 * (30 - 0.001), 3);
  });

  it('charges a TOU demand charge on the peak inside its window only', async () => {
    // On-peak 12-18 UTC at 20 per kW of the month: a 50 kW spike at 03:00 is outside it, the 12 kW at 14:00 inside.
    const n = 24;
    const tariff = resolveTariff({ importPrice: 0.1, touDemandCharges: [{ name: 'on_peak', hours: [12, 13, 14, 15, 16, 17], chargePerKw: 20 }] }, START, 60, n);
    const load = Array<number>(n).fill(5);
    load[3] = 50;
    load[14] = 12;
    const report = dispatchReport(await optimiseDispatch(problem(n, { loadKw: load, importPrice: tariff.importPrice, exportPrice: tariff.exportPrice, windowDemandCharges: tariff.windowDemandCharges })), START);
    const tou = report.economic_summary.tou_demand_charges![0];
    expect(tou.label).toBe('on_peak 2026-06');
    expect(tou.charge_per_kw).toBeCloseTo(20 / 30, 6); // one day of June's thirty
    expect(tou.baseline_peak_import_kw).toBeCloseTo(12, 9);
  });

  it('names a month outside 1 to 12 and an unknown time zone', () => {
    expect(() => resolveTariff({ importPrice: 0.1, periods: [{ months: [13], importPrice: 0.2 }] }, START, 60, 24)).toThrow(/tariff.periods\[0\].months holds 13/);
    expect(() => resolveTariff({ importPrice: 0.1, timezone: 'Mars/Olympus' }, START, 60, 24)).toThrow(DispatchInputError);
    expect(() => resolveTariff({ periods: [{ hours: [1], importPrice: 0.2 }] }, START, 60, 24)).toThrow(/no period covers interval 0/);
  });
});

describe('receding-horizon fields', () => {
  it('meets an SOC target and values the energy left at the end', async () => {
    // Flat prices: nothing to gain by cycling, but a target of 0.8 at 06:00 must be met (charged at 0.1 kW from
    // 0.2, reached only if charging starts in time), and with the end valued above the price the battery ends full.
    const p = problem(8, { battery: { capacityKwh: 1, powerKw: 0.5, minSoc: 0.1, maxSoc: 0.9, initialSoc: 0.2, roundtripEfficiency: 1 }, socTargets: [{ interval: 5, soc: 0.8, comparison: 'at_least' }] });
    const s = await solveDispatch(p);
    expect(s.flows[5].soc).toBeGreaterThanOrEqual(0.8 - 1e-9);
    const valued = await solveDispatch({ ...p, socTargets: undefined, terminalValuePerKwh: 0.3 });
    expect(valued.flows[7].soc).toBeCloseTo(0.9, 6);
  });

  it('makes a cycle pay for its wear', async () => {
    // Spread 0.10 to 0.20 at 100% efficiency: worth cycling at a wear cost of 0.05 per kWh, not at 0.15.
    const price = [0.1, 0.1, 0.2, 0.2];
    const battery = { capacityKwh: 10, powerKw: 10, minSoc: 0, maxSoc: 1, initialSoc: 0, roundtripEfficiency: 1 };
    const cheap = await solveDispatch(problem(4, { importPrice: price, exportPrice: price, battery, loadKw: [0, 0, 10, 10], degradationCostPerKwh: 0.05 }));
    const dear = await solveDispatch(problem(4, { importPrice: price, exportPrice: price, battery, loadKw: [0, 0, 10, 10], degradationCostPerKwh: 0.15 }));
    expect(sum(cheap.flows.map((f) => f.discharge))).toBeCloseTo(10, 6);
    expect(sum(dear.flows.map((f) => f.discharge))).toBeCloseTo(0, 6);
  });
});

describe('limits', () => {
  it('refuses more on/off variables than one request may schedule', () => {
    // 3 loads over a year-long window, one block each: 3 x 2 x 8,760 binaries, above MAX_FLEXIBLE_BINARIES.
    const n = 8760;
    const load = { share: Array(n).fill(1), energyKwh: 6, powerKw: 1.5, minPowerKw: 1.5, singleBlock: true, minRunIntervals: 1 };
    const p = problem(n, { flexibleLoads: { deferrable: ['a', 'b', 'c'].map((id) => ({ ...load, id })) } });
    return expect(optimiseDispatch(p)).rejects.toThrow(/deferrable_loads need 52560 on\/off variables .* at most 20000/);
  });
});
