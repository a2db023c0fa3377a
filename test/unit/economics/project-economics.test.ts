import { projectEconomics, type EconomicsInput, type ProjectConfig } from '../../../shared/domain/economics';

/** Present value of 1 a year for n years at r: (1 - (1 + r)^-n) / r. */
const annuity = (r: number, n: number) => (1 - (1 + r) ** -n) / r;

const config = (overrides: Partial<ProjectConfig> = {}): ProjectConfig => ({
  capital_cost: 1000,
  annual_revenue: 300,
  annual_expenses: 100,
  project_lifetime: 10,
  discount_rate: 0.08,
  degradation_rate: 0,
  ...overrides,
});
const run = (overrides: Partial<ProjectConfig> = {}, rest: Omit<EconomicsInput, 'project_config'> = {}) =>
  projectEconomics({ project_config: config(overrides), ...rest });

describe('projectEconomics: a level annuity', () => {
  // Prepare: capital 1000, revenue 300, expenses 100 -> a net 200 a year for 10 years, at 8%.
  const result = run();
  const metrics = result.financial_metrics;

  it('discounts the net flows: NPV = -1000 + 200 x annuity(8%, 10) = 342.016...', () => {
    // annuity(8%, 10) = (1 - 1.08^-10) / 0.08 = 6.7100814...; 200 x 6.7100814 - 1000 = 342.0163.
    expect(metrics.npv).toBeCloseTo(-1000 + 200 * annuity(0.08, 10), 9);
    expect(metrics.npv).toBeCloseTo(342.0163, 4);
  });

  it('finds the IRR that solves 200 x annuity(r, 10) = 1000 (r = 15.098%)', () => {
    expect(metrics.irr).toBeCloseTo(0.150984, 6);
    // The defining property, to the solver's tolerance: NPV at the IRR is 0.
    expect(-1000 + 200 * annuity(metrics.irr as number, 10)).toBeCloseTo(0, 7);
    expect(metrics.irr_note).toBeUndefined();
  });

  it('pays back in exactly 5 years (1000 / 200) and discounted in 6.646 years', () => {
    expect(metrics.payback_period).toBe(5);
    // Discounted: after 6 years 200 x annuity(8%, 6) = 924.58 is recovered; year 7 brings 200 / 1.08^7 = 116.70.
    const recoveredAfter6 = 200 * annuity(0.08, 6);
    expect(metrics.discounted_payback_period).toBeCloseTo(6 + (1000 - recoveredAfter6) / (200 / 1.08 ** 7), 10);
    expect(metrics.discounted_payback_period).toBeCloseTo(6.6463, 4);
  });

  it('computes ROI as (10 x 200 - 1000) / 1000 = 1.0', () => {
    expect(metrics.roi).toBe(1);
  });

  it('projects years 0..10 with year 0 the investment and each cumulative the previous plus cash_flow', () => {
    const rows = result.cash_flow_projection;

    expect(rows.map((r) => r.year)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(rows[0]).toEqual({ year: 0, revenue: 0, expenses: 0, depreciation_tax_shield: 0, tax_credit: 0, cash_flow: -1000, cumulative: -1000, discounted_cash_flow: -1000 });
    expect(rows[1]).toMatchObject({ revenue: 300, expenses: 100, cash_flow: 200, cumulative: -800 });
    expect(rows[1].discounted_cash_flow).toBeCloseTo(200 / 1.08, 12);
    expect(rows[10].cumulative).toBe(1000);
    for (let i = 1; i < rows.length; i++) expect(rows[i].cumulative).toBe(rows[i - 1].cumulative + rows[i].cash_flow);
    // The NPV is the sum of the discounted column.
    expect(rows.reduce((s, r) => s + r.discounted_cash_flow, 0)).toBeCloseTo(metrics.npv, 9);
  });

  it('says LCOE needs energy', () => {
    expect(metrics.lcoe).toBeNull();
    expect(metrics.lcoe_note).toBe('annual_energy_kwh is required to compute LCOE');
  });

  it('lists the defaults it applied', () => {
    expect(result.assumptions).toMatchObject({
      tax_rate: 0.21,
      tax_rate_source: 'default: US federal corporate income tax rate, 26 U.S.C. 11(b)',
      depreciation_schedule: 'none',
      depreciable_basis: 1000,
      net_investment: 1000,
      year1_revenue: 300,
      year1_energy_revenue: 300,
      expense_escalation: 0,
    });
    expect(result.assumptions.defaults_applied).toEqual(
      expect.arrayContaining(['project_config.tax_rate', 'project_config.expense_escalation', 'incentives.tax_credit', 'incentives.grant_funding', 'incentives.depreciation_schedule']),
    );
    expect(result.assumptions.defaults_applied).not.toContain('project_config.degradation_rate');
    expect(result.assumptions.cash_flow_timing).toMatch(/^end of year/);
  });
});

describe('projectEconomics: edge cases of the metrics', () => {
  it('gives no IRR, with a reason, when every yearly flow is negative', () => {
    // Revenue 100, expenses 200: -100 a year after the -1000 investment.
    const metrics = run({ annual_revenue: 100, annual_expenses: 200 }).financial_metrics;

    expect(metrics.irr).toBeNull();
    expect(metrics.irr_note).toBe('no cash flow is positive: NPV is negative at every discount rate, so no IRR exists');
    expect(metrics.npv).toBeCloseTo(-1000 - 100 * annuity(0.08, 10), 9); // -1671.008
    expect(metrics.payback_period).toBeNull();
    expect(metrics.discounted_payback_period).toBeNull();
    expect(metrics.roi).toBe(-2); // (-1000 - 10 x 100) / 1000
  });

  it('interpolates payback within the year: 1000 at 300 a year is 3 + 100/300 years', () => {
    // After 3 years 900 is recovered; the remaining 100 takes 100/300 of year 4.
    const metrics = run({ annual_revenue: 300, annual_expenses: 0 }).financial_metrics;

    expect(metrics.payback_period).toBeCloseTo(3 + 1 / 3, 12);
  });

  it('reduces the investment by the grant: year 0 is -(capital - grant) and ROI is over the net investment', () => {
    const result = run({}, { incentives: { grant_funding: 200 } });

    expect(result.cash_flow_projection[0].cash_flow).toBe(-800);
    expect(result.financial_metrics.npv).toBeCloseTo(-800 + 200 * annuity(0.08, 10), 9);
    expect(result.financial_metrics.payback_period).toBe(4); // 800 / 200
    expect(result.financial_metrics.roi).toBe((2000 - 800) / 800);
  });

  it('reports the IRR nearest the discount rate, with a note, when flows change sign twice', () => {
    // Flows -100, +230, -132 (revenue 330; expenses 100 then 100 x 4.62 = 462): NPV = 0 at 10% and 20%,
    // since 132v^2 - 230v + 100 = 0 gives v = 1/1.1 and v = 1/1.2.
    const metrics = run({ capital_cost: 100, annual_revenue: 330, annual_expenses: 100, expense_escalation: 3.62, project_lifetime: 2 }).financial_metrics;

    expect(metrics.irr).toBeCloseTo(0.1, 10);
    expect(metrics.irr_note).toMatch(/2 rates make NPV zero \(10\.00%, 20\.00%\); the one nearest the 8\.00% discount rate is reported/);
    // -100 + 230/1.08 - 132/1.08^2 = -0.2058: negative although the reported IRR exceeds the discount rate.
    expect(metrics.npv).toBeCloseTo(-100 + 230 / 1.08 - 132 / 1.08 ** 2, 10);
    // The cumulative flow is +130 after year 1 but ends at -2: never paid back.
    expect(metrics.payback_period).toBeNull();
  });
});

describe('projectEconomics: revenue, degradation and expenses', () => {
  it('degrades energy sales only: year-3 revenue = energy_sales x (1 - d)^2 + the other streams', () => {
    const result = run(
      { annual_revenue: undefined, degradation_rate: 0.005 },
      { revenue_streams: { energy_sales: 1000, capacity_payments: 120, ancillary_services: 50, carbon_credits: 30 } },
    );

    expect(result.cash_flow_projection[1].revenue).toBe(1200);
    expect(result.cash_flow_projection[3].revenue).toBeCloseTo(1000 * 0.995 ** 2 + 200, 10); // 1190.025
    expect(result.assumptions.year1_revenue).toBe(1200);
    expect(result.assumptions.year1_energy_revenue).toBe(1000);
  });

  it('degrades all of annual_revenue when no streams are given', () => {
    const rows = run({ annual_revenue: 300, degradation_rate: 0.01 }).cash_flow_projection;

    expect(rows[3].revenue).toBeCloseTo(300 * 0.99 ** 2, 10);
    expect(rows[10].revenue).toBeCloseTo(300 * 0.99 ** 9, 10);
  });

  it('escalates expenses by (1 + g)^(year - 1)', () => {
    const rows = run({ expense_escalation: 0.025 }).cash_flow_projection;

    expect(rows[1].expenses).toBe(100);
    expect(rows[4].expenses).toBeCloseTo(100 * 1.025 ** 3, 10);
  });

  it('uses the streams when annual_revenue agrees with their sum within 1%', () => {
    const result = run({ annual_revenue: 1000 }, { revenue_streams: { energy_sales: 900, capacity_payments: 109 } });

    expect(result.cash_flow_projection[1].revenue).toBe(1009);
  });
});

describe('projectEconomics: tax credit and depreciation', () => {
  it('pays the credit in year 1 and the MACRS 5-year shield by year on the basis less half the credit', () => {
    // Basis = 1000 - 0.5 x 300 = 850 (26 U.S.C. 50(c)(3)); shield = 0.21 x 850 x MACRS %.
    const result = run({}, { incentives: { tax_credit: 0.3, depreciation_schedule: 'macrs_5' } });
    const rows = result.cash_flow_projection;
    const shield = rows.map((r) => r.depreciation_tax_shield);

    expect(result.assumptions.depreciable_basis).toBe(850);
    expect(rows[1].tax_credit).toBe(300);
    expect(rows[2].tax_credit).toBe(0);
    expect(shield[1]).toBeCloseTo(0.21 * 850 * 0.2, 10); // 35.7
    expect(shield[2]).toBeCloseTo(0.21 * 850 * 0.32, 10); // 57.12
    expect(shield[3]).toBeCloseTo(0.21 * 850 * 0.192, 10); // 34.272
    expect(shield[4]).toBeCloseTo(0.21 * 850 * 0.1152, 10); // 20.5632
    expect(shield[5]).toBeCloseTo(0.21 * 850 * 0.1152, 10);
    expect(shield[6]).toBeCloseTo(0.21 * 850 * 0.0576, 10); // 10.2816
    expect(shield.slice(7)).toEqual([0, 0, 0, 0]);
    expect(shield.reduce((s, x) => s + x, 0)).toBeCloseTo(0.21 * 850, 10); // 178.5
    expect(rows[1].cash_flow).toBeCloseTo(200 + 300 + 35.7, 10);
  });

  it('uses the stated tax rate for the shield', () => {
    const rows = run({ tax_rate: 0.3 }, { incentives: { depreciation_schedule: 'straight_line' } }).cash_flow_projection;

    // Straight line over the 10-year lifetime: 1000 / 10 = 100 a year, shield 0.3 x 100.
    expect(rows.slice(1).map((r) => r.depreciation_tax_shield)).toEqual(new Array(10).fill(30));
  });
});

describe('projectEconomics: sensitivity and recommendation', () => {
  const result = run({ degradation_rate: 0.005 }, { incentives: { tax_credit: 0.3, depreciation_schedule: 'macrs_7', grant_funding: 50 } });
  const { revenue_sensitivity, capital_cost_sensitivity } = result.sensitivity_analysis;
  const labels = ['-20%', '-10%', '+10%', '+20%'] as const;

  it('has the four labels in order, each with an npv and an irr', () => {
    expect(Object.keys(revenue_sensitivity)).toEqual([...labels]);
    expect(Object.keys(capital_cost_sensitivity)).toEqual([...labels]);
  });

  it('NPV and IRR rise with revenue and fall with capital cost, around the base case', () => {
    const base = result.financial_metrics;
    const revenueNpv = [revenue_sensitivity['-20%'].npv, revenue_sensitivity['-10%'].npv, base.npv, revenue_sensitivity['+10%'].npv, revenue_sensitivity['+20%'].npv];
    const capitalNpv = [capital_cost_sensitivity['-20%'].npv, capital_cost_sensitivity['-10%'].npv, base.npv, capital_cost_sensitivity['+10%'].npv, capital_cost_sensitivity['+20%'].npv];
    const revenueIrr = labels.map((l) => revenue_sensitivity[l].irr as number);

    for (let i = 1; i < 5; i++) {
      expect(revenueNpv[i]).toBeGreaterThan(revenueNpv[i - 1]);
      expect(capitalNpv[i]).toBeLessThan(capitalNpv[i - 1]);
    }
    for (let i = 1; i < 4; i++) expect(revenueIrr[i]).toBeGreaterThan(revenueIrr[i - 1]);
    // NPV is linear in revenue: the +-10% steps are equal.
    expect(revenueNpv[3] - revenueNpv[2]).toBeCloseTo(revenueNpv[2] - revenueNpv[1], 8);
  });

  it('matches a hand computation at -20% revenue of the annuity case', () => {
    // Revenue 240, expenses 100: -1000 + 140 x annuity(8%, 10) = -60.589.
    expect(run().sensitivity_analysis.revenue_sensitivity['-20%'].npv).toBeCloseTo(-1000 + 140 * annuity(0.08, 10), 9);
    // Capital 800: -800 + 200 x annuity = 542.016.
    expect(run().sensitivity_analysis.capital_cost_sensitivity['-20%'].npv).toBeCloseTo(-800 + 200 * annuity(0.08, 10), 9);
  });

  it('calls a positive NPV that turns negative at -20% revenue marginal, and says why', () => {
    expect(run().investment_recommendation).toBe(
      'Marginal: NPV of 342.02 at the 8.00% discount rate is positive; IRR of 15.10% is above the discount rate; ' +
        'simple payback takes 5.0 years of the 10-year lifetime; NPV is not positive (-60.59) with revenue 20% lower.',
    );
  });

  it('recommends a project whose NPV survives 20% less revenue', () => {
    // Revenue 400 -> -20% is 320, net 220: -1000 + 220 x 6.7101 = 476.22 > 0.
    expect(run({ annual_revenue: 400 }).investment_recommendation).toMatch(/^Recommended: NPV of 1013\.02 .*NPV stays positive \(476\.22\) with revenue 20% lower\.$/);
  });

  it('does not recommend a project with a negative NPV', () => {
    const text = run({ annual_revenue: 100, annual_expenses: 200 }).investment_recommendation;

    expect(text).toMatch(/^Not recommended: NPV of -1671\.01 at the 8\.00% discount rate is negative; there is no IRR \(no cash flow is positive/);
    expect(text).toContain('the investment is not paid back within the 10-year lifetime');
  });
});
