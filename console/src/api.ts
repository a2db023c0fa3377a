/**
 * Calls to the service on the console's own origin (the API and the console share it: locally, on the edge node
 * and behind CloudFront), with the session's key in the x-api-key header. Every error body the API has (the
 * platform's `{status, error}`, the structured `{error: {message, upgrade_url}}`, the terminal `{success, message}`)
 * becomes one ApiError with the API's own message.
 */
import { apiKey, apiRegion } from './session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Where the tier can be raised, when the API says so (403 of a tier limit). */
    readonly upgradeUrl?: string,
  ) {
    super(message);
  }
}

/** The API's base: the page's origin, less the /console/ path (a stage prefix such as /v1 is kept). */
export const API_BASE = location.pathname.replace(/\/console(\/.*)?$/, '');

interface ErrorBody {
  error?: string | { message?: string; upgrade_url?: string };
  message?: string;
}

function errorOf(status: number, body: unknown): ApiError {
  const b = (body ?? {}) as ErrorBody;
  const structured = typeof b.error === 'object' ? b.error : undefined;
  const message = structured?.message ?? (typeof b.error === 'string' ? b.error : undefined) ?? b.message ?? `HTTP ${status}`;
  return new ApiError(status, message, structured?.upgrade_url);
}

/** The key and region headers of every call. */
function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const key = apiKey();
  const region = apiRegion();
  if (key) headers['x-api-key'] = key;
  if (region) headers['x-energy-region'] = region;
  return headers;
}

/** A JSON request; resolves with the parsed body of a 2xx, rejects with ApiError otherwise. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers = authHeaders();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(API_BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text
  }
  if (!response.ok) throw errorOf(response.status, parsed);
  return parsed as T;
}

/**
 * A multipart upload with progress (fetch has no upload progress): XMLHttpRequest, the key in its header.
 * `onProgress` gets the share of the body sent, 0 to 1.
 */
export function uploadForm<T = unknown>(path: string, form: FormData, onProgress: (share: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', API_BASE + path);
    for (const [name, value] of Object.entries(authHeaders())) request.setRequestHeader(name, value);
    request.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    request.onerror = () => reject(new ApiError(0, 'The upload could not reach the service'));
    request.onload = () => {
      let parsed: unknown = request.responseText;
      try {
        parsed = JSON.parse(request.responseText);
      } catch {
        // not JSON
      }
      if (request.status >= 200 && request.status < 300) resolve(parsed as T);
      else reject(errorOf(request.status, parsed));
    };
    request.send(form);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
