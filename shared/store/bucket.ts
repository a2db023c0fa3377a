/** The data bucket: the only module that names it. */
import { CopyObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
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

/** The object's body as a stream (read once). */
export async function getObjectStream(key: string): Promise<Readable> {
  const out = await s3Client().send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
  return out.Body as Readable;
}

/** Size and ETag of an object, or undefined when there is none. */
export async function headObject(key: string): Promise<{ size: number; etag: string } | undefined> {
  try {
    const out = await s3Client().send(new HeadObjectCommand({ Bucket: bucketName(), Key: key }));
    return { size: out.ContentLength ?? 0, etag: out.ETag ?? '' };
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404) return undefined;
    throw err;
  }
}

export async function objectExists(key: string): Promise<boolean> {
  return (await headObject(key)) !== undefined;
}

/** Text of an object, or undefined when there is none. */
export async function getObjectTextIfExists(key: string): Promise<string | undefined> {
  try {
    return await getObjectText(key);
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
    throw err;
  }
}

export async function copyObject(fromKey: string, toKey: string): Promise<void> {
  await s3Client().send(new CopyObjectCommand({ Bucket: bucketName(), Key: toKey, CopySource: `${bucketName()}/${encodeURIComponent(fromKey).replace(/%2F/g, '/')}` }));
}

/** Every key under a prefix, in key order. */
export async function listKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const out = await s3Client().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: prefix, ContinuationToken: token }));
    keys.push(...(out.Contents ?? []).map((o) => o.Key!).filter(Boolean));
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}
