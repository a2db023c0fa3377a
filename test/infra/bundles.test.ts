/**
 * The local bundles (`npm run bundles`, lib/bundling.ts) are the artefact CDK deploys: the same modules, and
 * for a module the same bytes as the asset NodejsFunction builds, with the same files beside it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ServiceFunction } from '../../lib/api/service-function';
import { buildEnergyApp } from '../../lib/energy-app';
import { buildBundles, deployedModules, RUNTIME_FILES } from '../../lib/bundling';
import { bundleFile } from '../../local/lambda-context';

const ROOT = path.resolve(__dirname, '../..');
/** A module with a file beside its bundle (HiGHS's wasm) and a worker in a subfolder. */
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
  expect(deployed).toEqual(expect.arrayContaining(Object.keys(RUNTIME_FILES)));
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
    const files = ['index.js', 'index.js.map', ...(RUNTIME_FILES[module] ?? []).map((f) => path.basename(f))].sort();
    expect(readdirSync(asset).sort()).toEqual(files);
    expect(readdirSync(path.dirname(bundleFile(ours, module))).sort()).toEqual(files);
  }
}, 120_000);
