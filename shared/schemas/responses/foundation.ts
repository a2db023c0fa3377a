/** Success bodies of the foundation endpoints (SPEC 4.1: health, register, usage, create-*, system-status). */
import * as z from 'zod';
import { date, success, timestamp } from './common';

const Limits = z.looseObject({
  policy_queries_per_month: z.number().int(),
  forecasts_per_month: z.number().int(),
  data_cleaning_per_month: z.number().int(),
  max_rows_per_cleaning: z.number().int(),
});

export const HealthResponse = z
  .looseObject({
    status: z.enum(['healthy', 'degraded']),
    service: z.string(),
    version: z.string(),
    timestamp: timestamp(),
    components: z.looseObject({
      forecasting_engine: z.string(),
      optimization_service: z.string(),
      policy_intelligence: z.string(),
      data_processing: z.string(),
      weather_api: z.string(),
    }),
    performance_metrics: z.looseObject({
      avg_response_time_ms: z.number(),
      success_rate_24h: z.number(),
      active_models: z.number(),
      processed_forecasts_today: z.number(),
    }),
  })
  .meta({ id: 'HealthResponse', description: 'Each component `operational`, or `unavailable: <what> unreachable` (then 503 with this body).' });

export const RegisterResponse = z
  .looseObject({ api_key: z.string(), email: z.email(), tier: z.string(), limits: Limits, upgrade_url: z.url() })
  .meta({ id: 'RegisterResponse', description: 'The key is shown once; only its hash is stored.' });

export const UsageResponse = z
  .looseObject({
    user_email: z.email(),
    tier: z.string(),
    current_month: z.string().regex(/^\d{4}-\d{2}$/),
    usage: z.looseObject({ policy_queries: z.number().int(), forecasts: z.number().int(), data_cleaning_operations: z.number().int(), model_training_jobs: z.number().int() }),
    limits: Limits.extend({ model_training_per_month: z.number().int() }),
    usage_percentage: z.looseObject({ policy_queries: z.number(), forecasts: z.number(), data_cleaning: z.number() }),
  })
  .meta({ id: 'UsageResponse', description: 'An unlimited limit is -1; percentages are 0-100.' });

export const CreateClientResponse = success({
  message: z.string(),
  client: z.looseObject({ client_id: z.string(), name: z.string(), contact_email: z.string(), tier: z.string(), services: z.array(z.string()), created_at: timestamp() }),
}).meta({ id: 'CreateClientResponse' });

export const CreateCustomerResponse = success({
  message: z.string(),
  customer: z.looseObject({ client_id: z.string(), customer_id: z.string(), contact_name: z.string(), email: z.string(), location: z.string(), system_type: z.string(), created_at: timestamp() }),
}).meta({ id: 'CreateCustomerResponse' });

export const CreateDeviceResponse = success({
  message: z.string(),
  device_id: z.string(),
  device: z.looseObject({ device_id: z.string(), customer_id: z.string(), device_type: z.string(), serial_number: z.string(), manufacturer: z.string(), capacity_kw: z.number(), installation_date: date(), created_at: timestamp() }),
}).meta({ id: 'CreateDeviceResponse' });

export const SystemStatusResponse = z
  .looseObject({
    system_metrics: z.looseObject({ cpu_usage: z.number(), memory_usage: z.number(), disk_usage: z.number(), network_throughput: z.string() }),
    service_metrics: z.looseObject({ active_forecasting_jobs: z.number(), training_queue_length: z.number(), api_requests_per_minute: z.number(), cache_hit_rate: z.number() }),
    model_performance: z.looseObject({
      average_model_accuracy: z.number().nullable(),
      models_requiring_retraining: z.number().int(),
      latest_model_deployment: timestamp().nullable(),
    }),
  })
  .meta({ id: 'SystemStatusResponse', description: 'Model figures are null while no model is deployed.' });

/** GET /openapi.json: this document (its paths are not restated as a schema). */
export const OpenApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
  .meta({ id: 'OpenApiDocument', description: 'This document.' });

/** GET /docs: the HTML page (or, with `?asset=`, its script or style sheet). */
export const DocsPage = z.string().meta({ description: 'The HTML page.' });
