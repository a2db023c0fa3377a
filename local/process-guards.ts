/**
 * The local runtime and the edge node are one long-lived process serving every route: a fault escaping one
 * request (an emitter's unheard 'error', a rejected promise nobody awaits) must not stop the others. Node
 * would exit; these handlers log the fault and keep serving. Lambda has no such handlers: there a fault
 * fails its own invocation only, and the middleware turns thrown errors into answers first.
 */
import { log } from '../shared/logger';

let installed = false;

/** Installs the handlers once per process; returns how many faults were absorbed so far (for tests and status). */
export function keepServingOnUncaughtErrors(): { absorbed: () => number } {
  let count = 0;
  if (!installed) {
    installed = true;
    process.on('uncaughtException', (err, origin) => {
      count++;
      log.error('uncaught error absorbed: the process keeps serving', { origin, err });
    });
    process.on('unhandledRejection', (reason) => {
      count++;
      log.error('unhandled rejection absorbed: the process keeps serving', { err: reason instanceof Error ? reason : { thrown: String(reason) } });
    });
  }
  return { absorbed: () => count };
}
