/** The local runtime with one enterprise account, for benchmarks that call the API as a customer does. */
import { startLocalRuntime, type LocalRuntime } from '../local/runtime';
import { changeTier, registerAccount } from '../shared/services/accounts/accounts';
import { forgetCachedKeys } from '../shared/access/authentication';

export async function enterpriseRuntime(tag: string, env: Record<string, string> = {}): Promise<{ runtime: LocalRuntime; apiKey: string }> {
  const runtime = await startLocalRuntime({ port: 0, env: { LOG_LEVEL: 'silent', RATE_LIMIT_ENTERPRISE: '100000', ...env } });
  const email = `bench-${tag}-${Date.now()}@example.com`;
  const { api_key } = await registerAccount({ email });
  await changeTier(email, 'enterprise');
  forgetCachedKeys();
  return { runtime, apiKey: api_key };
}
