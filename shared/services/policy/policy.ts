/**
 * Policy intelligence (ARCHITECTURE 7): retrieval over the curated knowledge base with cited answers,
 * checklists and incentives; one policy query of the monthly quota per answer, or for the freemium path a
 * daily allowance per client address.
 */
import { config } from '../../config';
import { monthlyLimit, quotaMonth } from '../../domain/accounts/tiers';
import { answerPolicyQuery } from '../../domain/policy';
import { RateLimited } from '../../errors';
import type { PolicyComplianceRequest } from '../../schemas/policy';
import { readUsage } from '../../store/quotas-repo';
import type { Caller } from '../../access/authentication';
import { rephraseAnswer } from './policy-rephrasing';
import { withQuota } from '../../access/quota';
import { secondsUntilReset, takeDailyAllowance } from '../../access/rate-limit';

async function composeAnswer(body: PolicyComplianceRequest) {
  const { source_ids: _ids, ...result } = answerPolicyQuery(body);
  const rephrasing = result.matched ? await rephraseAnswer(result.answer) : { answer: result.answer, rephrased: false };
  return {
    ...result,
    answer: rephrasing.answer,
    rephrased: rephrasing.rephrased,
    notes: rephrasing.note ? [...result.notes, rephrasing.note] : result.notes,
  };
}

export async function answerPolicy(caller: Caller, body: PolicyComplianceRequest) {
  const result = await withQuota(caller, 'policy_queries', () => composeAnswer(body));
  const used = (await readUsage(caller.accountId, quotaMonth())).policy_queries;
  const limit = monthlyLimit(caller.tier, 'policy_queries', config().ENTERPRISE_QUOTA);
  return { status: 'success', ...result, tier_info: { tier: caller.tier, queries_used: used, queries_remaining: limit === null ? -1 : Math.max(0, limit - used) } };
}

/** The freemium path: no key; FREEMIUM_POLICY_QUERIES_PER_ADDRESS_PER_DAY per client address. */
export async function answerPolicyFreemium(address: string, body: PolicyComplianceRequest) {
  const perDay = config().FREEMIUM_POLICY_QUERIES_PER_ADDRESS_PER_DAY;
  const allowance = await takeDailyAllowance(`policy-ip:${address}`, perDay);
  if (!allowance.allowed) throw new RateLimited(secondsUntilReset(allowance));
  const result = await composeAnswer(body);
  return { status: 'success', ...result, tier_info: { tier: 'freemium', queries_used: perDay - allowance.remaining, queries_remaining: allowance.remaining } };
}
