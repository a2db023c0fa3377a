/** A Lambda context for handlers invoked by the local runtime. */
import type { Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const LOCAL_TIMEOUT_MS = 900_000;

export function lambdaContext(functionName: string): Context {
  const started = Date.now();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, LOCAL_TIMEOUT_MS - (Date.now() - started)),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyHandler = (event: any, context: Context) => Promise<any>;

/** A module's bundle in a directory of them, where CDK's asset of a CommonJS function has it (lib/bundling.ts). */
export const bundleFile = (dir: string, name: string): string => path.join(dir, name, 'index.js');

/**
 * Loads `functions/<name>.ts` (the route table and pipelines name modules this way), or with LAMBDA_BUNDLES
 * its esbuild bundle from that directory: required as Lambda's Node runtime requires a CommonJS handler, one
 * module instance per bundle (each with its own copy of the shared code, as each function has in the cloud).
 */
export async function loadFunction(name: string): Promise<AnyHandler> {
  const bundles = process.env.LAMBDA_BUNDLES;
  const mod = (bundles ? requireBundle(bundles, name) : await import(`../functions/${name}`)) as { handler?: AnyHandler };
  if (typeof mod.handler !== 'function') throw new Error(`${bundles ? bundleFile(bundles, name) : `functions/${name}`} exports no handler`);
  return mod.handler;
}

function requireBundle(dir: string, name: string): unknown {
  const file = path.resolve(bundleFile(dir, name));
  if (!existsSync(file)) throw new Error(`no bundle of functions/${name} in ${dir} (npm run bundles)`);
  return createRequire(file)(file);
}
