/** The data bucket: the only module that names it. */
import { HeadBucketCommand, HeadObjectCommand, PutObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from './aws-clients';
import { config } from '../config';

export const bucketName = (): string => config().DATA_BUCKET;

/** Resolves when the bucket answers; throws otherwise (health check). */
export async function probeBucket(): Promise<void> {
  await s3Client().send(new HeadBucketCommand({ Bucket: bucketName() }));
}

export async function putObject(key: string, body: string | Uint8Array, contentType = 'text/csv'): Promise<void> {
  await s3Client().send(new PutObjectCommand({ Bucket: bucketName(), Key: key, Body: body, ContentType: contentType }));
}

export async function getObjectText(key: string): Promise<string> {
  const out = await s3Client().send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
  return out.Body!.transformToString('utf8');
}

export async function objectExists(key: string): Promise<boolean> {
  try {
    await s3Client().send(new HeadObjectCommand({ Bucket: bucketName(), Key: key }));
    return true;
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404) return false;
    throw err;
  }
}
