/**
 * `npm start`: the local (and edge) runtime. PORT (default 3000), HOST (127.0.0.1), DATA_DIR (.data),
 * EDGE=1 for the edge-only routes.
 */
import path from 'node:path';
import { keepServingOnUncaughtErrors } from '../shared/local/process-guards';
import { startLocalRuntime } from '../shared/local/runtime';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
const edge = process.env.EDGE === '1';

const runtime = await startLocalRuntime({ port, host, dataDir, edge });
// After start: a runtime that cannot start should still exit with its error.
keepServingOnUncaughtErrors();
console.log(`energy-ops ${edge ? 'edge node' : 'local runtime'} listening on ${runtime.url} (data in ${dataDir})`);
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
