/**
 * multipart/form-data bodies of API Gateway events, parsed with busboy (ARCHITECTURE 10). Every way a body
 * can be wrong (cut off before its closing boundary, a part without a name, too many parts, a file over the
 * limit, a parser error on any stream) is a 400 that says which: busboy reports some of these on the file
 * stream alone, and an unheard stream error would stop the process.
 */
import busboy from 'busboy';
import { BadRequest } from '../errors';
import type { MultipartBody } from '../schemas/request-body';
import { MAX_BODY_BYTES } from './request-body';

const LIMITS = { fileSize: MAX_BODY_BYTES, files: 4, fields: 50, parts: 60 } as const;

const malformed = (why: string) => new BadRequest(`Malformed multipart/form-data body: ${why}`);

export function parseMultipart(raw: Buffer, contentType: string): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // defParamCharset: non-ASCII file names arrive garbled without it.
      parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: LIMITS });
    } catch {
      reject(malformed('no boundary in the Content-Type header'));
      return;
    }
    const body: MultipartBody = { fields: {}, files: [] };
    let failure: BadRequest | undefined;
    const fail = (err: BadRequest) => {
      failure ??= err;
    };
    parser.on('field', (name, value) => {
      if (!name) return fail(malformed('a part has no name'));
      body.fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      if (!field) fail(malformed('a part has no name'));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(malformed(`a file is larger than ${LIMITS.fileSize} bytes`)));
      stream.on('error', (err: Error) => fail(malformed(err.message.toLowerCase())));
      stream.on('end', () => body.files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    parser.on('partsLimit', () => fail(malformed(`more than ${LIMITS.parts} parts`)));
    parser.on('filesLimit', () => fail(malformed(`more than ${LIMITS.files} files`)));
    parser.on('fieldsLimit', () => fail(malformed(`more than ${LIMITS.fields} fields`)));
    parser.on('error', (err: Error) => {
      fail(malformed(err.message.toLowerCase()));
      reject(failure);
    });
    parser.on('close', () => (failure ? reject(failure) : resolve(body)));
    parser.end(raw);
  });
}
