/**
 * The CDK app as `npm run synth` builds it: the CLI's `cdk synth` of bin/app.ts (every stack; this CLI has
 * no `--all` for synth) with the regions and stage of cdk.json, offline, real esbuild bundles, cdk-nag
 * failing the synth on any finding. The templates it writes are then checked against the route table,
 * the pipelines and the table list.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { dlqId, EVENT_SOURCE, PIPELINES } from '../../shared/pipelines';
import { handlerModules, ROUTES, routeKey } from '../../shared/routes';
import { GSI1, TABLE_KEY_LAYOUT, TABLES, TTL_ATTRIBUTE } from '../../shared/store/tables';
import { runtimeFiles } from '../../lib/bundling';
import { CONSOLE_STACK_ID } from '../../lib/energy-app';
import { WHOLE_CORE_MEMORY_MB, WHOLE_CORE_MODULES } from '../../lib/api-stack';

const ROOT = path.resolve(__dirname, '../..');
const { regions: REGIONS, stage: STAGE } = JSON.parse(readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')).context as { regions: string[]; stage: string };
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The names the operator CLI and the functions use (shared/config.ts defaults): renaming one replaces a deployed table. */
const TABLE_NAMES = { accounts: 'energy-accounts', operations: 'energy-operations', analytics: 'energy-analytics' } as const;
const CLOUD_ROUTES = ROUTES.filter((r) => !r.edgeOnly);
const WORKER_MODULES = new Set([...PIPELINES.queues.flatMap((q) => (q.consumer ? [q.consumer] : [])), ...PIPELINES.triggers.map((t) => t.handler), ...PIPELINES.schedules.map((s) => s.handler)]);
/**
 * Cold start grows with the bundle; a bundle past this has probably pulled in something it should not (the
 * local emulators). The forecasting functions carry the gazetteer and the holiday tables (about 4 MB).
 */
const BUNDLE_BUDGET_BYTES = 5 * 1024 * 1024;

type Resource = { Type: string; Properties: Record<string, unknown>; Metadata?: Record<string, string> };

/**
 * No AWS credentials and no instance metadata: the CLI finds no default account, as on a machine without
 * AWS, so the templates name the account as `AWS::AccountId` wherever this test runs.
 */
function offlineEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^AWS_|^CDK_DEFAULT_/.test(key)));
  return { ...env, CDK_DISABLE_VERSION_CHECK: '1', AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: devNull, AWS_SHARED_CREDENTIALS_FILE: devNull };
}

let outdir: string;
let synth: { status: number | null; output: string };

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'energy-cdk-'));
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/cdk'), ['synth', '--quiet', '--no-notices', '--output', outdir], {
    cwd: ROOT,
    env: offlineEnv(),
    encoding: 'utf8',
    timeout: 300_000,
  });
  synth = { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}, 320_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/**
 * One of our functions, not CDK's own: the bucket-notification handler ("AWS CloudFormation handler ...") and the
 * cross-region export writer the console stack's references add (no description) are CDK's.
 */
const isServiceFunction = (r: { Type: string; Properties: Record<string, unknown> }) =>
  r.Type === 'AWS::Lambda::Function' && typeof r.Properties.Description === 'string' && !r.Properties.Description.startsWith('AWS CloudFormation handler');

const templateJson = (stackName: string) => JSON.parse(readFileSync(path.join(outdir, `${stackName}.template.json`), 'utf8')) as { Resources: Record<string, Resource> };

/** A template value as text, references written `<LogicalId>` / `<LogicalId.Attr>`. */
function flat(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, unknown>;
  if (v['Fn::Join']) {
    const [sep, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map(flat).join(sep);
  }
  if (v.Ref) return `<${v.Ref as string}>`;
  if (v['Fn::GetAtt']) return `<${(v['Fn::GetAtt'] as string[]).join('.')}>`;
  return JSON.stringify(value);
}

it('synthesises every region offline with no cdk-nag finding', () => {
  expect(synth.output).not.toMatch(/AwsSolutions-/);
  expect(synth.status).toBe(0);
  const report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: { pluginName: string; violations: unknown[] }[] };
  expect(report.pluginReports.filter((r) => r.pluginName === 'AwsSolutions').flatMap((r) => r.violations)).toEqual([]);
  for (const region of REGIONS) for (const kind of ['Data', 'Api']) expect(statSync(path.join(outdir, `Energy${kind}-${region}.template.json`)).isFile()).toBe(true);
});

describe.each(REGIONS)('in %s', (region) => {
  let data: Template;
  let api: Template;
  let apiResources: Record<string, Resource>;
  let dataResources: Record<string, Resource>;
  /** Logical id of each module's function (its description starts with the module). */
  let functionOf: Map<string, string>;
  /** Logical id of each queue by logical queue id (`webhooks`, `webhooks-dlq`). */
  let queueOf: Map<string, string>;

  beforeAll(() => {
    dataResources = templateJson(`EnergyData-${region}`).Resources;
    apiResources = templateJson(`EnergyApi-${region}`).Resources;
    data = Template.fromJSON(templateJson(`EnergyData-${region}`));
    api = Template.fromJSON(templateJson(`EnergyApi-${region}`));
    functionOf = new Map(
      Object.entries(api.findResources('AWS::Lambda::Function'))
        .filter(([, r]) => isServiceFunction({ Type: 'AWS::Lambda::Function', Properties: r.Properties }))
        .map(([id, r]) => [(r.Properties.Description as string).split(':')[0], id]),
    );
    queueOf = new Map(Object.entries(data.findResources('AWS::SQS::Queue')).map(([id, r]) => [(r.Properties.QueueName as string).replace(/^energy-/, ''), id]));
  });

  it('creates the three tables: string pk/sk, gsi1 projecting all, TTL, on demand, PITR, AWS-managed keys, retained', () => {
    data.resourceCountIs('AWS::DynamoDB::Table', TABLES.length);
    for (const spec of TABLES) {
      data.hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
        Properties: Match.objectLike({
          TableName: TABLE_NAMES[spec.id],
          ...TABLE_KEY_LAYOUT, // what local/bootstrap.ts creates, so the local stand-in matches AWS
          TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
          BillingMode: 'PAY_PER_REQUEST',
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          SSESpecification: { SSEEnabled: true },
          DeletionProtectionEnabled: true,
        }),
      });
    }
  });

  it('keeps the data bucket private, encrypted, versioned, TLS-only, access-logged and retained', () => {
    data.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BucketName: { 'Fn::Join': ['', ['energy-data-', { Ref: 'AWS::AccountId' }, `-${region}`]] },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        VersioningConfiguration: { Status: 'Enabled' },
        LoggingConfiguration: { DestinationBucketName: { Ref: Match.stringLikeRegexp('AccessLogs') }, LogFilePrefix: 'data-bucket/' },
      }),
    });
    const tlsOnly = { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) } };
    data.resourcePropertiesCountIs('AWS::S3::BucketPolicy', tlsOnly, 2);
  });

  it('parks each work queue\'s poisoned messages in its DLQ after the row\'s receive count; all queues TLS-only and encrypted', () => {
    data.resourceCountIs('AWS::SQS::Queue', PIPELINES.queues.length * 2);
    for (const spec of PIPELINES.queues) {
      const queue = dataResources[queueOf.get(spec.id)!].Properties;
      expect(queue).toMatchObject({
        VisibilityTimeout: spec.visibilityTimeoutSeconds,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [queueOf.get(dlqId(spec.id)), 'Arn'] }, maxReceiveCount: spec.maxReceiveCount },
      });
      expect(dataResources[queueOf.get(dlqId(spec.id))!].Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    }
    const tlsOnly = { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) } };
    data.resourcePropertiesCountIs('AWS::SQS::QueuePolicy', tlsOnly, PIPELINES.queues.length * 2);
  });

  it('feeds each rule\'s domain events from the custom bus to its queue, as the event detail', () => {
    data.hasResourceProperties('AWS::Events::EventBus', { Name: 'energy-events' });
    data.resourceCountIs('AWS::Events::Rule', PIPELINES.rules.length);
    const webhooks = PIPELINES.rules.find((r) => r.queue === 'webhooks');
    expect(webhooks?.eventTypes).toContain('order.status_changed');
    for (const rule of PIPELINES.rules) {
      data.hasResourceProperties('AWS::Events::Rule', {
        EventBusName: { Ref: Match.stringLikeRegexp('Bus') },
        EventPattern: { source: [EVENT_SOURCE], 'detail-type': rule.eventTypes },
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [queueOf.get(rule.queue), 'Arn'] }, InputPath: '$.detail' })],
      });
      data.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queueOf.get(rule.queue) }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(['sqs:SendMessage']), Principal: { Service: 'events.amazonaws.com' } })]),
        },
      });
    }
  });

  it('creates one function per handler module and worker: nodejs22.x on arm64, traced, with the config environment; the solvers and the forecasts with a whole vCPU', () => {
    const modules = handlerModules(CLOUD_ROUTES);
    expect([...functionOf.keys()].sort()).toEqual([...modules, ...WORKER_MODULES].sort());
    for (const module of ['price-forecast', 'generate-forecast']) expect(apiResources[functionOf.get(module)!].Properties.MemorySize).toBe(1769);
    for (const module of modules) {
      const fn = apiResources[functionOf.get(module)!].Properties;
      const memory = WHOLE_CORE_MODULES.has(module) ? WHOLE_CORE_MEMORY_MB : 1024;
      expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: memory, Timeout: 29, TracingConfig: { Mode: 'Active' }, Handler: 'index.handler' });
      const env = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env).toMatchObject({
        ACCOUNTS_TABLE: TABLE_NAMES.accounts,
        OPERATIONS_TABLE: TABLE_NAMES.operations,
        ANALYTICS_TABLE: TABLE_NAMES.analytics,
        DATA_BUCKET: { 'Fn::Join': ['', ['energy-data-', { Ref: 'AWS::AccountId' }, `-${region}`]] },
        EVENT_BUS: 'energy-events',
        EVENT_TRANSPORT: 'aws',
        SERVICE_VERSION: VERSION,
        DISK_PATH: '/tmp',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      });
      const queueUrls = JSON.parse(flat(env.QUEUE_URLS)) as Record<string, string>;
      const queueIds = PIPELINES.queues.flatMap((q) => [q.id, dlqId(q.id)]);
      expect(Object.keys(queueUrls).sort()).toEqual(queueIds.sort());
      for (const id of queueIds) expect(queueUrls[id]).toBe(`https://sqs.${region}.<AWS::URLSuffix>/<AWS::AccountId>/energy-${id}`);
    }
  });

  it('routes every non-edge row of the route table to its module\'s function, and nothing else', () => {
    const routes = Object.values(api.findResources('AWS::ApiGatewayV2::Route'));
    const keys = routes.map((r) => r.Properties.RouteKey as string);
    expect(keys.sort()).toEqual(CLOUD_ROUTES.map(routeKey).sort());
    for (const edge of ROUTES.filter((r) => r.edgeOnly)) expect(keys).not.toContain(routeKey(edge));
    for (const row of CLOUD_ROUTES) {
      const route = routes.find((r) => r.Properties.RouteKey === routeKey(row))!;
      const integrationId = flat(route.Properties.Target).replace(/^integrations\/<|>$/g, '');
      expect(apiResources[integrationId].Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [functionOf.get(row.handler), 'Arn'] },
      });
    }
    // One invoke permission per function, not per route.
    api.resourcePropertiesCountIs('AWS::Lambda::Permission', { Principal: 'apigateway.amazonaws.com' }, handlerModules(CLOUD_ROUTES).length);
  });

  it('serves the routes on the cdk.json stage, auto-deployed, throttled, access-logged, and outputs its URL', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: STAGE,
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('AccessLogs'), 'Arn'] }, Format: Match.stringLikeRegexp('\\$context.requestId') },
    });
    const outputs = api.findOutputs('ApiUrl');
    const url = flat(Object.values(outputs)[0].Value);
    expect(url).toMatch(new RegExp(`^https://<Http\\w+>\\.execute-api\\.${region}\\.<AWS::URLSuffix>/${STAGE}$`));
  });

  it('runs the upload reconciler every 15 minutes for up to 15, able to read and write the uploads table and read the raw files', () => {
    // Prepare
    const row = PIPELINES.schedules.find((s) => s.handler === 'workers/reconcile-uploads')!;
    const fn = functionOf.get(row.handler)!;
    const roleId = flat(apiResources[fn].Properties.Role).replace(/^<|\.Arn>$/g, '');
    const [policyId, policy] = Object.entries(api.findResources('AWS::IAM::ManagedPolicy'))[0];
    const statements = (policy.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement;
    const allowed = (action: string, resource: string) => statements.some((s) => [s.Action].flat().includes(action) && [s.Resource].flat().map(flat).includes(resource));
    const table = `arn:<AWS::Partition>:dynamodb:${region}:<AWS::AccountId>:table/${TABLE_NAMES.analytics}`;

    // Assess: the schedule, the time-out, and the role's data actions
    expect(row).toMatchObject({ everyMinutes: 15, timeoutSeconds: 900, runAtStart: true });
    api.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(15 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fn, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 2 } })],
    });
    api.hasResourceProperties('AWS::Lambda::Permission', { FunctionName: { 'Fn::GetAtt': [fn, 'Arn'] }, Principal: 'events.amazonaws.com' });
    expect(apiResources[fn].Properties).toMatchObject({ Timeout: 900, Runtime: 'nodejs22.x' });
    expect(apiResources[roleId].Properties.ManagedPolicyArns).toEqual([{ Ref: policyId }]);
    for (const action of ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem']) expect(allowed(`dynamodb:${action}`, table)).toBe(true);
    expect(allowed('dynamodb:Query', `${table}/index/${GSI1.name}`)).toBe(true); // the in-flight uploads
    expect(allowed('s3:GetObject', `arn:<AWS::Partition>:s3:::energy-data-<AWS::AccountId>-${region}/*`)).toBe(true);
    expect(allowed('s3:ListBucket', `arn:<AWS::Partition>:s3:::energy-data-<AWS::AccountId>-${region}`)).toBe(true); // HeadObject answers 404, not 403
  });

  it('grants the functions the data actions they use, on this region\'s named resources only', () => {
    const [policy] = Object.values(api.findResources('AWS::IAM::ManagedPolicy'));
    const statements = (policy.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement;
    const resourcesOf = (action: string) =>
      statements.filter((s) => [s.Action].flat().includes(action)).flatMap((s) => [s.Resource].flat().map(flat)).sort();
    const arn = (service: string, resource: string) => `arn:<AWS::Partition>:${service}:${region}:<AWS::AccountId>:${resource}`;
    expect(resourcesOf('dynamodb:PutItem')).toEqual(
      Object.values(TABLE_NAMES).flatMap((t) => [arn('dynamodb', `table/${t}`), arn('dynamodb', `table/${t}/index/${GSI1.name}`)]).sort(),
    );
    expect(resourcesOf('s3:PutObject')).toEqual([`arn:<AWS::Partition>:s3:::energy-data-<AWS::AccountId>-${region}/*`]);
    expect(resourcesOf('sqs:SendMessage')).toEqual([...PIPELINES.queues.map((q) => arn('sqs', `energy-${q.id}`)), arn('sqs', 'energy-webhooks-dlq')].sort());
    expect(resourcesOf('sqs:GetQueueAttributes')).toEqual([arn('sqs', 'energy-training')]);
    expect(resourcesOf('events:PutEvents')).toEqual([arn('events', 'event-bus/energy-events')]);
    // Every function role attaches it, and no policy of the stack allows a wildcard action.
    api.resourcePropertiesCountIs('AWS::IAM::Role', { ManagedPolicyArns: [{ Ref: Object.keys(api.findResources('AWS::IAM::ManagedPolicy'))[0] }] }, functionOf.size);
    const actions = Object.values({ ...api.findResources('AWS::IAM::Policy'), ...api.findResources('AWS::IAM::ManagedPolicy') }).flatMap((p) =>
      (p.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement.flatMap((s) => [s.Action].flat()),
    );
    expect(actions.filter((a) => a.includes('*'))).toEqual([]);
  });
});

it('bundles every function into CommonJS that loads in Node, exports `handler` and runs through middy', () => {
  const functions = REGIONS.flatMap((region) =>
    Object.values(templateJson(`EnergyApi-${region}`).Resources).filter(isServiceFunction),
  );
  const bundles = [...new Set(functions.map((f) => path.join(outdir, f.Metadata!['aws:asset:path'], 'index.js')))];
  // The same module bundles once: three regions share each asset.
  expect(bundles).toHaveLength(functions.length / REGIONS.length);
  for (const bundle of bundles) expect(statSync(bundle).size).toBeLessThan(BUNDLE_BUDGET_BYTES);

  // What esbuild cannot inline, and the package data read on first use, ships beside the bundle that reads it
  // (HiGHS's WebAssembly, Swagger UI's assets, the gazetteer, the holiday and time-zone tables).
  let shipped = 0;
  for (const fn of functions) {
    // API functions are described `<module>: <routes>`, workers by their module alone.
    const module = String(fn.Properties.Description).split(':')[0];
    for (const file of runtimeFiles(module, ROOT)) {
      expect(statSync(path.join(outdir, fn.Metadata!['aws:asset:path'], path.basename(file))).size).toBe(statSync(path.join(ROOT, file)).size);
      shipped++;
    }
  }
  expect(shipped).toBeGreaterThan(0);

  const health = functions.find((f) => (f.Properties.Description as string).startsWith('get-health:'))!;
  const script = `
    const bundles = JSON.parse(process.argv[1]);
    const exported = bundles.map((b) => typeof require(b).handler);
    const event = { version: '2.0', routeKey: 'GET /health', rawPath: '/health', headers: {}, isBase64Encoded: false,
      requestContext: { requestId: 'infra-test', http: { method: 'GET', path: '/health', sourceIp: '127.0.0.1' } } };
    require(process.argv[2]).handler(event, { awsRequestId: 'infra-test', getRemainingTimeInMillis: () => 29000 })
      .then((r) => console.log(JSON.stringify({ exported, status: r.statusCode, body: JSON.parse(r.body) })));`;
  const run = spawnSync(process.execPath, ['-e', script, JSON.stringify(bundles), path.join(outdir, health.Metadata!['aws:asset:path'], 'index.js')], {
    encoding: 'utf8',
    timeout: 30_000,
    // Nothing listens on port 9: every dependency is unreachable at once, and the health check says so.
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'af-south-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      LOG_LEVEL: 'silent',
    },
  });
  expect(run.stderr).toBe('');
  const result = JSON.parse(run.stdout) as { exported: string[]; status: number; body: { status: string; service: string } };
  expect(result.exported).toEqual(bundles.map(() => 'function'));
  expect(result).toMatchObject({ status: 503, body: { status: 'degraded', service: 'energy-ops-api' } });
});

it('deploys the built console behind CloudFront, in a stack of its own', () => {
  const site = Template.fromJSON(templateJson(CONSOLE_STACK_ID));
  site.resourceCountIs('AWS::CloudFront::Distribution', 1);
  site.resourceCountIs('Custom::CDKBucketDeployment', 1);
  expect(readdirSync(outdir).some((entry) => entry.startsWith('asset.') && existsSync(path.join(outdir, entry, 'app.js')))).toBe(true);
});
