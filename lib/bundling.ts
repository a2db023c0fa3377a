/**
 * How a function module becomes the bundle Lambda runs, defined once: CDK's NodejsFunction is given these
 * options (lib/api/service-function.ts), and `npm run bundles` builds the same bundles with the same esbuild
 * (bin/build-bundles.ts) for the local runtime to serve (LAMBDA_BUNDLES, local/lambda-context.ts).
 * test/infra/bundles.test.ts checks that both builds write the same bytes.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions, Metafile } from 'esbuild';
import { PIPELINES, type Pipelines } from '../shared/pipelines';
import { handlerModules, ROUTES, type Route } from '../shared/routes';
import { bundleFile } from '../local/lambda-context';

/**
 * The esbuild options of every function bundle. NodejsFunction adds `--bundle --platform=node`, writes
 * `index.js` for CommonJS, and marks nothing external because the SDK is bundled (`bundleAwsSDK`).
 * Zod is imported as a namespace (`import * as z`) everywhere, so that esbuild can leave out its 50 locales.
 */
export const BUNDLE_OPTIONS = {
  // The Lambda runtime (nodejs22.x); the bundles also load in Node 20, which the local runtime and CI use.
  target: 'node22',
  // CommonJS: esbuild turns ESM-only packages (@middy/core) into it, and CommonJS packages keep their
  // require() of Node built-ins, which an ESM bundle would need a createRequire banner for.
  format: 'cjs',
  minify: true,
  // Packages' ES module builds first: esbuild can drop what a bundle does not use from them (most of the SDK's
  // CommonJS build stays in whole).
  mainFields: ['module', 'main'],
  // moment-timezone's index inlines 700 KB of zone data; its core reads the same data on first use
  // (shared/domain/forecasting/holiday-calendars.cjs).
  alias: { 'moment-timezone': 'moment-timezone/moment-timezone' },
  sourcemap: true,
  // Stack traces map to file and line without shipping the sources themselves.
  sourcesContent: false,
  // esbuild's per-bundle size summary is noise in synth and test output; its warnings still show.
  logLevel: 'warning',
} as const satisfies BuildOptions;

/**
 * Files read from beside the bundle at run time, by the source file that reads them: what esbuild cannot inline
 * (HiGHS's WebAssembly, Swagger UI's script and style) and package data read on first use instead of bundled
 * (shared/package-data.cjs). Paths are relative to the project root.
 */
export const FILES_BY_READER: Readonly<Record<string, readonly string[]>> = {
  'shared/domain/dispatch/highs-module.cjs': ['node_modules/highs/build/highs.wasm'],
  'shared/openapi/docs-page.ts': ['node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'node_modules/swagger-ui-dist/swagger-ui.css'],
  'shared/domain/locations/resolve-location.ts': ['node_modules/city-timezones/data/cityMap.json'],
  'shared/domain/forecasting/holiday-calendars.cjs': ['node_modules/date-holidays/data/holidays.json', 'node_modules/moment-timezone/data/packed/latest.json'],
};

/** A relative import, re-export or require of a source file; `import type` and `export type` lines load nothing. */
const RELATIVE_IMPORT = /^\s*(?:import|export)\s+(?!type\s)[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]|require\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;

const importGraphs = new Map<string, Map<string, string[]>>();

/** The source files (relative to the root) that `file` imports, read once per process. */
function importsOf(root: string, file: string): string[] {
  let graph = importGraphs.get(root);
  if (!graph) importGraphs.set(root, (graph = new Map()));
  let imports = graph.get(file);
  if (!imports) {
    const text = readFileSync(path.join(root, file), 'utf8');
    imports = [...text.matchAll(RELATIVE_IMPORT)].flatMap((m) => {
      const target = path.join(path.dirname(file), m[1] ?? m[2] ?? m[3]);
      const found = [target, `${target}.ts`, path.join(target, 'index.ts')].find((f) => /\.(ts|cjs|js)$/.test(f) && existsSync(path.join(root, f)));
      return found ? [found] : [];
    });
    graph.set(file, imports);
  }
  return imports;
}

/**
 * The files a module's bundle needs beside it: those of every reader its imports reach. CDK copies them
 * after bundling, before the bundle is ever built, so the import graph stands in for esbuild's metafile;
 * test/e2e/bundles.test.ts checks the two agree for every module.
 */
export function runtimeFiles(module: string, projectRoot = process.cwd(), functionsDir = path.join(projectRoot, 'functions')): string[] {
  const root = path.resolve(projectRoot);
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of importsOf(root, file)) walk(next);
  };
  walk(path.relative(root, path.resolve(functionsDir, `${module}.ts`)));
  return Object.entries(FILES_BY_READER).flatMap(([reader, files]) => (seen.has(reader) ? files : []));
}

/** Where `npm run bundles` writes by default (git-ignored). */
export const DEFAULT_BUNDLE_DIR = '.bundles';

/** Written beside the bundles: what was built, from which inputs, and when. */
const MANIFEST = 'manifest.json';

interface Manifest {
  built_at: string;
  modules: string[];
  /** Inputs outside node_modules, relative to the project root (the lockfile stands for the packages). */
  sources: string[];
}

/** Every module CDK deploys as a function: the cloud routes' handlers and the pipelines' workers. */
export function deployedModules(routes: readonly Route[] = ROUTES, pipelines: Pipelines = PIPELINES): string[] {
  const workers = [...pipelines.queues.flatMap((q) => (q.consumer ? [q.consumer] : [])), ...pipelines.triggers.map((t) => t.handler), ...pipelines.schedules.map((s) => s.handler)];
  return [...new Set([...handlerModules(routes.filter((r) => !r.edgeOnly)), ...workers])];
}

export interface BuildBundlesOptions {
  /** @default process.cwd(), as the CDK app's projectRoot */
  projectRoot?: string;
  /** @default deployedModules() */
  modules?: readonly string[];
}

/**
 * Bundles each module to `<dir>/<module>/index.js` (with its source map and runtimeFiles), as CDK's
 * asset of that function holds it. One esbuild run for all of them: each entry still gets a bundle of its
 * own (no code splitting), and the modules they share are parsed once.
 */
export async function buildBundles(dir: string, options: BuildBundlesOptions = {}): Promise<{ modules: string[]; ms: number; metafile: Metafile }> {
  const { build } = await import('esbuild');
  const root = path.resolve(options.projectRoot ?? process.cwd());
  const modules = [...(options.modules ?? deployedModules())];
  const outDir = path.resolve(dir);
  // A directory that holds something else is never replaced (a mistyped --out of `.` would be the repository).
  if (existsSync(outDir) && readdirSync(outDir).length && !existsSync(path.join(outDir, MANIFEST))) throw new Error(`${outDir} is not a bundle directory: not replaced`);
  const startedAt = new Date();
  const started = performance.now();
  rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    ...BUNDLE_OPTIONS,
    bundle: true,
    platform: 'node',
    absWorkingDir: root,
    entryPoints: Object.fromEntries(modules.map((m) => [path.join(m, 'index'), path.join(root, 'functions', `${m}.ts`)])),
    outdir: outDir,
    metafile: true,
  });
  for (const module of modules) for (const file of runtimeFiles(module, root)) copyFileSync(path.join(root, file), path.join(outDir, module, path.basename(file)));
  // Lambda loads index.js as CommonJS; inside this repository the nearest package.json says "module".
  writeFileSync(path.join(outDir, 'package.json'), '{ "type": "commonjs" }\n');
  const sources = Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules/'));
  const manifest: Manifest = { built_at: startedAt.toISOString(), modules, sources: [...sources, 'package-lock.json'] };
  writeFileSync(path.join(outDir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  return { modules, ms: performance.now() - started, metafile: result.metafile };
}

const readManifest = (dir: string): Manifest | undefined => {
  try {
    return JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
};

/** Why `dir` cannot serve every module of `modules`, or undefined when it holds a bundle of each. */
export function missingBundles(dir: string, modules: readonly string[] = deployedModules()): string | undefined {
  const manifest = readManifest(dir);
  if (!manifest) return `no bundles in ${dir}`;
  const missing = modules.find((m) => !manifest.modules.includes(m) || !existsSync(bundleFile(dir, m)));
  return missing ? `no bundle of functions/${missing} in ${dir}` : undefined;
}

/** A source of the bundles in `dir` changed since they were built, or undefined. */
export function changedSource(dir: string, projectRoot = process.cwd()): string | undefined {
  const manifest = readManifest(dir);
  const builtAt = Date.parse(manifest?.built_at ?? '');
  return manifest?.sources.find((file) => !existsSync(path.join(projectRoot, file)) || statSync(path.join(projectRoot, file)).mtimeMs > builtAt);
}
