/**
 * The web console on one origin with the API: CloudFront serves the built console from a private S3 bucket
 * (origin access control) under /console/, and sends every API path to the regions' HTTP APIs, so the page
 * calls the API on its own origin and no CORS is configured anywhere.
 *
 * Which region answers an API request. Data stays in its region (the accounts, keys and series of af-south-1
 * are unknown to eu-central-1), so a request must reach the region that holds the caller's account, not the
 * nearest or any healthy one: an origin group would fail over to a region without the key (and fails over
 * only GET/HEAD/OPTIONS), and routing by the viewer's location (a CloudFront-Viewer-* header) would send a
 * caller who travels or uses a VPN to a region that does not know the key. So the caller names its region:
 * a CloudFront Function (JavaScript runtime 2.0, viewer request) on the API behaviours reads the
 * `x-energy-region` header, switches the origin to that region's API with `cf.updateRequestOrigin` (the path,
 * `/v1`, TLS and time-outs stay the home origin's, the same in every region), answers 400 for a region not
 * deployed, and leaves a request without the header on the home region (the first of cdk.json).
 * Limits: no failover (a region that is down is down for its callers, as without CloudFront); the functions
 * see CloudFront's address as the source IP, so the per-address limits (register, freemium) count per
 * CloudFront edge server rather than per client; and the API's /openapi.json names the execute-api address
 * it was served from, not this origin.
 */
import { Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Policy } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { CONSOLE_CSP } from '../../console/build';
import { ROUTES, type Route } from '../../shared/routes';
import type { ServiceApi } from '../api/http-api';
import { PRIVATE_BUCKET } from '../data/bucket';
import { nagResourceText } from '../nag';

/** Where the console lives on the distribution, and its key prefix in the bucket. */
export const CONSOLE_PATH = '/console/';


/** The request header with which a caller names the region of its account (absent: the home region). */
export const REGION_HEADER = 'x-energy-region';

/** CloudFront's default quota of cache behaviours per distribution, the default behaviour included. */
const MAX_BEHAVIOURS = 25;

/**
 * The distribution's API path patterns, from the rows served in the cloud: each row's first path segment,
 * exactly (`/forecast`) or with everything under it (`/api/*`). The route table is the only list of paths.
 */
export function apiPathPatterns(routes: readonly Route[]): string[] {
  const patterns = new Set<string>();
  for (const route of routes.filter((r) => !r.edgeOnly)) {
    const [, first, ...rest] = route.path.split('/');
    if (!first || first.startsWith('{')) throw new Error(`route ${route.id}: a path that starts with a parameter cannot have a CloudFront behaviour of its own`);
    if (`/${first}/` === CONSOLE_PATH) throw new Error(`route ${route.id}: ${CONSOLE_PATH} is the console's`);
    patterns.add(rest.length ? `/${first}/*` : `/${first}`);
  }
  if (patterns.size + 1 > MAX_BEHAVIOURS) throw new Error(`${patterns.size} API path patterns and the console exceed CloudFront's ${MAX_BEHAVIOURS} behaviours per distribution`);
  return [...patterns];
}

/**
 * The viewer-request function of the API behaviours (runtime 2.0), as source: the origin of the region the
 * request names. A bad name gets the route group's error envelope (ARCHITECTURE 4), as the API would answer.
 * @param domains the API domain of each region, the home region first (tokens allowed)
 */
export function regionRouterCode(domains: ReadonlyMap<string, string>): string {
  const regions = [...domains.keys()];
  const message = `${REGION_HEADER} names no deployed region (${regions.join(', ')})`;
  return `import cf from 'cloudfront';
const HOME = ${JSON.stringify(regions[0])};
const DOMAINS = { ${[...domains].map(([region, domain]) => `${JSON.stringify(region)}: '${domain}'`).join(', ')} };
function handler(event) {
  const request = event.request;
  const named = request.headers['${REGION_HEADER}'];
  const region = named ? named.value.trim().toLowerCase() : HOME;
  if (!Object.prototype.hasOwnProperty.call(DOMAINS, region)) {
    const body = request.uri.startsWith('/terminal/') ? { success: false, message: ${JSON.stringify(message)} } : { status: 'error', error: ${JSON.stringify(message)} };
    return { statusCode: 400, statusDescription: 'Bad Request', headers: { 'content-type': { value: 'application/json; charset=utf-8' } }, body: { encoding: 'text', data: JSON.stringify(body) } };
  }
  if (region !== HOME) cf.updateRequestOrigin({ domainName: DOMAINS[region] });
  return request;
}
`;
}

/** The viewer-request function of the console: `/` and `/console` go to the page, `/console/` is index.html. */
export const CONSOLE_PATHS_CODE = `function handler(event) {
  const request = event.request;
  if (request.uri === '/' || request.uri === '${CONSOLE_PATH.slice(0, -1)}') {
    return { statusCode: 302, statusDescription: 'Found', headers: { location: { value: '${CONSOLE_PATH}' } } };
  }
  if (request.uri === '${CONSOLE_PATH}') request.uri = '${CONSOLE_PATH}index.html';
  return request;
}
`;

export interface ConsoleSiteProps {
  /** Folder of the built console (index.html, app.js, app.css: console/build.ts), deployed under /console/. */
  readonly source: string;
  /**
   * The HTTP API of each region, the home region first: its API is the behaviours' origin and answers the
   * requests that name no region. Every API has the same stage name.
   */
  readonly apis: readonly ServiceApi[];
  /**
   * The route table; the API path patterns come from its cloud rows.
   * @default ROUTES of shared/routes/index.ts
   */
  readonly routes?: readonly Route[];
  /**
   * A custom domain's certificate (ACM, us-east-1) and names; viewers then need TLS 1.2 or later.
   * @default - the distribution's cloudfront.net name and certificate
   */
  readonly certificate?: ICertificate;
  /** @default - none (required with `certificate`) */
  readonly domainNames?: string[];
  /**
   * A WAF web ACL (scope CLOUDFRONT, made in us-east-1) to attach, by ARN.
   * @default - none
   */
  readonly webAclArn?: string;
  /**
   * How long the distribution's and the bucket's access logs are kept.
   * @default Duration.days(365)
   */
  readonly accessLogExpiration?: Duration;
}

export class ConsoleSite extends Construct {
  readonly bucket: Bucket;
  readonly accessLogs: Bucket;
  readonly distribution: Distribution;
  readonly deployment: BucketDeployment;
  /** The API path patterns routed to the HTTP APIs. */
  readonly apiPathPatterns: readonly string[];

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    const [home] = props.apis;
    if (!home) throw new Error('the console needs the API of at least one region');
    const stageName = home.stage.stageName;
    if (props.apis.some((api) => api.stage.stageName !== stageName)) throw new Error('every region must serve the API on the same stage');

    this.accessLogs = new Bucket(this, 'AccessLogs', {
      ...PRIVATE_BUCKET,
      // CloudFront's standard logs are delivered with an ACL; owner-preferred keeps the objects the bucket owner's.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: props.accessLogExpiration ?? Duration.days(365) }],
    });
    this.bucket = new Bucket(this, 'Bucket', {
      ...PRIVATE_BUCKET,
      versioned: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'console-bucket/',
      // Old builds are only a way back from a bad deploy.
      lifecycleRules: [{ id: 'expire-old-builds', noncurrentVersionExpiration: Duration.days(30) }],
    });

    const security: ResponseSecurityHeadersBehavior = {
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
    };
    const consoleHeaders = new ResponseHeadersPolicy(this, 'ConsoleHeaders', {
      comment: 'Energy console: security headers and its content security policy',
      securityHeadersBehavior: { ...security, contentSecurityPolicy: { contentSecurityPolicy: CONSOLE_CSP, override: true } },
    });
    // The API's own pages (Swagger UI at /docs starts itself with an inline script) keep their headers: no CSP here.
    const apiHeaders = new ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: 'Energy API through the console origin: security headers',
      securityHeadersBehavior: security,
    });

    const consolePaths = new CloudFrontFunction(this, 'ConsolePaths', {
      comment: 'Energy console: / and /console to /console/, /console/ to its index.html',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(CONSOLE_PATHS_CODE),
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Energy console and API',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: consoleHeaders,
        functionAssociations: [{ function: consolePaths, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      certificate: props.certificate,
      domainNames: props.domainNames,
      minimumProtocolVersion: props.certificate ? SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      webAclId: props.webAclArn,
      enableLogging: true,
      logBucket: this.accessLogs,
      logFilePrefix: 'distribution/',
    });

    const domains = new Map(props.apis.map((api) => [regionOf(api), `${api.api.apiId}.execute-api.${regionOf(api)}.${Stack.of(this).urlSuffix}`]));
    const apiBehaviour: BehaviorOptions = {
      origin: new HttpOrigin(domains.get(regionOf(home))!, {
        originPath: `/${stageName}`,
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      }),
      // A request that arrives over HTTP has already sent its key in clear: refuse it rather than redirect.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Everything but Host (API Gateway answers only to its own name): the key headers, the query, the body.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: apiHeaders,
      functionAssociations:
        domains.size > 1
          ? [
              {
                function: new CloudFrontFunction(this, 'RegionRouter', {
                  comment: `Energy API: the region named by ${REGION_HEADER}`,
                  runtime: FunctionRuntime.JS_2_0,
                  code: FunctionCode.fromInline(regionRouterCode(domains)),
                }),
                eventType: FunctionEventType.VIEWER_REQUEST,
              },
            ]
          : undefined,
    };
    this.apiPathPatterns = apiPathPatterns(props.routes ?? ROUTES);
    for (const pattern of this.apiPathPatterns) this.distribution.addBehavior(pattern, apiBehaviour.origin, apiBehaviour);

    this.deployment = new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(props.source)],
      destinationBucket: this.bucket,
      destinationKeyPrefix: CONSOLE_PATH.slice(1),
      // The file names are fixed, not hashed: browsers revalidate every load, the edge keeps a day unless invalidated.
      cacheControl: [CacheControl.maxAge(Duration.seconds(0)), CacheControl.sMaxAge(Duration.days(1))],
      distribution: this.distribution,
      distributionPaths: [`${CONSOLE_PATH}*`],
      logGroup: new LogGroup(this, 'DeployLogs', { retention: RetentionDays.ONE_MONTH }),
    });

    this.acknowledge(props);
    this.acknowledgeDeploymentHandler();
  }

  private acknowledge(props: ConsoleSiteProps): void {
    const distribution = Validations.of(this.distribution);
    distribution.acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The service is offered in every country; what a caller may do is decided per key and tier, not by the viewer\'s location.',
    });
    if (!props.webAclArn) {
      distribution.acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'No WAF by default: every API route authenticates its key and rate-limits per key or address in the function, and the stage is throttled. A CLOUDFRONT-scope web ACL lives in us-east-1 and has a monthly cost; pass webAclArn to attach one.',
      });
    }
    if (!props.certificate) {
      distribution.acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'The default cloudfront.net certificate cannot set a minimum viewer protocol (CloudFront allows TLSv1 on it); with a custom domain (certificate, domainNames) the distribution requires TLSv1.2_2021.',
      });
    }
  }

  /**
   * BucketDeployment runs CDK's own function (a singleton per stack, with the AWS CLI layer); its role's
   * grants are CDK's: read the asset bucket, write the console bucket (`s3:GetObject*`-style action groups
   * on the two buckets' keys), and invalidate the distribution, which CloudFront does not scope to a resource.
   */
  private acknowledgeDeploymentHandler(): void {
    const role = this.deployment.handlerRole;
    const handler = role.node.scope!;
    const policy = role.node.findChild('DefaultPolicy') as Policy;
    const statements = (Stack.of(this).resolve(policy.document.toJSON()) as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement;
    const wildcards = new Set<string>();
    for (const statement of statements) {
      for (const action of [statement.Action].flat()) if (action.includes('*')) wildcards.add(`Action::${action}`);
      for (const resource of [statement.Resource].flat()) {
        const text = nagResourceText(this, resource as string);
        if (text.includes('*')) wildcards.add(`Resource::${text}`);
      }
    }
    const reason = "CDK's BucketDeployment function: it copies the console from CDK's asset bucket to the console bucket and invalidates /console/* (CloudFront invalidations take no resource); CDK writes its grants.";
    Validations.of(handler).acknowledge(
      ...[...wildcards].map((finding) => ({ id: `AwsSolutions-IAM5[${finding}]`, reason })),
      { id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', reason: `${reason} It logs with the AWS-managed basic execution policy; CDK does not let us replace its role's policies.` },
      { id: 'AwsSolutions-L1', reason: `${reason} Its runtime is CDK's, matched to the AWS CLI layer CDK bundles.` },
    );
  }
}

/** The region of the stack an API lives in; a token would leave the router without its keys. */
function regionOf(api: ServiceApi): string {
  const region = Stack.of(api).region;
  if (Token.isUnresolved(region)) throw new Error('each API stack needs an explicit region');
  return region;
}
