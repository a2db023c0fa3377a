/** Registration, keys, tiers and usage (ARCHITECTURE 3). */
import { randomUUID } from 'node:crypto';
import { config } from '../../config';
import { Conflict, NotFound, RateLimited } from '../../errors';
import { generateApiKey, hashApiKey, keyHint } from '../../domain/accounts/api-key';
import { addressScope } from '../../domain/accounts/client-address';
import { QUOTA_KINDS, limitsForDisplay, limitsOf, quotaMonth, usagePercentage, type Tier, type TierLimits } from '../../domain/accounts/tiers';
import { EmailTaken, createAccount, findAccountIdByEmail, getAccount, setTier, storeKey, type Account } from '../../store/accounts-repo';
import { readUsage } from '../../store/quotas-repo';
import type { Caller, RequestOrigin } from '../../access/authentication';
import { secondsUntilReset, takeDailyAllowance } from '../../access/rate-limit';

export interface Registration {
  api_key: string;
  email: string;
  tier: Tier;
  limits: Omit<TierLimits, 'model_training_per_month'>;
  upgrade_url: string;
}

/**
 * Registration grants `free`; a paid preference is recorded for an operator to act on. With `origin` (the
 * open endpoint; an operator's command has none), each attempt counts against its address's
 * REGISTRATIONS_PER_ADDRESS_PER_DAY, so free quotas do not multiply by registering many accounts from one
 * place; an attempt refused as a duplicate e-mail counts too (it would otherwise probe for e-mails for free).
 */
export async function registerAccount(
  input: { email: string; organization?: string; use_case?: string; tier_preference?: string },
  origin?: RequestOrigin,
): Promise<Registration> {
  if (origin) await takeRegistration(origin.address);
  const account: Account = {
    account_id: randomUUID(),
    email: input.email.toLowerCase(),
    organization: input.organization ?? '',
    use_case: input.use_case ?? '',
    tier: 'free',
    tier_preference: input.tier_preference ?? 'free',
    created_at: new Date().toISOString(),
  };
  try {
    await createAccount(account);
  } catch (err) {
    if (err instanceof EmailTaken) throw new Conflict('An account with this email already exists');
    throw err;
  }
  const apiKey = await issueKey(account);
  const { model_training_per_month: _training, ...limits } = limitsForDisplay('free');
  return { api_key: apiKey, email: account.email, tier: account.tier, limits, upgrade_url: config().UPGRADE_URL };
}

async function takeRegistration(address: string): Promise<void> {
  const allowance = await takeDailyAllowance(`registrations:${addressScope(address)}`, config().REGISTRATIONS_PER_ADDRESS_PER_DAY);
  if (allowance.allowed) return;
  const reopens = new Date(allowance.reset * 1000).toISOString();
  throw new RateLimited(secondsUntilReset(allowance), `Too many registrations from this address today (at most ${allowance.limit} a day); try again after ${reopens}`);
}

/** A new key for an account; returned once, stored only as its hash. */
export async function issueKey(account: Pick<Account, 'account_id' | 'email' | 'tier'>): Promise<string> {
  const apiKey = generateApiKey();
  await storeKey(hashApiKey(apiKey), {
    account_id: account.account_id,
    email: account.email,
    tier: account.tier,
    key_hint: keyHint(apiKey),
    created_at: new Date().toISOString(),
  });
  return apiKey;
}

export async function accountByEmail(email: string): Promise<Account> {
  const id = await findAccountIdByEmail(email);
  const account = id && (await getAccount(id));
  if (!account) throw new NotFound(`No account for ${email}`);
  return account;
}

export async function changeTier(email: string, tier: Tier): Promise<Account> {
  const account = await accountByEmail(email);
  await setTier(account.account_id, tier);
  return { ...account, tier };
}

/** GET /api/usage: real counters of the current month against the caller's limits. */
export async function usageOf(caller: Caller) {
  const month = quotaMonth();
  const usage = await readUsage(caller.accountId, month);
  const limits = limitsOf(caller.tier, config().ENTERPRISE_QUOTA);
  return {
    user_email: caller.email,
    tier: caller.tier,
    current_month: month,
    usage: Object.fromEntries(QUOTA_KINDS.map((k) => [k, usage[k]])),
    limits: limitsForDisplay(caller.tier, config().ENTERPRISE_QUOTA),
    usage_percentage: {
      policy_queries: usagePercentage(usage.policy_queries, limits.policy_queries_per_month),
      forecasts: usagePercentage(usage.forecasts, limits.forecasts_per_month),
      data_cleaning: usagePercentage(usage.data_cleaning_operations, limits.data_cleaning_per_month),
    },
  };
}
