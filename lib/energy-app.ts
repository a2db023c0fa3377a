/**
 * The whole service: per region, a data stack and an API stack; one console stack in front of them all (in
 * the first region); checked by cdk-nag.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { App } from 'aws-cdk-lib';
import { writeConsoleSync } from '../console/build';
import { PIPELINES, type Pipelines } from '../shared/pipelines';
import type { Route } from '../shared/routes';
import { ApiStack } from './api-stack';
import { ConsoleStack } from './console-stack';
import { DataStack } from './data-stack';
import { dataNames } from './names';
import { addNagChecks } from './nag';

/** Feature flags this app relies on; set here so tests that build their own App get the same behaviour. */
const FEATURE_FLAGS = {
  // Access log delivery by bucket policy: the target bucket enforces bucket-owner object ownership (no ACLs).
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  // Merge IAM statements with the same actions or resources, so policies stay short.
  '@aws-cdk/aws-iam:minimizePolicies': true,
};

export interface EnergyAppOptions {
  /** Regions to deploy to; one data stack and one API stack each. */
  readonly regions: readonly string[];
  /** API stage name (`v1`). */
  readonly stageName: string;
  /** @default process.env.CDK_DEFAULT_ACCOUNT (may be unset: synth then works offline, for any account) */
  readonly account?: string;
  /** @default PIPELINES of shared/pipelines.ts */
  readonly pipelines?: Pipelines;
  /** @default ROUTES of shared/routes/index.ts */
  readonly routes?: readonly Route[];
  /** @default process.cwd() */
  readonly projectRoot?: string;
  /** @default `<projectRoot>/functions` */
  readonly functionsDir?: string;
  /**
   * A Bedrock model id that rephrases policy answers (POLICY_REPHRASING=bedrock); the policy function may invoke it.
   * @default - no rephrasing
   */
  readonly policyRephrasingModel?: string;
  /**
   * Folder of the built console to deploy.
   * @default - built by console/build.ts into `console/` of the app's output folder (cdk.out for the CLI)
   */
  readonly consoleDir?: string;
}

/** Id of the console stack (the distribution, the console bucket), deployed to the first region. */
export const CONSOLE_STACK_ID = 'EnergyConsole';

export interface RegionStacks {
  data: DataStack;
  api: ApiStack;
}

/** Adds the stacks of every region to `app`; call it on an App with no children yet. */
export function buildEnergyApp(app: App, options: EnergyAppOptions): Map<string, RegionStacks> {
  for (const [flag, value] of Object.entries(FEATURE_FLAGS)) app.node.setContext(flag, value);
  const pipelines = options.pipelines ?? PIPELINES;
  const account = options.account ?? process.env.CDK_DEFAULT_ACCOUNT;
  const stacks = new Map<string, RegionStacks>();
  for (const region of options.regions) {
    const env = { account, region };
    const names = dataNames(env, pipelines);
    const data = new DataStack(app, `EnergyData-${region}`, { env, names, pipelines, description: `Energy service data in ${region}: tables, bucket, queues, event bus` });
    const api = new ApiStack(app, `EnergyApi-${region}`, {
      env,
      names,
      pipelines,
      stageName: options.stageName,
      routes: options.routes,
      projectRoot: options.projectRoot,
      functionsDir: options.functionsDir,
      policyRephrasingModel: options.policyRephrasingModel,
      description: `Energy service API in ${region}: functions, HTTP API, workers`,
    });
    // The API stack reaches the data by name, not by export, so the deploy order is stated here.
    api.addStackDependency(data, 'the API stack uses the tables, bucket, queues and bus of the data stack');
    stacks.set(region, { data, api });
  }
  new ConsoleStack(app, CONSOLE_STACK_ID, {
    env: { account, region: options.regions[0] },
    source: options.consoleDir ?? buildConsole(app),
    apis: [...stacks.values()].map((s) => s.api),
    routes: options.routes,
    description: `Energy web console and the one origin of the API: CloudFront to ${options.regions.join(', ')}`,
  });
  addNagChecks(app);
  return stacks;
}

/** Builds the console into the app's output folder, so a synth deploys the console of its own sources. */
function buildConsole(app: App): string {
  const dir = path.join(app.outdir, 'console');
  rmSync(dir, { recursive: true, force: true });
  writeConsoleSync(dir);
  return dir;
}
