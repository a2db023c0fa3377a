import { projectEconomics, roundEconomics } from '../../../shared/domain/economics';
import { round, roundOrNull } from '../../../shared/domain/rounding';

/** Decimal places of a number as JSON writes it. */
const places = (x: number) => (String(x).split('.')[1] ?? '').length;

describe('round', () => {
  it.each([
    [1.005, 2, 1.01],
    [1.0049, 2, 1],
    [-2.5, 0, -3],
    [2.5, 0, 3],
    [1097737.456207499, 2, 1097737.46],
    [0.150984, 4, 0.151],
    [-0.00001, 2, 0],
    [123.456, 0, 123],
  ])('rounds %p to %p places as %p, half away from zero', (x, decimals, expected) => {
    expect(Object.is(round(x, decimals), expected)).toBe(true);
  });

  it('passes non-finite values and null through', () => {
    expect(round(Number.POSITIVE_INFINITY, 2)).toBe(Number.POSITIVE_INFINITY);
    expect(round(Number.NaN, 2)).toBeNaN();
    expect(roundOrNull(null, 2)).toBeNull();
  });
});

describe('roundEconomics', () => {
  // Prepare: the README's solar plant, whose unrounded NPV has nine decimals.
  const exact = projectEconomics({
    project_config: { capital_cost: 1_000_000, annual_revenue: 150_000, annual_expenses: 20_000, project_lifetime: 25, discount_rate: 0.08, degradation_rate: 0.005, annual_energy_kwh: 1_400_000 },
    revenue_streams: { energy_sales: 120_000, capacity_payments: 20_000, ancillary_services: 5_000, carbon_credits: 5_000 },
    incentives: { tax_credit: 0.3, depreciation_schedule: 'macrs_5', grant_funding: 50_000 },
  });

  // Act
  const rounded = roundEconomics(exact);
  const m = rounded.financial_metrics;

  it('gives money to 2 places, rates to 4, years to 2 and lcoe to 4', () => {
    expect(places(exact.financial_metrics.npv)).toBeGreaterThan(2);
    expect(m.npv).toBe(round(exact.financial_metrics.npv, 2));
    expect(m.irr).toBe(round(exact.financial_metrics.irr!, 4));
    expect(m.roi).toBe(round(exact.financial_metrics.roi, 4));
    expect(m.payback_period).toBe(round(exact.financial_metrics.payback_period!, 2));
    expect(m.discounted_payback_period).toBe(round(exact.financial_metrics.discounted_payback_period!, 2));
    expect(m.lcoe).toBe(round(exact.financial_metrics.lcoe!, 4));
    expect(places(m.npv)).toBeLessThanOrEqual(2);
  });

  it('rounds every figure of the projection and the sensitivity table, and keeps the texts', () => {
    for (const row of rounded.cash_flow_projection) {
      for (const key of ['revenue', 'expenses', 'depreciation_tax_shield', 'tax_credit', 'cash_flow', 'cumulative', 'discounted_cash_flow'] as const) expect(places(row[key])).toBeLessThanOrEqual(2);
    }
    expect(rounded.cash_flow_projection).toHaveLength(exact.cash_flow_projection.length);
    for (const table of [rounded.sensitivity_analysis.revenue_sensitivity, rounded.sensitivity_analysis.capital_cost_sensitivity]) {
      for (const point of Object.values(table)) {
        expect(places(point.npv)).toBeLessThanOrEqual(2);
        if (point.irr !== null) expect(places(point.irr)).toBeLessThanOrEqual(4);
      }
    }
    expect(rounded.investment_recommendation).toBe(exact.investment_recommendation);
    expect(rounded.assumptions.defaults_applied).toEqual(exact.assumptions.defaults_applied);
  });
});
