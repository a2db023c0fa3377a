/**
 * A request body as the HTTP layer hands it to a handler (shared/http reads and parses it as the route's body kind
 * declares): services take these, never an event or raw multipart bytes.
 */
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

export type RequestBody =
  | { kind: 'json'; value: Record<string, unknown> }
  | { kind: 'multipart'; form: MultipartBody }
  | { kind: 'text'; value: string }
  | { kind: 'none' };
