/**
 * `npm run bench`: every benchmark, each writing bench/results/<name>.{json,md}. Targets are reported as
 * ratios against baselines measured in the same run, never asserted in tests.
 *   npm run bench                 all
 *   npm run bench -- ingestion    one
 *   npm run bench -- accuracy     forecast accuracy on every data set (options: bench/accuracy/index.ts)
 *   npm run bench -- pv           physical PV forecasts, inferred specs and PV latency (options: bench/pv/index.ts)
 *   npm run bench -- scale        costs against history: nowcast, training, API p99, dispatch RSS, load vs R stlf (options: bench/scale/index.ts)
 *   npm run bench -- bundles      each function's bundle: minified size and module initialisation time
 *   npm run bench -- console      the web console's compressed script size and chart render time in Chromium
 *   npm run bench -- mpc          closed-loop MPC over two weeks against perfect foresight and a day-ahead plan
 *   npm run bench -- sizing       battery sizing on a year: the LP's size against an exhaustive grid of sizes
 *   npm run bench -- latency      a year of hourly history + 48 h through the API, on series the runtime has not seen
 */
import { benchFoundation } from './foundation';
import { benchIngestion } from './ingestion';
import { benchForecasting } from './forecasting';
import { benchTraining } from './training';
import { benchOperations } from './operations';
import { benchInterpolation } from './interpolation';
import { benchDispatch } from './dispatch';
import { benchPolicy } from './policy';
import { benchSoak } from './soak';
import { benchRegulatoryList } from './regulatory-list';
import { benchAccuracy } from './accuracy/index';
import { benchPv } from './pv/index';
import { benchScale } from './scale/index';
import { benchBundles } from './bundles';
import { benchConsole } from './console';
import { benchMpc } from './mpc';
import { benchSizing } from './sizing';
import { benchLatency } from './latency';

const BENCHES: Record<string, () => Promise<void>> = { foundation: benchFoundation, ingestion: benchIngestion, forecasting: benchForecasting, training: benchTraining, operations: benchOperations, interpolation: benchInterpolation, dispatch: benchDispatch, policy: benchPolicy, 'regulatory-list': benchRegulatoryList, soak: benchSoak, accuracy: benchAccuracy, pv: benchPv, scale: benchScale, bundles: benchBundles, console: benchConsole, mpc: benchMpc, sizing: benchSizing, latency: benchLatency };

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n## ${name}`);
  await run();
}
