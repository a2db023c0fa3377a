import { limitsForDisplay, limitsOf, monthlyLimit, quotaMonth, usagePercentage } from '../../shared/domain/accounts/tiers';

describe('tier limits', () => {
  it('gives the free tier the limits of the spec', () => {
    expect(limitsOf('free')).toEqual({ policy_queries_per_month: 3, forecasts_per_month: 5, data_cleaning_per_month: 10, model_training_per_month: 0, max_rows_per_cleaning: 100 });
  });

  it('gives the professional tier the limits of the spec', () => {
    expect(limitsOf('professional')).toEqual({ policy_queries_per_month: 100, forecasts_per_month: 100, data_cleaning_per_month: 100, model_training_per_month: 10, max_rows_per_cleaning: 10000 });
  });

  it('leaves enterprise unlimited unless a quota is configured', () => {
    expect(monthlyLimit('enterprise', 'forecasts')).toBeNull();
    expect(monthlyLimit('enterprise', 'forecasts', 500)).toBe(500);
    expect(limitsForDisplay('enterprise').forecasts_per_month).toBe(-1);
  });

  it('maps each quota kind to its monthly limit', () => {
    expect(monthlyLimit('free', 'policy_queries')).toBe(3);
    expect(monthlyLimit('free', 'data_cleaning_operations')).toBe(10);
    expect(monthlyLimit('professional', 'model_training_jobs')).toBe(10);
  });
});

describe('usage percentage', () => {
  it('is a percentage of the limit, rounded to two decimals', () => {
    expect(usagePercentage(1, 3)).toBe(33.33);
    expect(usagePercentage(5, 5)).toBe(100);
    expect(usagePercentage(0, 10)).toBe(0);
  });

  it('is 0 when unlimited and 100 when a zero allowance was used', () => {
    expect(usagePercentage(40, null)).toBe(0);
    expect(usagePercentage(0, 0)).toBe(0);
    expect(usagePercentage(1, 0)).toBe(100);
  });
});

describe('quota month', () => {
  it('rolls over at midnight UTC on the first', () => {
    expect(quotaMonth(new Date('2026-01-31T23:59:59Z'))).toBe('2026-01');
    expect(quotaMonth(new Date('2026-02-01T00:00:00Z'))).toBe('2026-02');
  });
});
