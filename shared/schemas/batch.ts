/**
 * POST /api/batch-process and GET /api/batch/{batch_id} (SPEC 4.1, ARCHITECTURE 9). Only the envelope of
 * each operation is checked here; its own keys are checked when it runs, by the schema of the endpoint it
 * stands for, so one invalid operation fails alone (shared/services/batch/batch.ts).
 */
import * as z from 'zod';
import { identifier } from './bounds';
import { config } from '../config';
import { MAX_CALLBACK_URL_LENGTH, callbackUrlProblem } from '../domain/webhooks/callback-url';
import { STANDARD_SECRET, isUsableSecret } from '../domain/webhooks/signing';
import { exact } from '../validation';

export const BATCH_OPERATION_TYPES = ['forecast', 'optimize', 'interpolate'] as const;
export type BatchOperationType = (typeof BATCH_OPERATION_TYPES)[number];
export const BATCH_EXECUTION_MODES = ['parallel', 'sequential'] as const;
/** Operations per request: enough for a portfolio's daily run, few enough to answer within the API's time-out. */
export const MAX_BATCH_OPERATIONS = 20;


/** The keys every operation has; the others belong to its type (horizon, objective, mode, data, ...). */
export const BatchOperation = z.looseObject({
  type: z.enum(BATCH_OPERATION_TYPES),
  customer_id: identifier(),
});
export type BatchOperation = z.infer<typeof BatchOperation>;

export const BatchProcessRequest = z
  .object({
    operations: z.array(BatchOperation).min(1).max(MAX_BATCH_OPERATIONS),
    execution_mode: z.enum(BATCH_EXECUTION_MODES).default('parallel'),
    callback_url: z
      .string()
      .trim()
      .max(MAX_CALLBACK_URL_LENGTH)
      .refine((url) => callbackUrlProblem(url, config().CALLBACK_HOSTS) === null, { error: exact('Invalid callback URL') })
      .optional(),
    callback_secret: z
      .string()
      .regex(STANDARD_SECRET, { error: 'must be "whsec_" followed by base64 (Standard Webhooks)' })
      .refine(isUsableSecret, { error: 'must be "whsec_" followed by base64 (Standard Webhooks)' })
      .optional(),
  })
  .refine((b) => b.callback_secret === undefined || b.callback_url !== undefined, { path: ['callback_secret'], error: 'is used only with callback_url' });
export type BatchProcessRequest = z.infer<typeof BatchProcessRequest>;

/** Any id is looked up: one never issued is a 404 like another account's. */
export const BatchPath = z.object({ batch_id: identifier() });
