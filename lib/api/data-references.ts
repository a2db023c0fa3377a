/**
 * The data stack's resources as the API stack sees them: imported by their physical names (lib/names.ts),
 * never through CloudFormation exports, so each stack can be updated or replaced without the other.
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import { EventBus, type IEventBus } from 'aws-cdk-lib/aws-events';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Queue, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { TableSpec } from '../../shared/store/tables';
import type { DataNames } from '../names';

export class DataReferences extends Construct {
  readonly names: DataNames;
  /** Table ARNs by logical id. */
  readonly tableArns: Record<TableSpec['id'], string>;
  readonly bucket: IBucket;
  readonly bus: IEventBus;
  /** Queues by logical id, DLQs included. */
  readonly queues: Record<string, IQueue>;

  constructor(scope: Construct, id: string, names: DataNames) {
    super(scope, id);
    const stack = Stack.of(this);
    this.names = names;
    this.tableArns = Object.fromEntries(
      Object.entries(names.tables).map(([tableId, name]) => [tableId, stack.formatArn({ service: 'dynamodb', resource: 'table', resourceName: name })]),
    ) as Record<TableSpec['id'], string>;
    this.bucket = Bucket.fromBucketName(this, 'Bucket', names.bucket);
    this.bus = EventBus.fromEventBusName(this, 'Bus', names.bus);
    this.queues = Object.fromEntries(
      Object.entries(names.queues).map(([queueId, name]) => [
        queueId,
        Queue.fromQueueArn(this, `Queue-${queueId}`, stack.formatArn({ service: 'sqs', resource: name, arnFormat: ArnFormat.NO_RESOURCE_NAME })),
      ]),
    );
  }
}
