/**
 * One region of the CDK app built in process for the infra tests: stage `test`, a known account, and only
 * the routes and pipelines a test names, so it synthesizes (and bundles) in seconds rather than minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildEnergyApp, type EnergyAppOptions } from '../../lib/energy-app';

export const TEST_ACCOUNT = '123456789012';

const ROOT = path.resolve(__dirname, '../..');

export interface RegionTemplates {
  /** The whole construct tree, for checks that walk it (cdk-nag's `validateScope`). */
  app: App;
  api: Template;
  data: Template;
}

/**
 * Synthesizes `region` into a temporary folder, removed before it returns; synthesis runs the cdk-nag
 * plugin, so an unacknowledged finding throws here.
 * @param options routes, pipelines and the rest; the default: every route, no pipelines
 */
export function synthRegion(region: string, options: Partial<Omit<EnergyAppOptions, 'regions'>> = {}): RegionTemplates {
  const outdir = mkdtempSync(path.join(tmpdir(), 'energy-cdk-'));
  try {
    const app = new App({ outdir });
    const stacks = buildEnergyApp(app, {
      stageName: 'test',
      account: TEST_ACCOUNT,
      pipelines: { queues: [], rules: [], triggers: [], schedules: [] },
      projectRoot: ROOT,
      ...options,
      regions: [region],
    }).get(region)!;
    // The app synthesizes once, into outdir; both templates are read from that assembly.
    return { app, api: Template.fromStack(stacks.api), data: Template.fromStack(stacks.data) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
