/**
 * `npm start`: the local (and edge) runtime. PORT (default 3000), HOST (127.0.0.1), DATA_DIR (.data),
 * EDGE=1 for the edge-only routes. LAMBDA_BUNDLES=DIR serves the functions' esbuild bundles in DIR (`npm run
 * bundles`) instead of their sources; `npm start -- --bundles` does so from .bundles (or LAMBDA_BUNDLES),
 * building them first when they are missing or older than their sources.
 */
import path from 'node:path';
import { keepServingOnUncaughtErrors } from '../local/process-guards';
import { startLocalRuntime } from '../local/runtime';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
const edge = process.env.EDGE === '1';

if (process.argv.includes('--bundles') || process.env.LAMBDA_BUNDLES) {
  // The edge node is not deployed to Lambda: its routes run in the runtime's process, with the edge state it holds.
  if (edge) throw new Error('EDGE=1 serves the sources: the edge node has no Lambda bundles');
  const { buildBundles, changedSource, DEFAULT_BUNDLE_DIR, missingBundles } = await import('../lib/bundling');
  const dir = path.resolve(process.env.LAMBDA_BUNDLES ?? DEFAULT_BUNDLE_DIR);
  const missing = missingBundles(dir);
  const changed = changedSource(dir);
  if (process.argv.includes('--bundles') && (missing || changed)) {
    console.log(`building the bundles: ${missing ?? `${changed} changed since they were built`}`);
    await buildBundles(dir);
  } else if (missing) {
    throw new Error(`LAMBDA_BUNDLES: ${missing} (npm run bundles -- --out ${dir})`);
  } else if (changed) {
    console.warn(`LAMBDA_BUNDLES: ${changed} changed since the bundles in ${dir} were built; serving them as they are`);
  }
  // Absolute, so that the worker threads, which inherit the environment, load the same files.
  process.env.LAMBDA_BUNDLES = dir;
}

const runtime = await startLocalRuntime({ port, host, dataDir, edge });
// After start: a runtime that cannot start should still exit with its error.
keepServingOnUncaughtErrors();
console.log(`energy-ops ${edge ? 'edge node' : 'local runtime'} listening on ${runtime.url} (data in ${dataDir}${process.env.LAMBDA_BUNDLES ? `, functions from the bundles in ${process.env.LAMBDA_BUNDLES}` : ''})`);
console.log(`get a key:  curl -s -X POST ${runtime.url}/api/register -H 'content-type: application/json' -d '{"email":"you@example.com","organization":"Example","use_case":"trial","tier_preference":"free"}'`);
console.log(`or mint one of any tier:  DATA_DIR=${dataDir} npm run accounts -- mint --email you@example.com --tier enterprise`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    await runtime.close();
    process.exit(0);
  });
}
