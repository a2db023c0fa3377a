/** The data bucket: the only module that names it. */
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
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

const isMissing = (err: unknown) => (err as { name?: string }).name === 'NoSuchKey' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/** Text of an object, or undefined when there is none. */
export async function getObjectTextIfExists(key: string): Promise<string | undefined> {
  try {
    return await getObjectText(key);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/** Bytes and content type of an object, or undefined when there is none. */
export async function getObjectBytesIfExists(key: string): Promise<{ body: Uint8Array; contentType?: string } | undefined> {
  try {
    const out = await s3Client().send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
    return { body: await out.Body!.transformToByteArray(), contentType: out.ContentType };
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

export async function deleteObject(key: string): Promise<void> {
  await s3Client().send(new DeleteObjectCommand({ Bucket: bucketName(), Key: key }));
}

export async function copyObject(fromKey: string, toKey: string): Promise<void> {
  await s3Client().send(new CopyObjectCommand({ Bucket: bucketName(), Key: toKey, CopySource: `${bucketName()}/${encodeURIComponent(fromKey).replace(/%2F/g, '/')}` }));
}

export interface ObjectSummary {
  key: string;
  size: number;
  lastModifiedMs: number;
}

/** Every object under a prefix with its size and time, in key order. */
export async function listObjects(prefix: string): Promise<ObjectSummary[]> {
  const objects: ObjectSummary[] = [];
  let token: string | undefined;
  do {
    const out = await s3Client().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: prefix, ContinuationToken: token }));
    for (const o of out.Contents ?? []) if (o.Key) objects.push({ key: o.Key, size: o.Size ?? 0, lastModifiedMs: o.LastModified?.getTime() ?? 0 });
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return objects.sort((a, b) => a.key.localeCompare(b.key));
}

/** Every key under a prefix, in key order. */
export async function listKeys(prefix: string): Promise<string[]> {
  return (await listObjects(prefix)).map((o) => o.key);
}
