/**
 * The pipeline wiring that shared/pipelines.ts does not use yet: a queue with a consumer and a bucket
 * trigger, both pointed at a fixture worker, built in process for one region with a known account.
 */
import path from 'node:path';
import type { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { consumerTimeoutSeconds } from '../../lib/pipelines/workers';
import type { Pipelines } from '../../shared/pipelines';
import { synthRegion, TEST_ACCOUNT as ACCOUNT } from '../helpers/cdk';

const REGION = 'eu-central-1';
const PIPELINES: Pipelines = {
  queues: [{ id: 'jobs', purpose: 'fixture jobs', consumer: 'echo-worker', visibilityTimeoutSeconds: 120, maxReceiveCount: 2, batchSize: 5 }],
  rules: [{ id: 'fixture-events', eventTypes: ['thing.happened'], queue: 'jobs' }],
  triggers: [{ id: 'fixture-uploads', prefixes: ['nowcast/', 'historical/'], handler: 'echo-worker' }],
  schedules: [
    { id: 'fixture-daily', purpose: 'fixture schedule', handler: 'echo-worker', everyHours: 24, timeoutSeconds: 300 },
    { id: 'fixture-quarter-hour', purpose: 'fixture schedule in minutes', handler: 'echo-worker', everyMinutes: 15, timeoutSeconds: 300, runAtStart: true },
  ],
};

let app: App;
let data: Template;
let api: Template;
let worker: string;

beforeAll(() => {
  ({ app, api, data } = synthRegion(REGION, { pipelines: PIPELINES, routes: [], functionsDir: path.join(__dirname, 'fixtures') }));
  worker = Object.keys(api.findResources('AWS::Lambda::Function', { Properties: { Description: 'echo-worker' } }))[0];
}, 120_000);

it('gives the consumer an SQS event source with the row\'s batch size and partial batch failures', () => {
  api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
    FunctionName: { Ref: worker },
    EventSourceArn: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:sqs:${REGION}:${ACCOUNT}:energy-jobs`]] },
    BatchSize: 5,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
  });
  api.hasResourceProperties('AWS::IAM::Policy', {
    Roles: [{ Ref: Match.stringLikeRegexp('EchoWorkerRole') }],
    PolicyDocument: {
      Statement: Match.arrayWith([
        Match.objectLike({
          Action: Match.arrayWith(['sqs:DeleteMessage', 'sqs:ReceiveMessage']),
          Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:sqs:${REGION}:${ACCOUNT}:energy-jobs`]] },
        }),
      ]),
    },
  });
});

it('ends a worker\'s run before its message reappears: the shortest time-out its queues and triggers allow', () => {
  expect(consumerTimeoutSeconds(120)).toBe(108);
  expect(consumerTimeoutSeconds(960)).toBe(864);
  expect(consumerTimeoutSeconds(3600)).toBe(900);
  api.hasResourceProperties('AWS::Lambda::Function', { Description: 'echo-worker', Timeout: 108, Runtime: 'nodejs22.x', Architectures: ['arm64'] });
});

it('invokes the trigger\'s worker for objects created under each of its prefixes', () => {
  const created = (prefix: string) => ({
    Events: ['s3:ObjectCreated:*'],
    Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: prefix }] } },
    LambdaFunctionArn: { 'Fn::GetAtt': [worker, 'Arn'] },
  });
  api.hasResourceProperties('Custom::S3BucketNotifications', {
    BucketName: `energy-data-${ACCOUNT}-${REGION}`,
    // The bucket belongs to the data stack: notifications other stacks set are kept.
    Managed: false,
    NotificationConfiguration: { LambdaFunctionConfigurations: [created('nowcast/'), created('historical/')] },
  });
  api.hasResourceProperties('AWS::Lambda::Permission', {
    FunctionName: { 'Fn::GetAtt': [worker, 'Arn'] },
    Principal: 's3.amazonaws.com',
    SourceAccount: ACCOUNT,
    SourceArn: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::energy-data-${ACCOUNT}-${REGION}`]] },
  });
});

it('invokes the schedule\'s worker at its rate, in hours or minutes, from an EventBridge rule, retrying a failed run', () => {
  for (const rate of ['rate(1 day)', 'rate(15 minutes)']) {
    api.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: rate,
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [worker, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 2 } })],
    });
  }
  api.resourceCountIs('AWS::Events::Rule', 2);
  api.hasResourceProperties('AWS::Lambda::Permission', { FunctionName: { 'Fn::GetAtt': [worker, 'Arn'] }, Principal: 'events.amazonaws.com' });
});

it('builds the override\'s queue, DLQ and rule in the data stack', () => {
  const queues = data.findResources('AWS::SQS::Queue');
  const idOf = (name: string) => Object.keys(queues).find((id) => queues[id].Properties.QueueName === name)!;
  data.hasResourceProperties('AWS::SQS::Queue', {
    QueueName: 'energy-jobs',
    VisibilityTimeout: 120,
    RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [idOf('energy-jobs-dlq'), 'Arn'] }, maxReceiveCount: 2 },
  });
  data.hasResourceProperties('AWS::Events::Rule', {
    EventPattern: { source: ['energy-ops'], 'detail-type': ['thing.happened'] },
    Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [idOf('energy-jobs'), 'Arn'] }, InputPath: '$.detail' })],
  });
});

it('leaves cdk-nag nothing unacknowledged, CDK\'s own notification handler included', () => {
  api.resourceCountIs('AWS::Lambda::Function', 2); // the worker and CDK's BucketNotificationsHandler
  expect(new AwsSolutionsChecks().validateScope(app).violations).toEqual([]);
});
