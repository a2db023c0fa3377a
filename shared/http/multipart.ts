/** multipart/form-data bodies of API Gateway events, parsed with busboy (ARCHITECTURE 10). */
import busboy from 'busboy';
import { BadRequest } from '../errors';
import { MAX_BODY_BYTES } from './request-body';

export interface MultipartFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: MultipartFile[];
}

export function parseMultipart(raw: Buffer, contentType: string): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // defParamCharset: non-ASCII file names arrive garbled without it.
      parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { fileSize: MAX_BODY_BYTES, files: 4, fields: 50 } });
    } catch {
      reject(new BadRequest('Malformed multipart/form-data body'));
      return;
    }
    const body: MultipartBody = { fields: {}, files: [] };
    parser.on('field', (name, value) => {
      body.fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => body.files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    parser.on('error', () => reject(new BadRequest('Malformed multipart/form-data body')));
    parser.on('close', () => resolve(body));
    parser.end(raw);
  });
}
