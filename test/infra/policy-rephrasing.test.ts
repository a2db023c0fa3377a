/**
 * The optional Bedrock rephrasing of policy answers, deployed: with `policyRephrasingModel` the policy
 * function is told to rephrase with that model and may invoke it, and nothing else; without it, neither.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ROUTES } from '../../shared/routes';
import { synthRegion } from '../helpers/cdk';

const REGION = 'eu-central-1';
const MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';
const POLICY_ROUTES = ROUTES.filter((r) => r.handler === 'policy-compliance');

function synth(model?: string) {
  const { app, api } = synthRegion(REGION, { routes: POLICY_ROUTES, policyRephrasingModel: model });
  return { template: api, violations: new AwsSolutionsChecks().validateScope(app).violations };
}

it('lets the policy function invoke the configured model only, and tells it to rephrase', () => {
  const { template, violations } = synth(MODEL);
  template.hasResourceProperties('AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp('^policy-compliance:'),
    Environment: { Variables: Match.objectLike({ POLICY_REPHRASING: 'bedrock', BEDROCK_MODEL_ID: MODEL }) },
  });
  template.hasResourceProperties('AWS::IAM::Policy', {
    PolicyDocument: {
      Statement: Match.arrayWith([
        Match.objectLike({ Action: 'bedrock:InvokeModel', Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:bedrock:${REGION}::foundation-model/${MODEL}`]] } }),
      ]),
    },
  });
  expect(violations).toEqual([]);
}, 120_000);

it('grants nothing and sets nothing without a model', () => {
  const { template } = synth();
  expect(JSON.stringify(template.toJSON())).not.toMatch(/bedrock|POLICY_REPHRASING/);
}, 120_000);
