import { useRuntime } from '../helpers/runtime';
import { registerAccount } from '../../shared/services/accounts/accounts';
import { authenticate, type Caller } from '../../shared/access/authentication';
import { consumeQuota, withQuota } from '../../shared/access/quota';
import { TierLimitExceeded } from '../../shared/errors';
import { readUsage } from '../../shared/store/quotas-repo';
import { quotaMonth } from '../../shared/domain/accounts/tiers';

describe('monthly quotas against the embedded DynamoDB', () => {
  useRuntime();

  async function freshCaller(): Promise<Caller> {
    const { api_key } = await registerAccount({ email: `quota-${Math.random().toString(36).slice(2)}@example.com` });
    return authenticate(api_key);
  }

  it('lets exactly 5 of 50 simultaneous requests through a limit of 5', async () => {
    const caller = await freshCaller();
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => consumeQuota(caller, 'forecasts')));
    const passed = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(passed).toHaveLength(5);
    expect(refused).toHaveLength(45);
    for (const r of refused) expect(r.reason).toBeInstanceOf(TierLimitExceeded);
    expect((await readUsage(caller.accountId, quotaMonth())).forecasts).toBe(5);
  });

  it('reports the tier, the limit and the units used when refusing', async () => {
    const caller = await freshCaller();
    for (let i = 0; i < 3; i++) await consumeQuota(caller, 'policy_queries');
    const err = await consumeQuota(caller, 'policy_queries').catch((e: TierLimitExceeded) => e);
    expect(err).toBeInstanceOf(TierLimitExceeded);
    expect((err as TierLimitExceeded).details).toEqual({ current_tier: 'free', limit: 3, used: 3 });
  });

  it('gives the unit back when the work fails, so failed requests consume nothing', async () => {
    const caller = await freshCaller();
    await expect(withQuota(caller, 'data_cleaning_operations', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect((await readUsage(caller.accountId, quotaMonth())).data_cleaning_operations).toBe(0);
    await expect(withQuota(caller, 'data_cleaning_operations', async () => 'done')).resolves.toBe('done');
    expect((await readUsage(caller.accountId, quotaMonth())).data_cleaning_operations).toBe(1);
  });

  it('refuses training to the free tier, whose allowance is 0', async () => {
    const caller = await freshCaller();
    await expect(consumeQuota(caller, 'model_training_jobs')).rejects.toBeInstanceOf(TierLimitExceeded);
  });

  it('does not limit the enterprise tier', async () => {
    const caller = { ...(await freshCaller()), tier: 'enterprise' as const };
    await Promise.all(Array.from({ length: 30 }, () => consumeQuota(caller, 'forecasts')));
    expect((await readUsage(caller.accountId, quotaMonth())).forecasts).toBe(30);
  });
});
