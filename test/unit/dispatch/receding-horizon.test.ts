/** What a receding horizon keeps between calls, and how the next call reads it (worked by hand). */
import { defaultTerminalValue, gridFollowingBatteryKw, plannedSetpoint, plannedSocAt, shiftedStart, type StoredPlan } from '../../../shared/domain/dispatch/receding-horizon';

const START = Date.parse('2026-07-01T00:00:00Z');
const QUARTER = 15 * 60_000;

/** Four quarter-hours: charge 2 kW, idle, discharge 4 kW, idle, on a 10 kWh battery from 5 kWh. */
const plan: StoredPlan = {
  startMs: START,
  intervalMinutes: 15,
  charge: [2, 0, 0, 0],
  discharge: [0, 0, 4, 0],
  import: [3, 1, 0, 1],
  export: [0, 0, 0, 0],
  socKwh: [5.5, 5.5, 4.4, 4.4],
  curtail: [0, 0, 0, 0],
  capacityKwh: 10,
  deferrableOn: { pump: [1, 1, 0, 0] },
};

describe('shiftedStart', () => {
  it('lays the plan on a horizon starting one interval later, unknown beyond its end', () => {
    const start = shiftedStart(plan, { intervalMinutes: 15, loadKw: [1, 1, 1, 1, 1], battery: { capacityKwh: 10 } as never }, START + QUARTER)!;
    expect(start.flows.map((f) => f?.discharge)).toEqual([0, 4, 0, undefined, undefined]);
    expect(start.flows[0]).toEqual({ charge: 0, discharge: 0, import: 1, export: 0, soc: 5.5, curtail: 0 });
    expect(start.deferrableOn.pump).toEqual([1, 0, 0, undefined, undefined]);
  });

  it('gives nothing when the grid, the battery or the time no longer match', () => {
    const horizon = { intervalMinutes: 15, loadKw: [1, 1], battery: { capacityKwh: 10 } as never };
    expect(shiftedStart(plan, { ...horizon, intervalMinutes: 60 }, START)).toBeUndefined();
    expect(shiftedStart(plan, { ...horizon, battery: { capacityKwh: 20 } as never }, START)).toBeUndefined();
    expect(shiftedStart(plan, horizon, START + 7 * QUARTER)).toBeUndefined();
    expect(shiftedStart(plan, horizon, START + 5 * 60_000)).toBeUndefined(); // off the plan's grid
  });
});

describe('reading the plan back', () => {
  it('expects at an instant the SOC at the end of the interval before it', () => {
    expect(plannedSocAt(plan, START + QUARTER)).toBeCloseTo(0.55, 12);
    expect(plannedSocAt(plan, START + 3 * QUARTER)).toBeCloseTo(0.44, 12);
    expect(plannedSocAt(plan, START)).toBeUndefined();
    expect(plannedSocAt(plan, START + 5 * QUARTER)).toBeUndefined();
  });

  it('sets the battery power of the interval in progress until its end', () => {
    expect(plannedSetpoint(plan, START + 2 * QUARTER + 60_000)).toEqual({ startMs: START + 2 * QUARTER, endMs: START + 3 * QUARTER, batteryKw: 4, gridKw: 0, socTarget: expect.closeTo(0.44, 12) });
    expect(plannedSetpoint(plan, START + 60_000)?.batteryKw).toBe(-2);
    expect(plannedSetpoint(plan, START + 4 * QUARTER)).toBeUndefined();
  });
});

describe('defaultTerminalValue', () => {
  it('values a kWh left at the median import price after the discharge loss', () => {
    // Median of 0.1, 0.2, 0.4, 0.3 is 0.25; one-way efficiency of 0.81 is 0.9.
    expect(defaultTerminalValue({ importPrice: [0.1, 0.2, 0.4, 0.3], battery: { roundtripEfficiency: 0.81 } as never })).toBeCloseTo(0.225, 12);
    expect(defaultTerminalValue({ importPrice: [-0.1, -0.2, -0.3], battery: { roundtripEfficiency: 0.81 } as never })).toBe(0);
  });
});

describe('gridFollowingBatteryKw', () => {
  const limits = { powerKw: 5, behindTheMeter: true, dischargeableKwh: 4, chargeableKwh: 4, hours: 0.25, oneWayEfficiency: 0.9 };

  it('discharges the load the plan did not import and charges the surplus it did not export', () => {
    // Plan: import 1 kW. Measured: load 3, solar 0.5 -> the battery gives 3 - 0.5 - 1 = 1.5 kW.
    expect(gridFollowingBatteryKw(1, { loadKw: 3, solarKw: 0.5 }, limits)).toBeCloseTo(1.5, 12);
    // Plan: export 1 kW. Measured: load 1, solar 4.5 -> the battery takes 4.5 - 1 - 1 = 2.5 kW.
    expect(gridFollowingBatteryKw(-1, { loadKw: 1, solarKw: 4.5 }, limits)).toBeCloseTo(-2.5, 12);
    // Plan: charge from the grid at 3 kW import with no sun and a 1 kW load -> 2 kW into the battery.
    expect(gridFollowingBatteryKw(3, { loadKw: 1, solarKw: 0 }, limits)).toBeCloseTo(-2, 12);
  });

  it('stays within the power, the energy left to the SOC limits, and (behind the meter) the load', () => {
    expect(gridFollowingBatteryKw(0, { loadKw: 9, solarKw: 0 }, limits)).toBe(5);
    // 0.5 kWh above the floor over a quarter-hour at 0.9 one way: 0.5 x 0.9 / 0.25 = 1.8 kW.
    expect(gridFollowingBatteryKw(0, { loadKw: 4, solarKw: 0 }, { ...limits, dischargeableKwh: 0.5 })).toBeCloseTo(1.8, 12);
    // 0.45 kWh below the ceiling: 0.45 / (0.9 x 0.25) = 2 kW of charge.
    expect(gridFollowingBatteryKw(0, { loadKw: 0, solarKw: 4 }, { ...limits, chargeableKwh: 0.45 })).toBeCloseTo(-2, 12);
    // Plan exports 2 kW with no sun: behind the meter the battery covers the 1 kW load only, a merchant battery the export too.
    expect(gridFollowingBatteryKw(-2, { loadKw: 1, solarKw: 0 }, limits)).toBe(1);
    expect(gridFollowingBatteryKw(-2, { loadKw: 1, solarKw: 0 }, { ...limits, behindTheMeter: false })).toBe(3);
    expect(gridFollowingBatteryKw(0, { loadKw: 2, solarKw: 0 }, { ...limits, dischargeableKwh: 0 })).toBe(0);
  });
});
