/**
 * Battery sizing (shared/domain/dispatch/sizing.ts) on sites whose best size can be worked out by hand: no
 * battery where spreads cannot repay it, and the capacity that just covers a daily spread where they can.
 */
import type { DispatchProblem } from '../../../shared/domain/dispatch/problem';
import { annuityFactor, capexFactor, NEIGHBOUR_STEP, sizeBattery, SMALLEST_COMPARED_SHARE, type SizingFinance } from '../../../shared/domain/dispatch/sizing';
import { projectEconomics } from '../../../shared/domain/economics';

const DAYS = 30;
const n = 24 * DAYS;

/** A behind-the-meter site at 10 kW constant load, no PV, priced by hour of day. */
function site(priceAt: (hour: number) => number, solar: (hour: number) => number = () => 0): DispatchProblem {
  const prices = Array.from({ length: n }, (_, t) => priceAt(t % 24));
  return {
    solarKw: Array.from({ length: n }, (_, t) => solar(t % 24)),
    loadKw: Array(n).fill(10),
    importPrice: prices,
    exportPrice: Array(n).fill(0),
    battery: { capacityKwh: 1, powerKw: 1, minSoc: 0.1, maxSoc: 0.9, initialSoc: 0.5, roundtripEfficiency: 0.9 },
    objective: 'cost',
    intervalMinutes: 60,
    exportLimitKw: Infinity,
    importLimitKw: Infinity,
    demandChargePerKw: 0,
    terminalSoc: 'at_least_initial',
  };
}

const FINANCE: SizingFinance = { project: { project_lifetime: 10, discount_rate: 0.05, degradation_rate: 0, annual_expenses: 0 } };
const BOUNDS = { maxEnergyKwh: 400, maxPowerKw: 40 };

describe('annualisation', () => {
  it('is the present value of degrading savings and the net cost of a unit of investment', () => {
    // 3 years at 10%, 20% degradation: 1/1.1 + 0.8/1.21 + 0.64/1.331.
    expect(annuityFactor({ project_lifetime: 3, discount_rate: 0.1, degradation_rate: 0.2, annual_expenses: 0 })).toBeCloseTo(1 / 1.1 + 0.8 / 1.21 + 0.64 / 1.331, 12);
    // A 30% credit in year 1 and straight-line depreciation of 85% of the cost over 2 years at a 20% tax rate.
    const finance: SizingFinance = { project: { project_lifetime: 2, discount_rate: 0.1, annual_expenses: 0, tax_rate: 0.2 }, incentives: { tax_credit: 0.3, depreciation_schedule: 'straight_line' } };
    expect(capexFactor(finance)).toBeCloseTo(1 - 0.3 / 1.1 - 0.2 * 0.425 * (1 / 1.1 + 1 / 1.21), 12);
    // Which is what the economics module charges: NPV of a project with no revenue is -capital x factor.
    const npv = projectEconomics({ project_config: { ...finance.project, capital_cost: 1000, annual_revenue: 0 }, incentives: finance.incentives }).financial_metrics.npv;
    expect(npv).toBeCloseTo(-1000 * capexFactor(finance), 9);
  });
});

describe('sizeBattery', () => {
  it('returns no battery when the price is flat and there is no solar surplus', async () => {
    // Prepare: one price all day, PV below the load, so storing energy only loses 10% of it.
    const p = site(() => 0.2, (h) => (h >= 8 && h < 16 ? 5 : 0));

    // Act
    const result = await sizeBattery(p, FINANCE, { costPerKwh: 300, costPerKw: 100 }, BOUNDS);

    // Assess
    expect(result.chosen).toMatchObject({ energyKwh: 0, powerKw: 0, npv: 0, annualSavings: 0 });
    expect(result.lpSize.energyKwh).toBeLessThan(1e-6);
    expect(result.zeroReason).toMatch(/do not repay the battery/);
    // Compared with the smallest size: 1/20 of the bounds (20 kWh, 2 kW) saves nothing and costs 300 x 20 + 100 x 2.
    const [none, smallest] = result.compared;
    expect(none).toMatchObject({ role: 'no_battery', npv: 0 });
    expect(smallest).toMatchObject({ role: 'larger', energyKwh: 400 * SMALLEST_COMPARED_SHARE, powerKw: 40 * SMALLEST_COMPARED_SHARE, capitalCost: 6200 });
    expect(smallest.annualSavings).toBeCloseTo(0, 6);
    expect(smallest.npv).toBeCloseTo(-6200, 4);
    expect(result.chosenIsBest).toBe(true);
  });

  it('sizes the battery to cover a large daily spread, and its NPV beats no battery and both neighbours', async () => {
    // Prepare: 0.05 per kWh from 00:00 to 12:00, 0.50 from 12:00 to 24:00; cheap storage.
    const p = site((h) => (h < 12 ? 0.05 : 0.5));
    const costs = { costPerKwh: 100, costPerKw: 50 };

    // Act
    const result = await sizeBattery(p, FINANCE, costs, BOUNDS);

    // Assess: by hand. The expensive half-day's load is 12 h x 10 kW = 120 kWh at the meter, 120 / sqrt(0.9)
    // kWh from the cells: the usable 80% of capacity holds exactly that. Charging 120 / 0.9 kWh in 12 cheap
    // hours needs 11.11 kW. Discharging faster than the load earns nothing (only solar may be exported).
    const energy = 120 / Math.sqrt(0.9) / 0.8;
    const power = 120 / 0.9 / 12;
    expect(result.chosen.energyKwh).toBeCloseTo(energy, 2);
    expect(result.chosen.powerKw).toBeCloseTo(power, 3);
    // Over 30 days from half full back to half full: day 1 charges only 0.4 E, the last day discharges only 0.4 E.
    const stored = 0.4 * energy;
    const horizonSavings = 0.5 * (29 * 120 + stored * Math.sqrt(0.9)) - 0.05 * (stored / Math.sqrt(0.9) + 29 * (120 / 0.9));
    const annualSavings = (horizonSavings * 365) / DAYS;
    expect(result.chosen.annualSavings).toBeCloseTo(annualSavings, 2);
    const capital = 100 * energy + 50 * power;
    const annuity = (1 - 1.05 ** -10) / 0.05;
    expect(result.chosen.npv).toBeCloseTo(annualSavings * annuity - capital, 1);
    expect(result.chosen.economics?.financial_metrics.npv).toBe(result.chosen.npv);
    expect(result.chosen.irr).toBeGreaterThan(0.05);

    // Neighbours: energy and power / and x 1.25.
    const byRole = Object.fromEntries(result.compared.map((c) => [c.role, c]));
    expect(byRole.smaller.energyKwh).toBeCloseTo(result.chosen.energyKwh / NEIGHBOUR_STEP, 9);
    expect(byRole.larger.powerKw).toBeCloseTo(result.chosen.powerKw * NEIGHBOUR_STEP, 9);
    for (const other of [byRole.no_battery, byRole.smaller, byRole.larger]) expect(result.chosen.npv).toBeGreaterThan(other.npv + 1);
    expect(result.chosenIsBest).toBe(true);
    expect(result.atBound).toEqual({ energy: false, power: false });
  });

  it('answers no battery when fixed O&M outweighs the best size', async () => {
    // The same spread, but a yearly cost the size does not change and the savings (about 19,000) cannot carry.
    const p = site((h) => (h < 12 ? 0.05 : 0.5));
    const finance = { project: { ...FINANCE.project, annual_expenses: 25_000 } };
    const result = await sizeBattery(p, finance, { costPerKwh: 100, costPerKw: 50 }, BOUNDS);
    expect(result.lpSize.energyKwh).toBeGreaterThan(100);
    expect(result.chosen).toMatchObject({ energyKwh: 0, npv: 0 });
    expect(result.zeroReason).toMatch(/annual_expenses/);
    expect(result.compared.find((c) => c.role === 'chosen')!.npv).toBeLessThan(0);
  });
});
