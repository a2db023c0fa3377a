/** Starts the local runtime in memory on a free port for one test file. */
import { startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from '../../local/runtime';

export function useRuntime(options: LocalRuntimeOptions = {}): () => LocalRuntime {
  let runtime: LocalRuntime | undefined;
  beforeAll(async () => {
    runtime = await startLocalRuntime({ port: 0, ...options });
  });
  afterAll(async () => {
    await runtime?.close();
  });
  return () => {
    if (!runtime) throw new Error('runtime not started');
    return runtime;
  };
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A request to the runtime; `key` goes in x-api-key unless `bearer` is set. */
export async function call(
  runtime: LocalRuntime,
  method: string,
  path: string,
  options: { key?: string; bearer?: boolean; json?: unknown; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) {
    if (options.bearer) headers.authorization = `Bearer ${options.key}`;
    else headers['x-api-key'] = options.key;
  }
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(runtime.url + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

let counter = 0;
export const uniqueEmail = () => `test+${Date.now()}-${counter++}@example.com`;

/** Registers a fresh free account over HTTP and returns its key. */
export async function registerKey(runtime: LocalRuntime): Promise<{ key: string; email: string }> {
  const email = uniqueEmail();
  const r = await call(runtime, 'POST', '/api/register', { json: { email, organization: 'Tests', use_case: 'tests', tier_preference: 'free' } });
  if (r.status !== 200) throw new Error(`register failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { key: r.body.api_key, email };
}

/** A registered key moved to the enterprise tier (no quota in the way of a test's many calls). */
export async function enterpriseKey(runtime: LocalRuntime): Promise<string> {
  const account = await registerKey(runtime);
  const [{ changeTier }, { forgetCachedKeys }] = await Promise.all([import('../../shared/services/accounts/accounts'), import('../../shared/access/authentication')]);
  await changeTier(account.email, 'enterprise');
  forgetCachedKeys();
  return account.key;
}
