/**
 * `npm run bundles [-- --out DIR]`: every deployed function's bundle, built as CDK builds it (lib/bundling.ts),
 * to DIR/<module>/index.js (default .bundles) with the files it reads beside itself. Serve them with
 * `LAMBDA_BUNDLES=DIR npm start`.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildBundles, DEFAULT_BUNDLE_DIR } from '../lib/bundling';

const { values } = parseArgs({ options: { out: { type: 'string', default: DEFAULT_BUNDLE_DIR } } });
const outDir = path.resolve(values.out!);
const { modules, ms } = await buildBundles(outDir);
console.log(`${modules.length} bundles in ${outDir} (${(ms / 1000).toFixed(1)} s)`);
