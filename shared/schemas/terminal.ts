/** Bodies of the stored-results terminal endpoints (SPEC 4.3): a customer_id, required or optional per endpoint. */
import { z } from 'zod';
import { BadRequest } from '../errors';
import { exact } from '../http/validation';

/** Left lenient: an absent or blank customer_id gets the spec's "Missing required field" from the handler, not a schema message. */
export const TerminalCustomerRequest = z.object({ customer_id: z.string().max(128).optional() }).loose();

/**
 * Bodies of the action endpoints (/terminal/schedule, bom, order, track, detect, diagnose): the action
 * is checked by the handler against its own list (the spec's "Invalid action"); the rest is per action.
 */
export const TerminalActionRequest = z
  .object({
    action: z.string({ error: exact('Invalid action') }),
    asset_id: z.string().max(128).optional(),
  })
  .loose();

/** The action, when it is one of `allowed`; otherwise the spec's 400 "Invalid action". */
export function checkAction<A extends string>(action: string, allowed: readonly A[]): A {
  if (!(allowed as readonly string[]).includes(action)) throw new BadRequest('Invalid action');
  return action as A;
}
