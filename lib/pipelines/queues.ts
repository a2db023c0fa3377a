/** The work queues of shared/pipelines.ts, each with the dead-letter queue that parks a poisoned message. */
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { dlqId, type QueueSpec } from '../../shared/pipelines';

export interface WorkQueuesProps {
  readonly specs: readonly QueueSpec[];
  /** Physical name by logical id, DLQs included (lib/names.ts). */
  readonly names: Record<string, string>;
  /**
   * How long a parked message waits in a DLQ for someone to look at it (SQS allows at most 14 days).
   * @default Duration.days(14)
   */
  readonly deadLetterRetention?: Duration;
}

export class WorkQueues extends Construct {
  /** Queues by logical id, DLQs included (`webhooks`, `webhooks-dlq`, ...). */
  readonly queues: Record<string, Queue> = {};

  constructor(scope: Construct, id: string, props: WorkQueuesProps) {
    super(scope, id);
    const secure = { enforceSSL: true, encryption: QueueEncryption.SQS_MANAGED } as const;
    for (const spec of props.specs) {
      const dlq = new Queue(this, dlqId(spec.id), {
        ...secure,
        queueName: props.names[dlqId(spec.id)],
        retentionPeriod: props.deadLetterRetention ?? Duration.days(14),
      });
      this.queues[dlqId(spec.id)] = dlq;
      this.queues[spec.id] = new Queue(this, spec.id, {
        ...secure,
        queueName: props.names[spec.id],
        visibilityTimeout: Duration.seconds(spec.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: dlq, maxReceiveCount: spec.maxReceiveCount },
      });
    }
  }
}
