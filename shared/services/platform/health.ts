/** GET /health: each component's dependencies are really reached, each with a short time limit. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { config } from '../../config';
import { documentClient, s3Client } from '../../store/aws-clients';
import { bucketName } from '../../store/bucket';
import { listProductionModels } from '../../store/models-repo';
import { readDailyCounter } from '../../store/stats-repo';
import { tableName, type TableSpec } from '../../store/tables';
import { weatherHealth } from '../../weather-providers';
import { serviceStats24h } from '../../access/request-stats';

const PROBE_TIMEOUT_MS = 2000;

type Dependency = 'accounts_store' | 'analytics_store' | 'operations_store' | 'bucket';

/** What each component of the spec's `components` needs in order to work; `weather_api` is probed by shared/weather-providers (weather-health.ts). */
const COMPONENT_DEPENDENCIES: Record<string, Dependency[]> = {
  forecasting_engine: ['analytics_store', 'bucket'],
  optimization_service: ['accounts_store'],
  policy_intelligence: ['analytics_store'],
  data_processing: ['analytics_store', 'operations_store', 'bucket'],
};

async function probe(dep: Dependency): Promise<void> {
  const abortSignal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  if (dep === 'bucket') {
    await s3Client().send(new HeadBucketCommand({ Bucket: bucketName() }), { abortSignal });
    return;
  }
  const table = dep.replace('_store', '') as TableSpec['id'];
  await documentClient().send(new GetCommand({ TableName: tableName(table), Key: { pk: 'HEALTH#probe', sk: 'HEALTH' } }), { abortSignal });
}

export async function healthReport() {
  const deps: Dependency[] = ['accounts_store', 'analytics_store', 'operations_store', 'bucket'];
  const [results, weather] = await Promise.all([
    Promise.all(deps.map((d) => probe(d).then(() => null, (err: Error) => `${d.replace('_', ' ')} unreachable (${err.name})`))),
    weatherHealth(),
  ]);
  const down = new Map(deps.map((d, i) => [d, results[i]]));
  const components = Object.fromEntries(
    Object.entries(COMPONENT_DEPENDENCIES).map(([name, needs]) => {
      const problems = needs.map((d) => down.get(d)).filter(Boolean);
      return [name, problems.length ? `unavailable: ${problems.join('; ')}` : 'operational'];
    }),
  );
  components.weather_api = weather.status;
  const weatherBlock = { provider: config().WEATHER_PROVIDER, detail: weather.detail };
  const healthy = results.every((r) => r === null) && weather.operational;
  const metrics = healthy ? await performanceMetrics() : null;
  return {
    healthy,
    body: {
      status: healthy ? 'healthy' : 'degraded',
      service: 'energy-ops-api',
      version: config().SERVICE_VERSION,
      timestamp: new Date().toISOString(),
      region: config().AWS_REGION,
      components,
      weather: weatherBlock,
      performance_metrics: metrics ?? { avg_response_time_ms: null, success_rate_24h: null, active_models: null, processed_forecasts_today: null },
    },
  };
}

async function performanceMetrics() {
  const [stats, models, forecastsToday] = await Promise.all([
    serviceStats24h(),
    listProductionModels(),
    readDailyCounter(new Date().toISOString().slice(0, 10), 'forecasts'),
  ]);
  return {
    avg_response_time_ms: stats.avgResponseTimeMs,
    success_rate_24h: stats.successRate24h,
    active_models: models.length,
    processed_forecasts_today: forecastsToday,
  };
}
