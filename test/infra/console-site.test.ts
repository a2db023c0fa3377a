/**
 * The console's distribution (lib/console/console-site.ts): a private bucket behind origin access control,
 * every API path of the route table sent uncached to the home region's HTTP API, the region router and the
 * console's paths run as functions, security headers, and no cdk-nag finding. Built in process from three
 * bare HTTP APIs (no functions), so it synthesises in seconds; then once through buildEnergyApp.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ServiceApi } from '../../lib/api/http-api';
import { CONSOLE_CSP } from '../../console/build';
import { apiPathPatterns, CONSOLE_PATHS_CODE, ConsoleSite, REGION_HEADER, regionRouterCode } from '../../lib/console/console-site';
import { CONSOLE_STACK_ID, buildEnergyApp } from '../../lib/energy-app';
import { ROUTES, type Route } from '../../shared/routes';
import { TEST_ACCOUNT } from '../helpers/cdk';

const REGIONS = ['af-south-1', 'us-east-1', 'eu-central-1'];
const STAGE = 'v1';
const CLOUD_ROUTES = ROUTES.filter((r) => !r.edgeOnly);
/** CloudFront's ids of the managed policies the API behaviours use. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

type Behaviour = { PathPattern: string; TargetOriginId: string; AllowedMethods: string[]; CachePolicyId: string; OriginRequestPolicyId: string; ViewerProtocolPolicy: string; ResponseHeadersPolicyId: unknown; FunctionAssociations: { FunctionARN: unknown }[] };
type DistributionConfig = { CacheBehaviors: Behaviour[]; DefaultCacheBehavior: Behaviour; Origins: { Id: string; DomainName: unknown; OriginPath?: string; OriginAccessControlId?: unknown; CustomOriginConfig?: unknown }[]; Logging: unknown };

let source: string;
let outdir: string;
let app: App;
let stack: Stack;
let template: Template;
let config: DistributionConfig;

/** CloudFront's path-pattern match: `*` is any run of characters, `?` one; case-sensitive, whole path. */
const matches = (pattern: string, uri: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(uri);
/** A request path for a row: each `{param}` filled in. */
const requestPath = (route: Route) => route.path.replace(/\{[^}]+\}/g, 'x1');
/** The behaviour CloudFront picks for a path: the first that matches, else the default. */
const behaviourFor = (uri: string) => config.CacheBehaviors.find((b) => matches(b.PathPattern, uri)) ?? config.DefaultCacheBehavior;
const refOf = (value: unknown) => (value as { Ref?: string; 'Fn::GetAtt'?: string[] }).Ref ?? (value as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];

/** Runs a CloudFront Function's source in Node with a stand-in for the `cloudfront` module. */
function viewerFunction(code: string) {
  const originUpdates: unknown[] = [];
  const cf = { updateRequestOrigin: (params: unknown) => originUpdates.push(params) };
  const handler = new Function('cf', `${code.replace("import cf from 'cloudfront';", '')}\nreturn handler;`)(cf) as (event: unknown) => Record<string, unknown>;
  const run = (uri: string, headers: Record<string, string> = {}) =>
    handler({ version: '1.0', request: { method: 'GET', uri, querystring: {}, cookies: {}, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, { value: v }])) } });
  return { run, originUpdates };
}

beforeAll(() => {
  source = mkdtempSync(path.join(tmpdir(), 'energy-console-src-'));
  writeFileSync(path.join(source, 'index.html'), '<!doctype html><title>console</title>');
  outdir = mkdtempSync(path.join(tmpdir(), 'energy-cdk-'));
  app = new App({ outdir });
  const apis = REGIONS.map((region) => {
    const api = new Stack(app, `Api-${region}`, { env: { account: TEST_ACCOUNT, region } });
    return new ServiceApi(api, 'Http', { routes: [], functions: new Map(), stageName: STAGE });
  });
  stack = new Stack(app, 'Console', { env: { account: TEST_ACCOUNT, region: REGIONS[0] }, crossRegionReferences: true });
  new ConsoleSite(stack, 'Site', { source, apis });
  template = Template.fromStack(stack);
  config = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0].Properties.DistributionConfig as DistributionConfig;
}, 60_000);

afterAll(() => {
  rmSync(source, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
});

it('keeps the console bucket private, TLS-only, encrypted, versioned and access-logged, readable by the distribution alone', () => {
  const buckets = template.findResources('AWS::S3::Bucket', { Properties: { VersioningConfiguration: { Status: 'Enabled' } } });
  expect(Object.keys(buckets)).toHaveLength(1);
  const [bucketId, bucket] = Object.entries(buckets)[0];
  // The logs keep ACLs on: CloudFront's standard logs are delivered with one.
  const [logsId] = Object.keys(template.findResources('AWS::S3::Bucket', { Properties: { OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] } } }));
  expect(bucket.Properties).toMatchObject({
    PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    LoggingConfiguration: { DestinationBucketName: { Ref: logsId }, LogFilePrefix: 'console-bucket/' },
  });
  const distributionId = Object.keys(template.findResources('AWS::CloudFront::Distribution'))[0];
  template.hasResourceProperties('AWS::S3::BucketPolicy', {
    Bucket: { Ref: bucketId },
    PolicyDocument: {
      Statement: Match.arrayWith([
        Match.objectLike({ Effect: 'Deny', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        Match.objectLike({
          Effect: 'Allow',
          Action: 's3:GetObject',
          Principal: { Service: 'cloudfront.amazonaws.com' },
          Condition: { StringEquals: { 'AWS:SourceArn': Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([{ Ref: distributionId }])]) }) } },
        }),
      ]),
    },
  });
  // The console is the default behaviour's S3 origin, signed by origin access control (no identity, no website endpoint).
  const oac = Object.keys(template.findResources('AWS::CloudFront::OriginAccessControl', { Properties: { OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' } } }));
  expect(oac).toHaveLength(1);
  const s3Origin = config.Origins.find((o) => o.Id === config.DefaultCacheBehavior.TargetOriginId)!;
  expect(s3Origin).toMatchObject({ DomainName: { 'Fn::GetAtt': [bucketId, 'RegionalDomainName'] }, OriginAccessControlId: { 'Fn::GetAtt': [oac[0], 'Id'] }, S3OriginConfig: { OriginAccessIdentity: '' } });
  expect(config.DefaultCacheBehavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', CachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6' });
  expect(config.Logging).toEqual({ Bucket: { 'Fn::GetAtt': [logsId, 'RegionalDomainName'] }, Prefix: 'distribution/' });
});

it('sends every path of the route table\'s cloud rows, and nothing of the console, uncached with every method to the home region\'s API', () => {
  const home = config.Origins.find((o) => o.OriginPath !== undefined)!;
  expect(home).toMatchObject({ OriginPath: `/${STAGE}`, CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] } });
  expect(JSON.stringify(home.DomainName)).toMatch(/"Fn::ImportValue".*\.execute-api\.af-south-1\./);
  for (const route of CLOUD_ROUTES) expect([route.path, behaviourFor(requestPath(route)).TargetOriginId]).toEqual([route.path, home.Id]);
  for (const uri of ['/console/', '/console/app.js', '/console/index.html', '/']) expect(behaviourFor(uri)).toBe(config.DefaultCacheBehavior);

  const router = Object.keys(template.findResources('AWS::CloudFront::Function', { Properties: { FunctionCode: Match.objectLike({ 'Fn::Join': Match.anyValue() }) } }))[0];
  expect(config.CacheBehaviors.map((b) => b.PathPattern).sort()).toEqual(apiPathPatterns(ROUTES).sort());
  for (const behaviour of config.CacheBehaviors) {
    expect(behaviour).toMatchObject({
      TargetOriginId: home.Id,
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: 'https-only',
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [router, 'FunctionARN'] } }],
    });
  }
  expect(config.CacheBehaviors.length + 1).toBeLessThanOrEqual(25);
});

it('derives one pattern per first path segment, and refuses paths CloudFront cannot tell from the console', () => {
  const row = (path: string, edgeOnly?: boolean) => ({ ...CLOUD_ROUTES[0], id: path, path, edgeOnly });
  expect(apiPathPatterns([row('/forecast'), row('/forecast'), row('/api/sites/{id}'), row('/api/usage'), row('/v1/freemium-forecast'), row('/edge/x', true)])).toEqual(['/forecast', '/api/*', '/v1/*']);
  expect(() => apiPathPatterns([row('/{tenant}/health')])).toThrow(/starts with a parameter/);
  expect(() => apiPathPatterns([row('/console/thing')])).toThrow(/console/);
  expect(() => apiPathPatterns(Array.from({ length: 25 }, (_, i) => row(`/p${i}`)))).toThrow(/25 behaviours/);
});

it('routes a request to the region its x-energy-region header names, the home region without one, and answers 400 for another name', () => {
  // Prepare
  const domains = new Map(REGIONS.map((r) => [r, `api-${r}.example`]));
  const { run, originUpdates } = viewerFunction(regionRouterCode(domains));

  // Act, Assess
  expect(run('/api/usage')).toMatchObject({ uri: '/api/usage' });
  expect(run('/api/usage', { [REGION_HEADER]: 'af-south-1' })).toMatchObject({ uri: '/api/usage' });
  expect(originUpdates).toEqual([]);
  expect(run('/forecast', { [REGION_HEADER]: ' EU-Central-1 ' })).toMatchObject({ uri: '/forecast' });
  expect(originUpdates).toEqual([{ domainName: 'api-eu-central-1.example' }]);

  const refused = run('/api/usage', { [REGION_HEADER]: 'ap-south-1' });
  expect(refused).toMatchObject({ statusCode: 400, headers: { 'content-type': { value: 'application/json; charset=utf-8' } } });
  expect(JSON.parse((refused.body as { data: string }).data)).toEqual({ status: 'error', error: `${REGION_HEADER} names no deployed region (${REGIONS.join(', ')})` });
  const terminal = run('/terminal/assets', { [REGION_HEADER]: '__proto__' });
  expect(JSON.parse((terminal.body as { data: string }).data)).toEqual({ success: false, message: `${REGION_HEADER} names no deployed region (${REGIONS.join(', ')})` });
  expect(originUpdates).toHaveLength(1);

  // The deployed function names each region's API: the home one by export, the others by cross-region reference.
  const [deployed] = Object.values(template.findResources('AWS::CloudFront::Function', { Properties: { FunctionConfig: { Runtime: 'cloudfront-js-2.0' }, FunctionCode: Match.objectLike({ 'Fn::Join': Match.anyValue() }) } }));
  const code = JSON.stringify(deployed.Properties.FunctionCode);
  for (const region of REGIONS) expect(code).toContain(`.execute-api.${region}.`);
  expect(code.match(/ExportsReader/g)).toHaveLength(2);
});

it('sends / and /console to /console/ and serves /console/ as its index.html', () => {
  const { run } = viewerFunction(CONSOLE_PATHS_CODE);
  expect(run('/')).toEqual({ statusCode: 302, statusDescription: 'Found', headers: { location: { value: '/console/' } } });
  expect(run('/console')).toMatchObject({ statusCode: 302 });
  expect(run('/console/')).toMatchObject({ uri: '/console/index.html' });
  expect(run('/console/app.js')).toMatchObject({ uri: '/console/app.js' });
  template.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: CONSOLE_PATHS_CODE, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
  expect(refOf(config.DefaultCacheBehavior.FunctionAssociations[0].FunctionARN)).toMatch(/ConsolePaths/);
});

it('adds HSTS, nosniff, DENY framing, no referrer, and on the console its content security policy', () => {
  const security = {
    StrictTransportSecurity: { AccessControlMaxAgeSec: 365 * 24 * 3600, IncludeSubdomains: true, Override: true },
    ContentTypeOptions: { Override: true },
    FrameOptions: { FrameOption: 'DENY', Override: true },
    ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
  };
  const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy');
  const consolePolicy = policies[refOf(config.DefaultCacheBehavior.ResponseHeadersPolicyId)].Properties.ResponseHeadersPolicyConfig;
  expect(consolePolicy.SecurityHeadersConfig).toEqual({ ...security, ContentSecurityPolicy: { ContentSecurityPolicy: CONSOLE_CSP, Override: true } });
  const directives = new Map(CONSOLE_CSP.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  expect(Object.fromEntries(directives)).toEqual({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  });
  // The API's behaviours: the same headers without the console's CSP (Swagger UI at /docs runs an inline script).
  const apiPolicies = new Set(config.CacheBehaviors.map((b) => refOf(b.ResponseHeadersPolicyId)));
  expect(apiPolicies.size).toBe(1);
  expect(policies[[...apiPolicies][0]].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig).toEqual(security);
});

it('deploys the source folder under console/ and invalidates /console/* on the distribution', () => {
  template.hasResourceProperties('Custom::CDKBucketDeployment', {
    DestinationBucketName: { Ref: Match.stringLikeRegexp('SiteBucket') },
    DestinationBucketKeyPrefix: 'console/',
    DistributionId: { Ref: Match.stringLikeRegexp('SiteDistribution') },
    DistributionPaths: ['/console/*'],
    Prune: true,
    SystemMetadata: { 'cache-control': 'max-age=0, s-maxage=86400' },
  });
});

it('leaves cdk-nag nothing unacknowledged in the console stack', () => {
  expect(new AwsSolutionsChecks().validateScope(stack).violations).toEqual([]);
});

it('puts the console stack in the first region of the app, in front of each region\'s API, and synthesises with cdk-nag on', () => {
  // Prepare: two regions, one route (one small bundle), the dummy console
  const regionApp = new App({ outdir: mkdtempSync(path.join(tmpdir(), 'energy-cdk-')) });
  const health = ROUTES.filter((r) => r.handler === 'get-health');
  try {
    // Act: the app's nag plugin throws on synthesis if anything is unacknowledged
    const stacks = buildEnergyApp(regionApp, {
      regions: ['eu-central-1', 'us-east-1'],
      stageName: STAGE,
      account: TEST_ACCOUNT,
      pipelines: { queues: [], rules: [], triggers: [], schedules: [] },
      routes: health,
      projectRoot: path.resolve(__dirname, '../..'),
      consoleDir: source,
    });
    const consoleStack = regionApp.node.findChild(CONSOLE_STACK_ID) as Stack;
    const built = Template.fromStack(consoleStack);

    // Assess
    expect(consoleStack.region).toBe('eu-central-1');
    expect(consoleStack.dependencies.map((s) => s.stackName).sort()).toEqual([...stacks.values()].map((s) => s.api.stackName).sort());
    const distribution = Object.values(built.findResources('AWS::CloudFront::Distribution'))[0].Properties.DistributionConfig as DistributionConfig;
    expect(distribution.CacheBehaviors.map((b) => b.PathPattern)).toEqual(['/health']);
    expect(JSON.stringify(distribution.Origins)).toMatch(/EnergyApi-eu-central-1:.*\.execute-api\.eu-central-1\./);
    built.hasOutput('ConsoleUrl', { Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [Match.stringLikeRegexp('SiteDistribution'), 'DomainName'] }, '/console/']] } });
  } finally {
    rmSync(regionApp.outdir, { recursive: true, force: true });
  }
}, 120_000);
