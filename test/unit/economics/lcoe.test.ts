import { projectEconomics, type ProjectConfig } from '../../../shared/domain/economics';

describe('levelized cost of energy', () => {
  it('divides the discounted costs net of grant and credit by the discounted, degraded energy', () => {
    // Capital 1000, grant 100, 10% credit (100, in year 1), expenses 50 a year, 3 years at 10%,
    // 1000 kWh in year 1 degrading 10% a year (1000, 900, 810 kWh).
    // Costs: 900 + (50 - 100)/1.1 + 50/1.1^2 + 50/1.1^3 = 900 - 45.4545 + 41.3223 + 37.5657 = 933.4335
    // Energy: 1000/1.1 + 900/1.1^2 + 810/1.1^3 = 909.0909 + 743.8017 + 608.5650 = 2261.4576 kWh
    // LCOE = 933.4335 / 2261.4576 = 0.41276 per kWh.
    const costs = 900 + (50 - 100) / 1.1 + 50 / 1.1 ** 2 + 50 / 1.1 ** 3;
    const energy = 1000 / 1.1 + 900 / 1.1 ** 2 + 810 / 1.1 ** 3;

    const metrics = projectEconomics({
      project_config: { capital_cost: 1000, annual_revenue: 200, annual_expenses: 50, project_lifetime: 3, discount_rate: 0.1, degradation_rate: 0.1, annual_energy_kwh: 1000 },
      incentives: { grant_funding: 100, tax_credit: 0.1 },
    }).financial_metrics;

    expect(metrics.lcoe).toBeCloseTo(costs / energy, 12);
    expect(metrics.lcoe).toBeCloseTo(0.41276, 5);
    expect(metrics.lcoe_note).toBeUndefined();
  });

  it("equals NREL's simple LCOE (CRF x capital + fixed O&M) / annual energy for level flows without incentives", () => {
    // NREL, "Simple Levelized Cost of Energy (LCOE) Calculator Documentation": sLCOE = (capital x CRF + fixed
    // O&M) / annual energy, CRF = i(1 + i)^n / ((1 + i)^n - 1). For 7% and 20 years CRF = 0.0943929, so
    // (1000 x 0.0943929 + 20) / 2000 = 0.0571965 per kWh.
    const crf = (0.07 * 1.07 ** 20) / (1.07 ** 20 - 1);
    const config: ProjectConfig = { capital_cost: 1000, annual_revenue: 150, annual_expenses: 20, project_lifetime: 20, discount_rate: 0.07, degradation_rate: 0, annual_energy_kwh: 2000 };

    const lcoe = projectEconomics({ project_config: config }).financial_metrics.lcoe;

    expect(lcoe).toBeCloseTo((1000 * crf + 20) / 2000, 12);
    expect(lcoe).toBeCloseTo(0.0571965, 7);
  });

  it('subtracts the discounted depreciation tax shield', () => {
    // Straight line over 2 years on 1000: shield 0.21 x 500 = 105 a year.
    // Costs: 1000 + (10 - 105)/1.05 + (10 - 105)/1.05^2; energy 100/1.05 + 100/1.05^2.
    const metrics = projectEconomics({
      project_config: { capital_cost: 1000, annual_revenue: 600, annual_expenses: 10, project_lifetime: 2, discount_rate: 0.05, annual_energy_kwh: 100 },
      incentives: { depreciation_schedule: 'straight_line' },
    }).financial_metrics;
    const costs = 1000 - 95 / 1.05 - 95 / 1.05 ** 2;
    const energy = 100 / 1.05 + 100 / 1.05 ** 2;

    expect(metrics.lcoe).toBeCloseTo(costs / energy, 12);
  });

  it('is null, with the reason, without annual_energy_kwh', () => {
    const metrics = projectEconomics({
      project_config: { capital_cost: 1000, annual_revenue: 150, annual_expenses: 20, project_lifetime: 20, discount_rate: 0.07 },
    }).financial_metrics;

    expect(metrics.lcoe).toBeNull();
    expect(metrics.lcoe_note).toBe('annual_energy_kwh is required to compute LCOE');
  });
});
