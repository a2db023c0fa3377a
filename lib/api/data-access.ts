/**
 * What every function of the service may do with the region's data, as one customer-managed policy that
 * each function role attaches: the actions the store, bucket, queue and event adapters of shared/ call
 * (no Scan, no transactions: the store is built on conditional single-item writes), on the named
 * resources only.
 */
import { Validations } from 'aws-cdk-lib';
import { Effect, ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { dlqId, type QueueSpec } from '../../shared/pipelines';
import { GSI1 } from '../../shared/store/tables';
import { nagResourceText } from '../nag';
import type { DataReferences } from './data-references';

/** Queues whose depth the service reads (GET /api/system-status reports the training queue). */
const DEPTH_READ_QUEUES = ['training'];
/** Dead-letter queues the service writes to itself: webhook deliveries it parks after the last attempt. */
const PARKING_DLQS = [dlqId('webhooks')];

export interface DataAccessProps {
  readonly data: DataReferences;
  /** The work queues functions send to (not their DLQs, which only SQS redrive fills). */
  readonly workQueues: readonly QueueSpec[];
}

export class DataAccess extends Construct {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: DataAccessProps) {
    super(scope, id);
    const { data } = props;
    const tableArns = Object.values(data.tableArns);
    const allow = (actions: string[], resources: string[]) => new PolicyStatement({ effect: Effect.ALLOW, actions, resources });
    const queueArns = (ids: string[]) => ids.map((q) => data.queues[q]?.queueArn).filter((arn): arn is string => Boolean(arn));
    const statements = [
      allow(
        ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchGetItem', 'BatchWriteItem'].map((a) => `dynamodb:${a}`),
        [...tableArns, ...tableArns.map((arn) => `${arn}/index/${GSI1.name}`)],
      ),
      // ListBucket makes HeadObject answer 404 rather than 403 for a missing key (shared/store/bucket.ts) and allows HeadBucket (health).
      allow(['s3:ListBucket'], [data.bucket.bucketArn]),
      allow(['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], [data.bucket.arnForObjects('*')]),
      allow(['events:PutEvents'], [data.bus.eventBusArn]),
      allow(['sqs:SendMessage'], queueArns([...props.workQueues.map((q) => q.id), ...PARKING_DLQS])),
      allow(['sqs:GetQueueAttributes'], queueArns(DEPTH_READ_QUEUES)),
    ].filter((s) => s.resources.length > 0);
    this.policy = new ManagedPolicy(this, 'Policy', { description: 'Energy service data access: tables, data bucket, work queues, event bus', statements });

    Validations.of(this.policy).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResourceText(this, data.bucket.arnForObjects('*'))}]`,
      reason: 'Object keys are data (customer/site/date paths chosen per upload), so object access is granted on the one data bucket\'s keys, not a fixed list.',
    });
  }
}
