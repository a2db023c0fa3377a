/**
 * Operator command for regulatory updates (ARCHITECTURE 5, flow 5): pull the configured feeds now, as the
 * daily schedule does, or list what is stored.
 *
 *   npm run regulatory -- pull
 *   npm run regulatory -- list [--region EU] [--limit 20]
 *
 * Target: the local store under DATA_DIR (default .data), or `--aws` for the deployed tables of AWS_REGION.
 * `pull` exits 1 when every configured feed failed (each named on stderr); 0 when at least one answered or
 * none is configured.
 */
import { parseArgs } from 'node:util';
import { runAgainstStore } from '../local/store-access';

const USAGE = 'usage: npm run regulatory -- <pull|list> [--region CODE] [--limit N] [--aws]';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { region: { type: 'string' }, limit: { type: 'string', default: '50' }, aws: { type: 'boolean', default: false } },
  });
  const command = positionals[0];
  if (command !== 'pull' && command !== 'list') {
    console.error(USAGE);
    return 2;
  }
  return runAgainstStore('regulatory', values.aws, async () => {
    const service = await import('../shared/services/regulatory/regulatory-updates');
    const { RegulatoryUpdatesQuery } = await import('../shared/schemas/regulatory');
    if (command === 'list') {
      console.log(JSON.stringify(await service.listUpdates(RegulatoryUpdatesQuery.parse({ region: values.region, limit: values.limit })), null, 2));
      return 0;
    }
    const summary = await service.pullRegulatoryUpdates();
    console.log(JSON.stringify(summary, null, 2));
    const failed = service.failedPull(summary);
    if (!failed.length) return 0;
    console.error(`regulatory: every feed failed: ${failed.map((f) => `${f.source} (${f.error ?? 'failed'})`).join(', ')}`);
    return 1;
  });
}

process.exit(await main());
