/**
 * The web console: one CloudFront distribution for the whole service, made in the home region (the first of
 * cdk.json), serving the console and routing the API paths to every region's HTTP API (lib/console/console-site.ts).
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Route } from '../shared/routes';
import type { ApiStack } from './api-stack';
import { CONSOLE_PATH, ConsoleSite } from './console/console-site';

export interface ConsoleStackProps extends StackProps {
  /** Folder of the built console (console/build.ts `writeConsoleSync`). */
  readonly source: string;
  /** The API stack of each region, the home region first. */
  readonly apis: readonly ApiStack[];
  /**
   * The route table the API stacks serve.
   * @default ROUTES of shared/routes/index.ts
   */
  readonly routes?: readonly Route[];
}

export class ConsoleStack extends Stack {
  readonly site: ConsoleSite;

  constructor(scope: Construct, id: string, props: ConsoleStackProps) {
    // The other regions' API ids reach this stack through CDK's cross-region references (SSM parameters
    // written in their region, read here), which also keep an API from being replaced while it is routed to.
    super(scope, id, { ...props, crossRegionReferences: true });
    this.site = new ConsoleSite(this, 'Site', { source: props.source, apis: props.apis.map((s) => s.api), routes: props.routes });
    new CfnOutput(this, 'ConsoleUrl', { value: `https://${this.site.distribution.distributionDomainName}${CONSOLE_PATH}`, description: 'The web console; the API answers on the same origin' });
  }
}
