/**
 * Environment -> typed configuration, read once per process (cold start).
 * Infrastructure names reach code only through here (ARCHITECTURE 1).
 */
import * as z from 'zod';
import { OPEN_METEO_FREE_TIER } from './weather-providers/call-budget';

const intFromEnv = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);

const EnvSchema = z.object({
  SERVICE_VERSION: z.string().default('0.1.0'),
  AWS_REGION: z.string().default('us-east-1'),
  ACCOUNTS_TABLE: z.string().default('energy-accounts'),
  OPERATIONS_TABLE: z.string().default('energy-operations'),
  ANALYTICS_TABLE: z.string().default('energy-analytics'),
  DATA_BUCKET: z.string().default('energy-data'),
  EVENT_BUS: z.string().default('energy-events'),
  /** Queue URLs by logical name, JSON: {"training":"https://sqs..."}; set by CDK or the local runtime. */
  QUEUE_URLS: z.string().default('{}'),
  /** "aws" sends events to EventBridge; "local" routes them in-process as the CDK rules do. */
  EVENT_TRANSPORT: z.enum(['aws', 'local']).default('aws'),
  /** Requests per one-minute window. */
  RATE_LIMIT_FREE: intFromEnv(60),
  RATE_LIMIT_PROFESSIONAL: intFromEnv(600),
  RATE_LIMIT_ENTERPRISE: intFromEnv(3000),
  RATE_LIMIT_ANONYMOUS: intFromEnv(300),
  /** How long a resolved API key is trusted from memory before the store is asked again. */
  KEY_CACHE_SECONDS: intFromEnv(30),
  /** Presented keys that fail per client address (IPv6: per /64) per one-minute window; further failures answer 429 until it ends, valid keys still pass. */
  AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Accounts registered per client address (IPv6: per /64) per UTC day; the local runtime raises it (README: configuration). */
  REGISTRATIONS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(1).default(5),
  /** Freemium forecasts per e-mail address per UTC day (ARCHITECTURE 3: limited per address and e-mail). */
  FREEMIUM_FORECASTS_PER_EMAIL_PER_DAY: intFromEnv(10),
  /** Enterprise monthly quotas; 0 means unlimited (ARCHITECTURE 3). */
  ENTERPRISE_QUOTA: intFromEnv(0),
  UPGRADE_URL: z.string().url().default('https://energy-ops.example.com/pricing'),
  SUPPORT_CONTACT: z.string().default('support@energy-ops.example.com'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** History a site needs before a model is trained automatically (SPEC: 6 months). */
  TRAINING_MIN_HISTORY_DAYS: intFromEnv(182),
  /** Directory whose disk usage /api/system-status reports (the data dir locally, /tmp on Lambda). */
  DISK_PATH: z.string().default('/tmp'),
  /**
   * Weather source (ARCHITECTURE 9, shared/weather-providers/weather-for.ts): `auto` uses Open-Meteo and falls back to the offline
   * climatological model when it cannot answer; `open-meteo` fails instead (the deployed stacks); `offline` never asks.
   */
  WEATHER_PROVIDER: z.enum(['auto', 'open-meteo', 'offline']).default('auto'),
  OPEN_METEO_FORECAST_URL: z.string().url().default('https://api.open-meteo.com/v1/forecast'),
  OPEN_METEO_ARCHIVE_URL: z.string().url().default('https://archive-api.open-meteo.com/v1/archive'),
  /** Time-out of one weather API request, ms. */
  WEATHER_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** After Open-Meteo failed as if down (no connection, time-out, 5xx), `auto` serves the offline model without asking it for this long. */
  WEATHER_BACKOFF_SECONDS: intFromEnv(60),
  /** Open-Meteo answers cached per 0.1-degree cell and UTC day in the analytics table (`store`), or not at all (`none`: edge nodes without a store, benches). */
  WEATHER_CACHE: z.enum(['store', 'none']).default('store'),
  /** Open-Meteo's free tier (https://open-meteo.com/en/terms): weighted calls per minute, hour and day, enforced per process (shared/weather-providers/call-budget.ts). */
  OPEN_METEO_CALLS_PER_MINUTE: z.coerce.number().positive().default(OPEN_METEO_FREE_TIER.perMinute),
  OPEN_METEO_CALLS_PER_HOUR: z.coerce.number().positive().default(OPEN_METEO_FREE_TIER.perHour),
  OPEN_METEO_CALLS_PER_DAY: z.coerce.number().positive().default(OPEN_METEO_FREE_TIER.perDay),
  /** How long GET /health reuses its weather probe, so that health checks spend at most one upstream call a minute. */
  WEATHER_HEALTH_CACHE_SECONDS: intFromEnv(60),
  /** Webhook delivery (ARCHITECTURE 5, flow 4): attempts before a delivery is parked, the first retry's delay (doubling, SQS caps it at 900 s), one POST's time-out. */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(8),
  WEBHOOK_RETRY_BASE_SECONDS: intFromEnv(5),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Callback hosts allowed (shared/domain/webhooks/callback-url.ts): `public` in the cloud; the local runtime allows `loopback`. */
  CALLBACK_HOSTS: z.enum(['public', 'loopback']).default('public'),
  /** Policy answers: `none` (default) or `bedrock`, which rephrases the retrieved answer with BEDROCK_MODEL_ID, keeping its facts and citations. */
  POLICY_REPHRASING: z.enum(['none', 'bedrock']).default('none'),
  BEDROCK_MODEL_ID: z.string().default('anthropic.claude-3-haiku-20240307-v1:0'),
  /** Policy queries per client address per UTC day on the freemium path. */
  FREEMIUM_POLICY_QUERIES_PER_ADDRESS_PER_DAY: intFromEnv(5),
  /** Regulatory feeds the daily pull reads: `default` (shared/domain/regulatory/feeds.ts), `none`, or a JSON array of {id, name, url, region, jurisdiction}. */
  REGULATORY_FEEDS: z.string().default('default'),
  /** Longest wait for one feed, ms. */
  REGULATORY_FEED_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** Bytes read of one feed's body; past it the read stops and the feed counts as failed in the pull report. */
  REGULATORY_FEED_MAX_BYTES: z.coerce.number().int().positive().default(2 * 1024 * 1024),
  /** Items taken from one feed in one pull: the newest by publication date. */
  REGULATORY_FEED_MAX_ITEMS: z.coerce.number().int().positive().default(200),
  /** Updates kept besides the curated seed: the newest by effective date; each pull deletes the rest. Bounds the list's slowest read. */
  REGULATORY_MAX_STORED: z.coerce.number().int().positive().default(5000),
  /** Edge node (EDGE=1): the cloud deployment it reports to and syncs into (README: edge node). */
  EDGE_CLOUD_URL: z.string().url().optional(),
  EDGE_CLOUD_BUCKET: z.string().optional(),
  /** An S3-compatible endpoint instead of AWS's (a second local stand-in in tests). */
  EDGE_CLOUD_S3_ENDPOINT: z.string().url().optional(),
  EDGE_CLOUD_REGION: z.string().default('us-east-1'),
  EDGE_CLOUD_ACCESS_KEY_ID: z.string().optional(),
  EDGE_CLOUD_SECRET_ACCESS_KEY: z.string().optional(),
  /** How long the connectivity probe waits for the cloud's /health, ms. */
  EDGE_PROBE_TIMEOUT_MS: z.coerce.number().int().positive().default(2000),
  /** Sync cadence in `balanced` mode (`performance` a third of it, `power_saver` four times it), seconds. */
  EDGE_SYNC_INTERVAL_SECONDS: z.coerce.number().positive().default(30),
  EDGE_CLEANUP_INTERVAL_MINUTES: z.coerce.number().positive().default(60),
  /** Set by the edge runtime: results are also written as objects, so that they sync. */
  EDGE_ARCHIVE_RESULTS: z.enum(['0', '1']).default('0'),
  /**
   * Upload reconciler (shared/services/uploads/upload-reconciler.ts): an upload `queued`, `processing` or failed with a
   * promised retry, untouched for longer than this, is re-driven from its raw object. 20 minutes: a live upload
   * is touched at least every 7 (the processing function's 5-minute time-out, shared/pipelines.ts, plus
   * Lambda's wait of up to 2 minutes before an async retry), with room for a throttled invocation queue.
   */
  UPLOAD_STALE_MINUTES: z.coerce.number().positive().default(20),
  /** Re-drives of one upload before the reconciler marks it `failed` for good (its reason says so). */
  UPLOAD_MAX_RECONCILE_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  /** Registrations per account: every event fans out to each of them. */
  WEBHOOKS_PER_ACCOUNT: z.coerce.number().int().min(1).default(25),
  /**
   * Local runtime and edge node (local/worker-threads.ts): "1" runs queue consumers, bucket triggers and
   * scheduled workers in worker threads, one per worker module, so the API's event loop only serves requests;
   * "0" runs them on the API's loop, as before issue 20. A runtime given its own `loadHandler` (tests with
   * fixture workers) always runs them on its loop.
   */
  LOCAL_WORKER_THREADS: z.enum(['0', '1']).default('1'),
  /**
   * Local runtime: batches of a queue handled at once, as `queue=n` pairs ("training=1,webhooks=4"); a queue not
   * named takes 1. A queue's batches share its thread, so more than 1 overlaps waiting (webhook deliveries), not
   * computing (training).
   */
  LOCAL_QUEUE_CONCURRENCY: z.string().regex(/^([a-z0-9-]+=[1-9][0-9]*(,[a-z0-9-]+=[1-9][0-9]*)*)?$/).default(''),
});

export type Config = z.infer<typeof EnvSchema> & { queueUrls: Record<string, string> };

let cached: Config | undefined;

/** The configuration of this process. `resetConfig` exists for the local runtime and tests, which set env first. */
export function config(): Config {
  if (!cached) {
    const parsed = EnvSchema.parse(process.env);
    cached = { ...parsed, queueUrls: z.record(z.string(), z.string()).parse(JSON.parse(parsed.QUEUE_URLS)) };
  }
  return cached;
}

export function resetConfig(): void {
  cached = undefined;
}
