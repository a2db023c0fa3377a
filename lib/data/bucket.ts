/**
 * The data bucket of a region (raw uploads, standardised series, model artifacts, quarantine) and the
 * bucket that receives its server access logs.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface DataBucketProps {
  /** Physical name (lib/names.ts). */
  readonly bucketName: string;
  /**
   * How long an overwritten or deleted object version is kept, to recover from a bad merge or delete.
   * @default Duration.days(90)
   */
  readonly noncurrentVersionExpiration?: Duration;
  /**
   * How long server access logs are kept.
   * @default Duration.days(365)
   */
  readonly accessLogExpiration?: Duration;
}

/** Settings every bucket of the service shares (these two, the console's): private, TLS only, S3-managed keys, kept when the stack goes. */
export const PRIVATE_BUCKET = {
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  enforceSSL: true,
  // Server access log delivery only supports SSE-S3 on the target bucket, so both use it.
  encryption: BucketEncryption.S3_MANAGED,
  objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
  removalPolicy: RemovalPolicy.RETAIN,
} as const;

export class DataBucket extends Construct {
  readonly bucket: Bucket;
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string, props: DataBucketProps) {
    super(scope, id);
    this.accessLogs = new Bucket(this, 'AccessLogs', {
      ...PRIVATE_BUCKET,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: props.accessLogExpiration ?? Duration.days(365) }],
    });

    this.bucket = new Bucket(this, 'Bucket', {
      ...PRIVATE_BUCKET,
      bucketName: props.bucketName,
      versioned: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'data-bucket/',
      lifecycleRules: [
        {
          id: 'expire-old-versions-and-stale-uploads',
          noncurrentVersionExpiration: props.noncurrentVersionExpiration ?? Duration.days(90),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
    });
  }
}
