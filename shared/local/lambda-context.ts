/** A Lambda context for handlers invoked by the local runtime. */
import type { Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

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

/** Loads `functions/<name>.ts` (the route table and pipelines name modules this way). */
export async function loadFunction(name: string): Promise<AnyHandler> {
  const mod = (await import(`../../functions/${name}`)) as { handler?: AnyHandler };
  if (typeof mod.handler !== 'function') throw new Error(`functions/${name} exports no handler`);
  return mod.handler;
}
