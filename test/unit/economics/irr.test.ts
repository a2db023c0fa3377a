import { internalRateOfReturn, internalRatesOfReturn, IRR_TOLERANCE, projectEconomics } from '../../../shared/domain/economics';

describe('internal rate of return', () => {
  it('reproduces the published example of Brealey, Myers & Allen: C0 = -4000, C1 = +2000, C2 = +4000 gives 28.08%', () => {
    // Brealey, Myers & Allen, "Principles of Corporate Finance", ch. 5 ("Internal (or discounted-cash-flow)
    // rate of return"): IRR = 28.08%. By hand: with v = 1/(1 + r), 4000v^2 + 2000v - 4000 = 0,
    // v = (-1 + sqrt(17)) / 4 = 0.780776, r = 1/v - 1 = 0.280776.
    const exact = 4 / (Math.sqrt(17) - 1) - 1;

    const result = internalRateOfReturn([-4000, 2000, 4000], 0.1);

    expect(result.irr).toBeCloseTo(0.2808, 4);
    expect(Math.abs((result.irr as number) - exact)).toBeLessThan(IRR_TOLERANCE);
    expect(result.note).toBeUndefined();
  });

  it('reproduces the two IRRs of the Lorie & Savage (1955) pump: -1600, +10000, -10000 gives 25% and 400%', () => {
    // Lorie & Savage, "Three Problems in Rationing Capital", Journal of Business 28(4), 1955: the oil-pump
    // example whose NPV is zero at both 25% and 400%. By hand: 10000v^2 - 10000v + 1600 = 0, v = 0.8 or 0.2.
    const rates = internalRatesOfReturn([-1600, 10000, -10000]);

    expect(rates).toHaveLength(2);
    expect(rates[0]).toBeCloseTo(0.25, 10);
    expect(rates[1]).toBeCloseTo(4, 9);
    // Nearest the discount rate: 25% for 10%, 400% for 300%.
    expect(internalRateOfReturn([-1600, 10000, -10000], 0.1).irr).toBeCloseTo(0.25, 10);
    expect(internalRateOfReturn([-1600, 10000, -10000], 3).irr).toBeCloseTo(4, 9);
  });

  it('finds both IRRs of -100, +230, -132 (10% and 20%) and reports the one nearest the discount rate', () => {
    // 132v^2 - 230v + 100 = 0: v = (230 +- 10) / 264 = 1/1.1 or 1/1.2.
    expect(internalRatesOfReturn([-100, 230, -132]).map((r) => Number(r.toFixed(9)))).toEqual([0.1, 0.2]);

    const near18 = internalRateOfReturn([-100, 230, -132], 0.18);
    expect(near18.irr).toBeCloseTo(0.2, 10);
    expect(near18.rates).toHaveLength(2);
    expect(near18.note).toContain('the one nearest the 18.00% discount rate is reported');
  });

  it('gives the classic -100, +60, +60 an IRR of 13.07%', () => {
    // 60v^2 + 60v - 100 = 0: v = (-3 + sqrt(69)) / 6 = 0.884430, r = 0.130662.
    const exact = 6 / (Math.sqrt(69) - 3) - 1;
    const metrics = projectEconomics({
      project_config: { capital_cost: 100, annual_revenue: 60, annual_expenses: 0, project_lifetime: 2, discount_rate: 0.1, degradation_rate: 0 },
    }).financial_metrics;

    expect(metrics.irr).toBeCloseTo(0.1307, 4);
    expect(Math.abs((metrics.irr as number) - exact)).toBeLessThan(IRR_TOLERANCE);
  });

  it('finds a negative IRR when the project returns less than it cost', () => {
    // -1000 then +450, +450: 450v^2 + 450v - 1000 = 0, v = (-1 + sqrt(1 + 8.888...)) / 2 = 1.072330, r = -6.745%.
    const v = (-1 + Math.sqrt(1 + 4000 / 450)) / 2;

    expect(internalRateOfReturn([-1000, 450, 450], 0.08).irr).toBeCloseTo(1 / v - 1, 10);
    expect(1 / v - 1).toBeCloseTo(-0.06745, 5);
  });

  it('returns null with the reason when no IRR exists', () => {
    expect(internalRateOfReturn([-1000, -100, -100], 0.08)).toEqual({
      irr: null,
      rates: [],
      note: 'no cash flow is positive: NPV is negative at every discount rate, so no IRR exists',
    });
    expect(internalRateOfReturn([0, 10, 10], 0.08).note).toBe('no cash flow is negative: NPV is positive at every discount rate, so no IRR exists');
    expect(internalRateOfReturn([0, 0], 0.08).note).toMatch(/every cash flow is zero/);
    // -1 then +1000 has its IRR at 99900%, beyond the searched range.
    expect(internalRateOfReturn([-1, 1000], 0.08)).toEqual({
      irr: null,
      rates: [],
      note: 'NPV does not change sign for discount rates between -99.00% and 1000.00%, so no IRR exists in that range',
    });
  });

  it('finds a root that falls exactly on a grid point', () => {
    // -100, +110: IRR exactly 10%, a point of the 0.001 grid.
    expect(internalRatesOfReturn([-100, 110])).toHaveLength(1);
    expect(internalRateOfReturn([-100, 110], 0.05).irr).toBeCloseTo(0.1, 12);
  });
});
