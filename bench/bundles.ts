/**
 * The bundles Lambda runs (lib/bundling.ts, as CDK builds them): each function's size (minified bytes) and
 * its module initialisation time, the wall time of `node -e "require(bundle)"` less that of requiring an
 * empty module, both measured in this run, interleaved, the median of RUNS each (and beside it require() alone,
 * as timed inside the process). Built fresh into a temporary directory, as a Lambda asset is, with nothing of
 * this repository above it. What fills the bundles comes from esbuild's metafile.
 * Writes bench/results/bundles.{json,md}.
 */
import { roundHalfUp } from '../shared/domain/rounding';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { buildBundles } from '../lib/bundling';
import { bundleFile } from '../local/lambda-context';
import { writeResults } from './results-files';

const RUNS = 5;
/** Targets of issue 22: at most 1 MB minified (MiB here), module initialisation under 150 ms. */
const MAX_BYTES = 1024 * 1024;
const MAX_INIT_MS = 150;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, d = 1) => roundHalfUp(x, d);
const kib = (bytes: number) => round(bytes / 1024, 0);

/** The environment a bundle initialises in: a region and credentials, nothing reachable, no logs. */
const ENV = {
  PATH: process.env.PATH,
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  LOG_LEVEL: 'silent',
};

/** One fresh process requiring `file`: its wall time, and the require() alone as timed inside it. */
function requireOnce(file: string): { wall: number; inside: number } {
  const started = performance.now();
  // Exits once the module has loaded: a timer it starts would otherwise keep the process (and this wait) alive.
  const script = 'const t = performance.now(); require(process.argv[1]); process.stdout.write(String(performance.now() - t)); process.exit(0)';
  const run = spawnSync(process.execPath, ['-e', script, file], { env: ENV, encoding: 'utf8', timeout: 30_000 });
  const wall = performance.now() - started;
  if (run.status !== 0) throw new Error(`require(${file}) failed: ${run.stderr}`);
  return { wall, inside: Number(run.stdout) };
}

/** The package an input belongs to (the innermost node_modules), or our own top folder. */
function owner(input: string): string {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return parts.slice(0, parts[0] === 'shared' ? 2 : 1).join('/');
  const name = parts[at + 1].startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
  // The SDK comes as dozens of packages; together they are one decision (bundled or not, per-command clients).
  return /^@(aws-sdk|smithy|aws-crypto|aws)\//.test(name) ? 'AWS SDK v3 (@aws-sdk, @smithy, @aws-crypto)' : name;
}

/** Bytes in each bundle by owner, from esbuild's metafile. */
function composition(metafile: Metafile): Map<string, Map<string, number>> {
  const byModule = new Map<string, Map<string, number>>();
  for (const output of Object.values(metafile.outputs)) {
    if (!output.entryPoint) continue;
    const module = output.entryPoint.replace(/^functions\//, '').replace(/\.ts$/, '');
    const owners = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) owners.set(owner(input), (owners.get(owner(input)) ?? 0) + bytesInOutput);
    byModule.set(module, owners);
  }
  return byModule;
}

export async function benchBundles(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'energy-bundles-bench-'));
  try {
    const outDir = path.join(dir, 'bundles');
    const built = await buildBundles(outDir);
    const empty = path.join(dir, 'empty.js');
    writeFileSync(empty, '');
    const composed = composition(built.metafile);

    const emptyMs: number[] = [];
    const load = loadavg()[0];
    const rows = built.modules.map((module) => {
      const file = bundleFile(outDir, module);
      const runs = Array.from({ length: RUNS }, () => {
        emptyMs.push(requireOnce(empty).wall);
        return requireOnce(file);
      });
      const owners = [...(composed.get(module) ?? [])].sort((a, b) => b[1] - a[1]);
      return { module, bytes: statSync(file).size, wall_ms: median(runs.map((r) => r.wall)), require_ms: round(median(runs.map((r) => r.inside))), top: owners.slice(0, 3).map(([name, bytes]) => ({ name, bytes })) };
    });
    const baseline = median(emptyMs);
    const measured = rows.map((r) => ({ ...r, init_ms: round(r.wall_ms - baseline) })).sort((a, b) => b.bytes - a.bytes);

    // What the bundles hold, summed over all of them: where a size reduction would have to come from.
    const totals = new Map<string, number>();
    for (const owners of composed.values()) for (const [name, bytes] of owners) totals.set(name, (totals.get(name) ?? 0) + bytes);
    const allBytes = [...totals.values()].reduce((a, b) => a + b, 0);
    const dominant = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([name, bytes]) => ({ name, share: round(bytes / allBytes, 3), mean_kib: kib(bytes / composed.size) }));

    const oversize = measured.filter((r) => r.bytes > MAX_BYTES);
    const slow = measured.filter((r) => r.init_ms >= MAX_INIT_MS);
    const out = {
      measured_at: new Date().toISOString(),
      node: process.version,
      bundles: measured.length,
      build_all_s: round(built.ms / 1000),
      runs_each: RUNS,
      empty_module_wall_ms: round(baseline),
      // The machine is shared: a load above its cores stretches every time below.
      load_average_1min: round(load, 2),
      targets: { max_bytes: MAX_BYTES, max_init_ms: MAX_INIT_MS },
      size_pass: oversize.length === 0,
      init_pass: slow.length === 0,
      dominant,
      functions: measured.map(({ module, bytes, init_ms, require_ms, top }) => ({ module, bytes, init_ms, require_ms, top })),
    };

    const largest = measured[0];
    const lines = [
      '# Bundles benchmark',
      '',
      `${out.bundles} function bundles built as CDK builds them (lib/bundling.ts: esbuild, CommonJS, target node22, minified) in ${out.build_all_s} s, then`,
      `each required in a fresh \`node -e "require(bundle)"\` (Node ${out.node}), ${RUNS} runs interleaved with an empty module; init = median wall time less the`,
      `empty module's median (${out.empty_module_wall_ms} ms, Node's own start); require = the median of require() timed inside the process.`,
      `Load average at the start: ${out.load_average_1min} on ${cpus().length} cores.`,
      '',
      `${oversize.length ? 'FAIL' : 'PASS'} size: ${oversize.length} of ${out.bundles} bundles over 1 MB (1,048,576 bytes) minified; largest ${largest.module}, ${kib(largest.bytes)} KiB.`,
      `${slow.length ? 'FAIL' : 'PASS'} init: ${slow.length} of ${out.bundles} bundles take ${MAX_INIT_MS} ms or more to initialise${slow.length ? `; slowest ${[...slow].sort((a, b) => b.init_ms - a.init_ms)[0].module}, ${Math.max(...slow.map((r) => r.init_ms))} ms` : ''}.`,
      '',
      'What the bundles hold, summed over all of them:',
      '',
      '| owner | share of all bundle bytes | mean KiB a bundle |',
      '|---|---|---|',
      ...dominant.map((d) => `| ${d.name} | ${round(d.share * 100)} % | ${d.mean_kib} |`),
      '',
      '| function | minified KiB | init ms | require ms | largest parts (KiB) |',
      '|---|---|---|---|---|',
      ...measured.map((r) => `| ${r.module} | ${kib(r.bytes)} | ${r.init_ms} | ${r.require_ms} | ${r.top.map((t) => `${t.name} ${kib(t.bytes)}`).join(', ')} |`),
      '',
    ];
    writeResults('bundles', out, lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
