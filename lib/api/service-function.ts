/**
 * One Lambda function of the service, with every default in one place (STYLE: runtime, architecture,
 * bundling, log group, tracing, role): stacks say only which module, and how long it may run.
 */
import path from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal, type IManagedPolicy } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUNDLE_OPTIONS, runtimeFiles } from '../bundling';

/** Settings every function of a stack shares. */
export interface FunctionSettings {
  /** Repository root: holds package.json, package-lock.json and tsconfig.json. */
  readonly projectRoot: string;
  /** Directory of the handler modules. */
  readonly functionsDir: string;
  /** Environment of every function (lib/api/function-environment.ts). */
  readonly environment: Record<string, string>;
  /** Customer-managed policies every function role attaches (lib/api/data-access.ts). */
  readonly policies: readonly IManagedPolicy[];
}

export interface ServiceFunctionProps {
  /** Module under `settings.functionsDir`, without extension, that exports `handler`; may name a subfolder (`workers/process-upload`). */
  readonly module: string;
  readonly settings: FunctionSettings;
  /**
   * API Gateway gives up on an integration after 30 s, so an API function must answer within 29 s.
   * @default Duration.seconds(29)
   */
  readonly timeout?: Duration;
  /**
   * Memory (and so CPU share) in MB.
   * @default 1024
   */
  readonly memorySize?: number;
  /**
   * How long the function's logs are kept.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /** @default - the module name */
  readonly description?: string;
}

/** `workers/process-upload` -> `WorkersProcessUpload`: a construct id per module. */
export const moduleConstructId = (module: string): string =>
  module
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');

export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { settings } = props;
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention ?? RetentionDays.ONE_MONTH });
    // Our own role instead of the AWS-managed AWSLambdaBasicExecutionRole: it may write to this log group only.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [...settings.policies],
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(settings.functionsDir, `${props.module}.ts`),
      handler: 'handler',
      description: props.description ?? props.module,
      projectRoot: settings.projectRoot,
      depsLockFilePath: path.join(settings.projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(29),
      tracing: Tracing.ACTIVE,
      logGroup: this.logGroup,
      role: this.role,
      environment: { ...settings.environment, NODE_OPTIONS: '--enable-source-maps' },
      bundling: {
        forceDockerBundling: false,
        // lib/bundling.ts: the options `npm run bundles` builds the local runtime's bundles with.
        minify: BUNDLE_OPTIONS.minify,
        sourceMap: BUNDLE_OPTIONS.sourcemap,
        sourcesContent: BUNDLE_OPTIONS.sourcesContent,
        target: BUNDLE_OPTIONS.target,
        format: { cjs: OutputFormat.CJS, esm: OutputFormat.ESM }[BUNDLE_OPTIONS.format],
        mainFields: [...BUNDLE_OPTIONS.mainFields],
        esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_OPTIONS.alias).map(([from, to]) => [`--alias:${from}`, to])),
        // The SDK versions pinned in package-lock.json are the ones tested; the runtime's copy may differ.
        bundleAwsSDK: true,
        logLevel: { warning: LogLevel.WARNING, error: LogLevel.ERROR }[BUNDLE_OPTIONS.logLevel],
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir: string, outputDir: string) => runtimeFiles(props.module, settings.projectRoot, settings.functionsDir).map((file) => `cp "${path.join(inputDir, file)}" "${outputDir}"`),
        },
      },
    });

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which X-Ray does not scope to resources.',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is the runtime the bundles target (esbuild node22) and the dependency pins are tested for; a move to nodejs24.x is a deliberate upgrade, not a default.',
    });
  }
}
