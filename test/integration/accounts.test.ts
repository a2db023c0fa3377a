import { useRuntime } from '../helpers/runtime';
import { changeTier, issueKey, registerAccount, accountByEmail } from '../../shared/services/accounts/accounts';
import { authenticate, forgetCachedKeys, keyCacheStats } from '../../shared/access/authentication';
import { Conflict, Unauthorized } from '../../shared/errors';
import { hashApiKey } from '../../shared/domain/accounts/api-key';
import { findKey, revokeKey } from '../../shared/store/accounts-repo';
import { takeRequest } from '../../shared/access/rate-limit';

const email = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}@example.com`;

describe('accounts and keys against the embedded DynamoDB', () => {
  useRuntime();

  it('registers a free account whose key authenticates', async () => {
    const address = email('reg');
    const reg = await registerAccount({ email: address, tier_preference: 'enterprise' });
    expect(reg.tier).toBe('free');
    const caller = await authenticate(reg.api_key);
    expect(caller).toMatchObject({ email: address, tier: 'free', keyHash: hashApiKey(reg.api_key) });
    expect((await accountByEmail(address)).tier_preference).toBe('enterprise');
  });

  it('stores only the hash of a key', async () => {
    const reg = await registerAccount({ email: email('hash') });
    const record = await findKey(hashApiKey(reg.api_key));
    expect(JSON.stringify(record)).not.toContain(reg.api_key);
  });

  it('refuses a second account for the same email, in any case', async () => {
    const address = email('dup');
    await registerAccount({ email: address });
    await expect(registerAccount({ email: address.toUpperCase() })).rejects.toBeInstanceOf(Conflict);
  });

  it('refuses unknown, empty and oversized keys', async () => {
    await expect(authenticate('eo_live_unknown')).rejects.toBeInstanceOf(Unauthorized);
    await expect(authenticate('')).rejects.toBeInstanceOf(Unauthorized);
    await expect(authenticate('x'.repeat(300))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('serves a repeated key from memory', async () => {
    const reg = await registerAccount({ email: email('cache') });
    await authenticate(reg.api_key);
    const hits = keyCacheStats.hits;
    await authenticate(reg.api_key);
    expect(keyCacheStats.hits).toBe(hits + 1);
  });

  it('changes the tier on every key of the account', async () => {
    const address = email('tier');
    const reg = await registerAccount({ email: address });
    const second = await issueKey(await accountByEmail(address));
    await changeTier(address, 'professional');
    forgetCachedKeys();
    expect((await authenticate(reg.api_key)).tier).toBe('professional');
    expect((await authenticate(second)).tier).toBe('professional');
  });

  it('refuses a revoked key once the cache forgets it', async () => {
    const reg = await registerAccount({ email: email('revoke') });
    const caller = await authenticate(reg.api_key);
    await revokeKey(caller.accountId, caller.keyHash);
    forgetCachedKeys();
    await expect(authenticate(reg.api_key)).rejects.toBeInstanceOf(Unauthorized);
  });
});

describe('rate windows against the embedded DynamoDB', () => {
  useRuntime({ env: { RATE_LIMIT_FREE: '3' } });

  it('counts requests in a one-minute window and refuses past the limit', async () => {
    const t = Date.UTC(2026, 0, 1, 12, 0, 10);
    const subject = `test:${Math.random()}`;
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await takeRequest(subject, 'free', t));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(decisions[0].reset).toBe(Date.UTC(2026, 0, 1, 12, 1, 0) / 1000);
    expect((await takeRequest(subject, 'free', t + 60_000)).allowed).toBe(true);
  });
});
