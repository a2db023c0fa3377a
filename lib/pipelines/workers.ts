/**
 * The worker functions of shared/pipelines.ts: queue consumers (SQS event source, partial batch failures),
 * bucket triggers (ObjectCreated under a key prefix) and schedules (an EventBridge rate rule). One function per worker module, however many
 * queues or prefixes it serves.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { EventType } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import { scheduleMinutes, UPLOAD_PROCESSING_TIMEOUT_SECONDS, type Pipelines } from '../../shared/pipelines';
import type { DataReferences } from '../api/data-references';
import { moduleConstructId, ServiceFunction, type FunctionSettings } from '../api/service-function';

/** Lambda's own ceiling on a function's time-out. */
const MAX_LAMBDA_TIMEOUT_SECONDS = 900;
/** A bucket trigger's worker parses and merges one uploaded file. */
const TRIGGER_TIMEOUT_SECONDS = UPLOAD_PROCESSING_TIMEOUT_SECONDS;

/**
 * A consumer must finish before its message becomes visible again, or a second copy starts while the
 * first still runs; a tenth of the visibility time-out is left for the event source's own round trips.
 */
export const consumerTimeoutSeconds = (visibilityTimeoutSeconds: number): number =>
  Math.min(MAX_LAMBDA_TIMEOUT_SECONDS, Math.floor(visibilityTimeoutSeconds * 0.9));

export interface WorkersProps {
  readonly pipelines: Pipelines;
  readonly data: DataReferences;
  readonly settings: FunctionSettings;
}

export class Workers extends Construct {
  /** Worker functions by module. */
  readonly functions = new Map<string, ServiceFunction>();

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    const { pipelines, data } = props;
    const consumers = pipelines.queues.filter((q) => q.consumer);

    // The shortest time-out any of a module's sources allows.
    const timeouts = new Map<string, number>();
    const allow = (module: string, seconds: number) => timeouts.set(module, Math.min(timeouts.get(module) ?? Infinity, seconds));
    for (const q of consumers) allow(q.consumer!, consumerTimeoutSeconds(q.visibilityTimeoutSeconds));
    for (const t of pipelines.triggers) allow(t.handler, TRIGGER_TIMEOUT_SECONDS);
    for (const s of pipelines.schedules) allow(s.handler, s.timeoutSeconds);

    for (const [module, seconds] of timeouts) {
      this.functions.set(
        module,
        new ServiceFunction(this, moduleConstructId(module), { module, settings: props.settings, timeout: Duration.seconds(seconds) }),
      );
    }

    for (const q of consumers) {
      const queue = data.queues[q.id];
      this.functions.get(q.consumer!)!.function.addEventSource(new SqsEventSource(queue, { batchSize: q.batchSize, reportBatchItemFailures: true }));
    }

    for (const trigger of pipelines.triggers) {
      const destination = new LambdaDestination(this.functions.get(trigger.handler)!.function);
      for (const prefix of trigger.prefixes) data.bucket.addEventNotification(EventType.OBJECT_CREATED, destination, { prefix });
    }
    if (pipelines.triggers.length) acknowledgeNotificationsHandler(Stack.of(this));

    for (const schedule of pipelines.schedules) {
      new Rule(this, `Schedule-${schedule.id}`, {
        description: schedule.purpose,
        // In minutes, which CDK writes in the largest whole unit: `rate(15 minutes)`, `rate(1 day)`.
        schedule: Schedule.rate(Duration.minutes(scheduleMinutes(schedule))),
        targets: [new LambdaFunction(this.functions.get(schedule.handler)!.function, { retryAttempts: 2 })],
      });
    }
  }
}

/**
 * The bucket is imported from the data stack, so CDK sets its notifications through a custom resource
 * backed by its own singleton function (BucketNotificationsHandler), whose role is CDK's, not ours.
 */
function acknowledgeNotificationsHandler(stack: Stack): void {
  const handlers = stack.node.children.filter((c) => c.node.id.startsWith('BucketNotificationsHandler'));
  for (const handler of handlers) {
    Validations.of(handler).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: "CDK's bucket-notifications handler writes its logs with the AWS-managed basic execution policy; CDK does not let us replace its role.",
    });
  }
}
