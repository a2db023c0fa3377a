/** Success bodies of batch processing and the edge node (ARCHITECTURE 9; the spec shows none). */
import * as z from 'zod';
import { success, timestamp } from './common';

const OperationOutcome = z
  .looseObject({
    index: z.number().int(),
    type: z.enum(['forecast', 'optimize', 'interpolate']),
    customer_id: z.string(),
    status: z.enum(['succeeded', 'failed']),
    result: z.looseObject({}).optional().meta({ description: 'The answer of the endpoint the operation stands for.' }),
    error: z.looseObject({}).optional().meta({ description: 'Why the operation failed: its status and message.' }),
  })
  .meta({ id: 'BatchOperationOutcome' });

const Summary = z.looseObject({ succeeded: z.number().int(), failed: z.number().int() });

export const BatchResultsResponse = success({ batch_id: z.string(), execution_mode: z.string(), results: z.array(OperationOutcome), summary: Summary }).meta({ id: 'BatchResultsResponse' });

export const BatchAcceptedResponse = z
  .looseObject({
    status: z.literal('accepted'),
    batch_id: z.string(),
    execution_mode: z.string(),
    operations: z.number().int(),
    callback_url: z.url(),
    callback_secret: z.string().optional().meta({ description: 'The signing secret, shown once when the service generated it.' }),
    status_url: z.string(),
  })
  .meta({ id: 'BatchAcceptedResponse' });

export const BatchStatusResponse = z
  .looseObject({
    batch_id: z.string(),
    status: z.string(),
    execution_mode: z.string(),
    progress: z.looseObject({ done: z.number().int(), total: z.number().int(), fraction: z.number() }),
    created_at: timestamp(),
    summary: Summary.optional(),
    results: z.array(OperationOutcome).optional().meta({ description: 'Once completed.' }),
  })
  .meta({ id: 'BatchStatusResponse' });

const EdgeConfiguration = z.looseObject({ cloud_sync: z.boolean(), local_storage_limit: z.string(), auto_cleanup_days: z.number().int(), performance_mode: z.string(), security_level: z.string() });

export const EdgeConfigureResponse = success({ edge_node_id: z.string(), configuration: EdgeConfiguration, sync_status: z.string() }).meta({ id: 'EdgeConfigureResponse' });

export const EdgeStatusResponse = z
  .looseObject({
    edge_node_id: z.string(),
    cloud_connectivity: z.string(),
    local_storage_used: z.string(),
    processing_capability: z.string(),
    sync_status: z.string(),
    models_cached: z.number().int(),
  })
  .meta({ id: 'EdgeStatusResponse' });
