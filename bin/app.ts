/** CDK app: `npx cdk synth --all` (cdk.json). Regions and the stage name come from cdk.json context. */
import { App } from 'aws-cdk-lib';
import { buildEnergyApp } from '../lib/energy-app';

const app = new App();
const regions = app.node.tryGetContext('regions') as string[] | undefined;
const stageName = app.node.tryGetContext('stage') as string | undefined;
if (!regions?.length || !stageName) throw new Error('cdk.json context must name the regions and the stage');

// Optional: `cdk synth -c policyRephrasingModel=<bedrock model id>` turns on the rephrasing of policy answers.
const policyRephrasingModel = app.node.tryGetContext('policyRephrasingModel') as string | undefined;

buildEnergyApp(app, { regions, stageName, policyRephrasingModel });
