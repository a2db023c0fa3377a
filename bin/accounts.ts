/**
 * Operator command line for accounts (ARCHITECTURE 3): mint a key of any tier, change a tier, show one.
 *
 *   npm run accounts -- mint --email ops@example.com --tier enterprise
 *   npm run accounts -- set-tier --email user@example.com --tier professional
 *   npm run accounts -- show --email user@example.com
 *
 * Target: the local store under DATA_DIR (default .data; the running local server's store if one is up,
 * else the store opened directly), or `--aws` for the deployed tables of AWS_REGION with the default
 * AWS credentials.
 */
import { parseArgs } from 'node:util';
import { TIERS, type Tier } from '../shared/domain/accounts/tiers';
import { runAgainstStore } from '../local/store-access';

const USAGE = `usage: npm run accounts -- <mint|set-tier|show> --email EMAIL [--tier free|professional|enterprise] [--organization NAME] [--aws]`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, tier: { type: 'string' }, organization: { type: 'string' }, aws: { type: 'boolean', default: false } },
  });
  const command = positionals[0];
  const { email } = values;
  const tier = values.tier as Tier | undefined;
  if (!command || !email || (tier && !TIERS.includes(tier)) || (command === 'set-tier' && !tier)) {
    console.error(USAGE);
    return 2;
  }
  return runAgainstStore('accounts', values.aws, async () => {
    const accounts = await import('../shared/services/accounts/accounts');
    const { readUsage } = await import('../shared/store/quotas-repo');
    const { quotaMonth } = await import('../shared/domain/accounts/tiers');
    switch (command) {
      case 'mint': {
        const address = email.toLowerCase();
        let account = await accounts.accountByEmail(address).catch(() => undefined);
        if (!account) {
          await accounts.registerAccount({ email: address, organization: values.organization ?? 'operator', use_case: 'minted by an operator', tier_preference: tier ?? 'free' });
          account = await accounts.accountByEmail(address);
        }
        if (tier && tier !== account.tier) account = await accounts.changeTier(address, tier);
        const key = await accounts.issueKey(account);
        console.log(JSON.stringify({ email: address, tier: account.tier, account_id: account.account_id, api_key: key }, null, 2));
        return 0;
      }
      case 'set-tier': {
        const account = await accounts.changeTier(email, tier!);
        console.log(JSON.stringify({ email: account.email, tier: account.tier, note: 'running servers see the change within KEY_CACHE_SECONDS' }, null, 2));
        return 0;
      }
      case 'show': {
        const account = await accounts.accountByEmail(email);
        console.log(JSON.stringify({ ...account, usage: await readUsage(account.account_id, quotaMonth()) }, null, 2));
        return 0;
      }
      default:
        console.error(USAGE);
        return 2;
    }
  });
}

process.exit(await main());
