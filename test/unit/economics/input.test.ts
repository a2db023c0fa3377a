import { EconomicsInputError, projectEconomics, type EconomicsInput, type ProjectConfig } from '../../../shared/domain/economics';

const base: ProjectConfig = { capital_cost: 1000, annual_revenue: 300, annual_expenses: 100, project_lifetime: 10, discount_rate: 0.08, degradation_rate: 0 };

/** The EconomicsInputError thrown for `input`, or a failure naming what happened instead. */
function errorOf(input: Omit<EconomicsInput, 'project_config'> & { project_config?: Record<string, unknown> }): EconomicsInputError {
  try {
    projectEconomics({ ...input, project_config: { ...base, ...input.project_config } as ProjectConfig });
  } catch (e) {
    if (e instanceof EconomicsInputError) return e;
    throw e;
  }
  throw new Error('no EconomicsInputError was thrown');
}

describe('economics input checks', () => {
  it('refuses annual_revenue and revenue_streams that disagree by more than 1%, naming both', () => {
    const error = errorOf({ project_config: { annual_revenue: 1000 }, revenue_streams: { energy_sales: 900, capacity_payments: 120 } });

    expect(error.name).toBe('EconomicsInputError');
    expect(error.field).toBe('project_config.annual_revenue');
    expect(error.message).toBe('project_config.annual_revenue (1000) must agree within 1% with the sum of revenue_streams (1020)');
  });

  it('requires annual_revenue when there are no revenue_streams', () => {
    expect(errorOf({ project_config: { annual_revenue: undefined } }).message).toBe('project_config.annual_revenue is required when revenue_streams is not given');
  });

  it.each([
    ['project_config.capital_cost', { project_config: { capital_cost: 0 } }, 'must be greater than 0; got 0'],
    ['project_config.annual_expenses', { project_config: { annual_expenses: -1 } }, 'must be at least 0; got -1'],
    ['project_config.project_lifetime', { project_config: { project_lifetime: 2.5 } }, 'must be a whole number of years from 1 to 60; got 2.5'],
    ['project_config.project_lifetime', { project_config: { project_lifetime: 61 } }, 'must be a whole number of years from 1 to 60; got 61'],
    ['project_config.discount_rate', { project_config: { discount_rate: -1 } }, 'must be a fraction greater than -1; got -1'],
    ['project_config.degradation_rate', { project_config: { degradation_rate: 1.5 } }, 'must be a fraction between 0 and 1; got 1.5'],
    ['project_config.tax_rate', { project_config: { tax_rate: 21 } }, 'must be a fraction between 0 and 1; got 21'],
    ['project_config.annual_energy_kwh', { project_config: { annual_energy_kwh: 0 } }, 'must be greater than 0; got 0'],
    ['project_config.capital_cost', { project_config: { capital_cost: Number.NaN } }, 'must be a finite number; got NaN'],
    ['revenue_streams.carbon_credits', { revenue_streams: { energy_sales: 300, carbon_credits: -5 } }, 'must be at least 0; got -5'],
    ['incentives.tax_credit', { incentives: { tax_credit: 30 } }, 'must be a fraction between 0 and 1; got 30'],
    ['incentives.grant_funding', { incentives: { grant_funding: 1000 } }, 'must be at least 0 and less than project_config.capital_cost (1000); got 1000'],
    ['incentives.depreciation_schedule', { incentives: { depreciation_schedule: 'macrs_3' } }, 'must be one of none, straight_line, macrs_5, macrs_7; got "macrs_3"'],
  ])('names %s when it is out of range', (field, input, detail) => {
    const error = errorOf(input as Parameters<typeof errorOf>[0]);

    expect(error.field).toBe(field);
    expect(error.message).toBe(`${field} ${detail}`);
  });

  it('accepts streams alone, null optional fields, and annual_revenue within 1% of the streams', () => {
    expect(projectEconomics({ project_config: { ...base, annual_revenue: null }, revenue_streams: { energy_sales: 250, ancillary_services: 50 } }).assumptions.year1_revenue).toBe(300);
    expect(projectEconomics({ project_config: { ...base, tax_rate: null, degradation_rate: null }, incentives: null, revenue_streams: null }).assumptions.tax_rate).toBe(0.21);
    expect(() => projectEconomics({ project_config: { ...base, annual_revenue: 1000 }, revenue_streams: { energy_sales: 1010 } })).not.toThrow();
  });
});
