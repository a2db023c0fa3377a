/** Tiers and their monthly limits (SPEC "Limits"). */

export const TIERS = ['free', 'professional', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** Monthly counters kept per account; each quota-consuming endpoint names one. */
export const QUOTA_KINDS = ['policy_queries', 'forecasts', 'data_cleaning_operations', 'model_training_jobs'] as const;
export type QuotaKind = (typeof QUOTA_KINDS)[number];

export interface TierLimits {
  policy_queries_per_month: number;
  forecasts_per_month: number;
  data_cleaning_per_month: number;
  model_training_per_month: number;
  max_rows_per_cleaning: number;
}

/** null = unlimited. */
type Limits = { [K in keyof TierLimits]: number | null };

// Free: the spec lists no training allowance, so training is a paid feature (0).
// Enterprise: unlimited unless ENTERPRISE_QUOTA configures a number (ARCHITECTURE 3).
const BASE_LIMITS: Record<Exclude<Tier, 'enterprise'>, Limits> = {
  free: { policy_queries_per_month: 3, forecasts_per_month: 5, data_cleaning_per_month: 10, model_training_per_month: 0, max_rows_per_cleaning: 100 },
  professional: { policy_queries_per_month: 100, forecasts_per_month: 100, data_cleaning_per_month: 100, model_training_per_month: 10, max_rows_per_cleaning: 10000 },
};

/** Rows per cleaning for enterprise when monthly quotas are unlimited. */
const ENTERPRISE_MAX_ROWS = 1_000_000;

export function limitsOf(tier: Tier, enterpriseQuota = 0): Limits {
  if (tier !== 'enterprise') return BASE_LIMITS[tier];
  const monthly = enterpriseQuota > 0 ? enterpriseQuota : null;
  return {
    policy_queries_per_month: monthly,
    forecasts_per_month: monthly,
    data_cleaning_per_month: monthly,
    model_training_per_month: monthly,
    max_rows_per_cleaning: ENTERPRISE_MAX_ROWS,
  };
}

const LIMIT_OF_KIND: Record<QuotaKind, keyof TierLimits> = {
  policy_queries: 'policy_queries_per_month',
  forecasts: 'forecasts_per_month',
  data_cleaning_operations: 'data_cleaning_per_month',
  model_training_jobs: 'model_training_per_month',
};

export const monthlyLimit = (tier: Tier, kind: QuotaKind, enterpriseQuota = 0): number | null =>
  limitsOf(tier, enterpriseQuota)[LIMIT_OF_KIND[kind]];

/** The spec's `limits` object shows integers; unlimited is shown as -1 (README: choices). */
export function limitsForDisplay(tier: Tier, enterpriseQuota = 0): TierLimits {
  const l = limitsOf(tier, enterpriseQuota);
  return Object.fromEntries(Object.entries(l).map(([k, v]) => [k, v ?? -1])) as unknown as TierLimits;
}

/** Percentage 0-100 of a monthly limit used (ARCHITECTURE 9); 0 when unlimited. */
export function usagePercentage(used: number, limit: number | null): number {
  if (limit === null) return 0;
  if (limit === 0) return used > 0 ? 100 : 0;
  return Math.round((used / limit) * 10000) / 100;
}

/** "YYYY-MM" in UTC: quota months roll over at midnight UTC on the first. */
export const quotaMonth = (at: Date = new Date()): string => at.toISOString().slice(0, 7);
