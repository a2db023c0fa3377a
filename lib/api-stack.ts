/**
 * The stateless resources of one region: a function per handler module, the HTTP API over the route
 * table, and the workers of the pipelines. It reaches the data stack's resources by name (lib/names.ts).
 */
import path from 'node:path';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { PIPELINES, type Pipelines } from '../shared/pipelines';
import { handlerModules, ROUTES, type Route } from '../shared/routes';
import { DataAccess } from './api/data-access';
import { DataReferences } from './api/data-references';
import { functionEnvironment } from './api/function-environment';
import { ServiceApi } from './api/http-api';
import { moduleConstructId, ServiceFunction, type FunctionSettings } from './api/service-function';
import type { DataNames } from './names';
import { Workers } from './pipelines/workers';

export interface ApiStackProps extends StackProps {
  /** Physical names of the data stack's resources (lib/names.ts). */
  readonly names: DataNames;
  /** Stage name, the first path segment of every URL. */
  readonly stageName: string;
  /**
   * The route table; edge-only rows are left out (the edge node serves them).
   * @default ROUTES of shared/routes/index.ts
   */
  readonly routes?: readonly Route[];
  /**
   * Queues, rules and triggers; this stack builds the consumers and triggers.
   * @default PIPELINES of shared/pipelines.ts
   */
  readonly pipelines?: Pipelines;
  /**
   * Repository root (package.json, package-lock.json, tsconfig.json). `cdk` runs from it.
   * @default process.cwd()
   */
  readonly projectRoot?: string;
  /**
   * A Bedrock model id for the optional rephrasing of policy answers: the policy function gets
   * POLICY_REPHRASING=bedrock, the model id, and leave to invoke that model only.
   * @default - no rephrasing
   */
  readonly policyRephrasingModel?: string;
  /**
   * Directory of the handler and worker modules.
   * @default `<projectRoot>/functions`
   */
  readonly functionsDir?: string;
}

/**
 * Handlers that get a whole core: Lambda gives a whole vCPU from 1,769 MB, against 0.58 at the default 1,024.
 * - To answer within API Gateway's 30 s: those that solve year-long programmes (HiGHS is single-threaded: a year's
 *   sizing), and the price forecast, whose LEAR fits on four years of prices and three fundamentals take 7-9 s on one
 *   core (eight window models per validation fold, five folds; 15 s before LARS stopped allocating per step).
 * - `POST /forecast`, which validates every member on 28 folds: a year of hourly load took 0.6-0.7 s through the
 *   API on one core here on a slow day and 0.3-0.4 s on a fast one (`npm run bench -- latency`; the target is 0.5 s),
 *   so 0.5-1.1 s at 0.58 vCPU.
 *   The work is all CPU and Lambda bills GB-seconds: 1.7 times the memory runs it 1.7 times faster, at the same cost.
 */
export const WHOLE_CORE_MODULES: ReadonlySet<string> = new Set(['optimize-dispatch', 'dispatch-mpc', 'battery-sizing', 'price-forecast', 'generate-forecast']);
export const WHOLE_CORE_MEMORY_MB = 1769;

export class ApiStack extends Stack {
  readonly api: ServiceApi;
  /** API functions by handler module. */
  readonly functions = new Map<string, ServiceFunction>();
  readonly workers: Workers;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const pipelines = props.pipelines ?? PIPELINES;
    const projectRoot = props.projectRoot ?? process.cwd();
    const data = new DataReferences(this, 'Data', props.names);
    const access = new DataAccess(this, 'DataAccess', { data, workQueues: pipelines.queues });
    const settings: FunctionSettings = {
      projectRoot,
      functionsDir: props.functionsDir ?? path.join(projectRoot, 'functions'),
      environment: functionEnvironment(data, projectRoot),
      policies: [access.policy],
    };

    const routes = (props.routes ?? ROUTES).filter((r) => !r.edgeOnly);
    for (const module of handlerModules(routes)) {
      const served = routes.filter((r) => r.handler === module).map((r) => r.id);
      this.functions.set(
        module,
        new ServiceFunction(this, moduleConstructId(module), {
          module,
          settings,
          description: `${module}: ${served.join(', ')}`.slice(0, 256),
          ...(WHOLE_CORE_MODULES.has(module) ? { memorySize: WHOLE_CORE_MEMORY_MB } : {}),
        }),
      );
    }
    const policy = this.functions.get(routes.find((r) => r.id === 'policy-compliance')?.handler ?? '');
    if (props.policyRephrasingModel && policy) {
      policy.function.addEnvironment('POLICY_REPHRASING', 'bedrock').addEnvironment('BEDROCK_MODEL_ID', props.policyRephrasingModel);
      policy.role.addToPolicy(
        new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [this.formatArn({ service: 'bedrock', account: '', resource: 'foundation-model', resourceName: props.policyRephrasingModel })] }),
      );
    }
    this.api = new ServiceApi(this, 'Http', {
      routes,
      functions: new Map([...this.functions].map(([module, f]) => [module, f.function])),
      stageName: props.stageName,
    });
    this.workers = new Workers(this, 'Workers', { pipelines, data, settings });

    new CfnOutput(this, 'ApiUrl', { value: this.api.stage.url, description: `Base URL of the API in ${this.region}` });
  }
}
