/**
 * Monthly tier quotas. `withQuota` is what a quota-consuming endpoint calls: one unit is taken before
 * the work (atomically, so concurrent requests cannot pass the limit) and given back if the work fails,
 * so a refused or failed request consumes nothing (ARCHITECTURE 9).
 */
import { config } from '../config';
import { TierLimitExceeded } from '../errors';
import { monthlyLimit, quotaMonth, type QuotaKind } from '../domain/accounts/tiers';
import { decrement, incrementWithinLimit, readUsage } from '../store/quotas-repo';
import type { Caller } from './authentication';

const LABEL: Record<QuotaKind, string> = {
  policy_queries: 'policy queries',
  forecasts: 'forecasts',
  data_cleaning_operations: 'data cleaning operations',
  model_training_jobs: 'model training jobs',
};

/** Takes `amount` units or throws TierLimitExceeded with the spec's structured details. */
export async function consumeQuota(caller: Caller, kind: QuotaKind, amount = 1): Promise<void> {
  const limit = monthlyLimit(caller.tier, kind, config().ENTERPRISE_QUOTA);
  const month = quotaMonth();
  const after = await incrementWithinLimit(caller.accountId, month, kind, limit, amount);
  if (after !== null) return;
  const used = (await readUsage(caller.accountId, month))[kind];
  throw new TierLimitExceeded(`Monthly limit of ${limit} ${LABEL[kind]} reached for the ${caller.tier} tier`, {
    current_tier: caller.tier,
    limit,
    used,
  });
}

export async function refundQuota(caller: Caller, kind: QuotaKind, amount = 1): Promise<void> {
  await decrement(caller.accountId, quotaMonth(), kind, amount);
}

export async function withQuota<T>(caller: Caller, kind: QuotaKind, work: () => Promise<T>, amount = 1): Promise<T> {
  await consumeQuota(caller, kind, amount);
  try {
    return await work();
  } catch (err) {
    await refundQuota(caller, kind, amount);
    throw err;
  }
}
