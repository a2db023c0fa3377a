/**
 * The local bundles (`npm run bundles`, lib/bundling.ts) are the artefact CDK deploys: the same modules, and
 * for a module the same bytes as the asset NodejsFunction builds, with the same files beside it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ServiceFunction } from '../../lib/api/service-function';
import { buildEnergyApp } from '../../lib/energy-app';
import Holidays from 'date-holidays';
import { BUNDLE_OPTIONS, buildBundles, deployedModules, FILES_BY_READER, runtimeFiles } from '../../lib/bundling';
import { bundleFile } from '../../local/lambda-context';

const ROOT = path.resolve(__dirname, '../..');
/** A module with HiGHS's wasm beside its bundle, and a worker in a subfolder with the gazetteer and holiday tables beside it. */
const COMPARED = ['optimize-dispatch', 'workers/process-upload'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'energy-bundles-infra-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('builds exactly the modules the stacks deploy as functions', () => {
  // Prepare: assets are not bundled here (empty bundling-stacks), only the constructs counted.
  const app = new App({ outdir: path.join(dir, 'app'), context: { 'aws:cdk:bundling-stacks': [] } });
  const { api } = buildEnergyApp(app, { regions: ['eu-central-1'], stageName: 'test', projectRoot: ROOT }).get('eu-central-1')!;

  // Act
  const deployed = [...api.functions.keys(), ...api.workers.functions.keys()];

  // Assess
  expect([...deployedModules()].sort()).toEqual(deployed.sort());
});

it("writes the bytes of CDK's asset for a module, and the same files beside them", async () => {
  // Prepare: CDK's own bundling of two functions (NodejsFunction runs the esbuild CLI), and ours of the same modules.
  const app = new App({ outdir: path.join(dir, 'cdk'), context: { 'aws:cdk:enable-asset-metadata': true } });
  const stack = new Stack(app, 'Bundles');
  const settings = { projectRoot: ROOT, functionsDir: path.join(ROOT, 'functions'), environment: {}, policies: [] };
  for (const module of COMPARED) new ServiceFunction(stack, module.replace('/', '-'), { module, settings });
  const functions = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'));
  const ours = path.join(dir, 'ours');

  // Act
  await buildBundles(ours, { projectRoot: ROOT, modules: COMPARED });

  // Assess
  for (const module of COMPARED) {
    const fn = functions.find((f) => f.Properties.Description === module)!;
    const asset = path.join(dir, 'cdk', fn.Metadata['aws:asset:path'] as string);
    expect(readFileSync(bundleFile(ours, module)).equals(readFileSync(path.join(asset, 'index.js')))).toBe(true);
    // The source maps differ only in the relative path from the output to the sources.
    const files = ['index.js', 'index.js.map', ...runtimeFiles(module, ROOT).map((f) => path.basename(f))].sort();
    expect(readdirSync(asset).sort()).toEqual(files);
    expect(readdirSync(path.dirname(bundleFile(ours, module))).sort()).toEqual(files);
  }
}, 120_000);

it('finds the holidays from the tables beside a bundle that date-holidays finds inline', async () => {
  // Prepare: the calendar bundled as a function is (moment-timezone aliased to its core), in a folder with no
  // node_modules above it, with only the files the holiday reader declares beside it.
  const { build } = await import('esbuild');
  const out = path.join(dir, 'holidays');
  const countries = ['US-CA', 'GB', 'DE-BY', 'CN', 'IL', 'SA'];
  const entry = `const { publicHolidays } = require('./shared/domain/forecasting/calendar');
    console.log(JSON.stringify(${JSON.stringify(countries)}.map((c) => [...publicHolidays(c, 2026)])));`;
  await build({ ...BUNDLE_OPTIONS, bundle: true, platform: 'node', absWorkingDir: ROOT, stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' }, outfile: path.join(out, 'index.js') });
  for (const file of FILES_BY_READER['shared/domain/forecasting/holiday-calendars.cjs']) copyFileSync(path.join(ROOT, file), path.join(out, path.basename(file)));
  writeFileSync(path.join(out, 'package.json'), '{ "type": "commonjs" }\n');

  // Act
  const run = spawnSync(process.execPath, ['index.js'], { cwd: out, encoding: 'utf8', timeout: 30_000 });

  // Assess: the same public holidays as the package computes with its data inlined.
  expect(run.stderr).toBe('');
  const expected = countries.map((c) => {
    const [country, state] = c.split('-');
    const calendar = state ? new Holidays(country, state) : new Holidays(country);
    return [...new Set(calendar.getHolidays(2026).filter((h) => h.type === 'public').map((h) => h.date.slice(0, 10)))];
  });
  expect(JSON.parse(run.stdout)).toEqual(expected);
  expect(expected.flat().length).toBeGreaterThan(30);
}, 60_000);
