/** Invoked by the bucket's ObjectCreated events under nowcast/ and historical/ (shared/pipelines.ts). */
import type { S3Event } from 'aws-lambda';
import { decodeEventKey } from '../../shared/domain/uploads/object-keys';
import { processUploadedObject } from '../../shared/services/uploads/upload-processing';

export const handler = async (event: S3Event): Promise<void> => {
  for (const record of event.Records) await processUploadedObject(decodeEventKey(record.s3.object.key));
};
