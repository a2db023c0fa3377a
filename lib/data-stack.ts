/** The stateful resources of one region: tables, bucket, event bus, work queues and the rules between them. */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Pipelines } from '../shared/pipelines';
import { DataBucket } from './data/bucket';
import { DataTables } from './data/tables';
import type { DataNames } from './names';
import { DomainEvents } from './pipelines/domain-events';
import { WorkQueues } from './pipelines/queues';

export interface DataStackProps extends StackProps {
  /** Physical names (lib/names.ts); the API stack reaches the resources by the same names. */
  readonly names: DataNames;
  /** Queues and event rules. */
  readonly pipelines: Pipelines;
}

export class DataStack extends Stack {
  readonly tables: DataTables;
  readonly bucket: DataBucket;
  readonly queues: WorkQueues;
  readonly events: DomainEvents;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    this.tables = new DataTables(this, 'Tables', { names: props.names.tables });
    this.bucket = new DataBucket(this, 'Data', { bucketName: props.names.bucket });
    this.queues = new WorkQueues(this, 'Queues', { specs: props.pipelines.queues, names: props.names.queues });
    this.events = new DomainEvents(this, 'Events', { busName: props.names.bus, rules: props.pipelines.rules, queues: this.queues.queues });
  }
}
