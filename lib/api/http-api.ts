/**
 * The region's HTTP API (payload format 2.0): one route per row of the route table served in the cloud,
 * each integrated with its handler module's function, on one stage that carries the stage name in the URL.
 */
import { Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination, type ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Route } from '../../shared/routes';
import { moduleConstructId } from './service-function';

/** One JSON line per request, in HTTP API context variables (CloudWatch Logs Insights reads the fields). */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    path: '$context.path',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationLatencyMs: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    userAgent: '$context.identity.userAgent',
  }),
);

export interface ServiceApiProps {
  /** The rows to serve (edge-only rows already left out). */
  readonly routes: readonly Route[];
  /** The function of each handler module. */
  readonly functions: ReadonlyMap<string, IFunction>;
  /** Stage name, the first path segment of every URL (`v1`). */
  readonly stageName: string;
  /**
   * Stage-wide ceiling in requests per second: a guard for the account's regional quota. The per-key and
   * per-address limits of the spec are enforced in the functions (shared/access/rate-limit.ts).
   * @default { rateLimit: 1000, burstLimit: 2000 }
   */
  readonly throttle?: ThrottleSettings;
  /**
   * How long access logs are kept.
   * @default RetentionDays.ONE_MONTH
   */
  readonly accessLogRetention?: RetentionDays;
}

export class ServiceApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', { description: 'Energy analytics and asset operations API', createDefaultStage: false });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.accessLogRetention ?? RetentionDays.ONE_MONTH });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: props.stageName,
      autoDeploy: true,
      throttle: props.throttle ?? { rateLimit: 1000, burstLimit: 2000 },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: ACCESS_LOG_FORMAT },
    });

    const integrations = new Map<string, HttpLambdaIntegration>();
    for (const route of props.routes) {
      const fn = props.functions.get(route.handler);
      if (!fn) throw new Error(`route ${route.id}: no function for handler module ${route.handler}`);
      let integration = integrations.get(route.handler);
      if (!integration) {
        // One invoke permission per function for the whole API rather than one per route: a module may serve several routes.
        integration = new HttpLambdaIntegration(`${moduleConstructId(route.handler)}Integration`, fn, { scopePermissionToRoute: false });
        integrations.set(route.handler, integration);
      }
      this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration });
    }

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Routes authenticate in the function: the auth middleware (shared/http/api-handler.ts) checks the x-api-key or Bearer key against stored key hashes, tier and quota, with the error bodies the spec requires; open routes (health, register, freemium) are open by the spec and limited per address.',
    });
  }
}
