/** The DynamoDB tables of shared/store/tables.ts, one per bounded context (ARCHITECTURE 5). */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { GSI1, KEY_SCHEMA, TABLES, TTL_ATTRIBUTE, type TableSpec } from '../../shared/store/tables';

export interface DataTablesProps {
  /** Physical name by logical id (lib/names.ts). */
  readonly names: Record<TableSpec['id'], string>;
}

export class DataTables extends Construct {
  readonly tables: Record<TableSpec['id'], Table>;

  constructor(scope: Construct, id: string, props: DataTablesProps) {
    super(scope, id);
    const key = (name: string) => ({ name, type: AttributeType.STRING });
    this.tables = Object.fromEntries(
      TABLES.map((spec) => {
        const table = new Table(this, spec.id, {
          tableName: props.names[spec.id],
          partitionKey: key(KEY_SCHEMA.partitionKey),
          sortKey: key(KEY_SCHEMA.sortKey),
          billingMode: BillingMode.PAY_PER_REQUEST,
          pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
          encryption: TableEncryption.AWS_MANAGED,
          // Clean-up only: readers ignore expired items, since DynamoDB deletes them late (shared/store/tables.ts).
          timeToLiveAttribute: TTL_ATTRIBUTE,
          deletionProtection: true,
          removalPolicy: RemovalPolicy.RETAIN,
        });
        table.addGlobalSecondaryIndex({
          indexName: GSI1.name,
          partitionKey: key(GSI1.partitionKey),
          sortKey: key(GSI1.sortKey),
          projectionType: ProjectionType.ALL,
        });
        return [spec.id, table];
      }),
    ) as Record<TableSpec['id'], Table>;
  }
}
