/** GET /api/system-status (enterprise): figures of this process, its machine and the stores. */
import os from 'node:os';
import { statfs } from 'node:fs/promises';
import { config } from '../../config';
import { ACCURACY_METRIC } from '../../domain/training/accuracy';
import { queueDepth } from '../../events/queues';
import { listProductionModels } from '../../store/models-repo';
import { keyCacheStats } from '../../access/authentication';
import { requestsPerMinute, throughput } from '../../access/request-stats';
import { roundHalfUp } from '../../domain/rounding';

/** Percent of CPU capacity in use: one-minute load average over the cores. */
const cpuUsage = () => roundHalfUp(Math.min(100, (os.loadavg()[0] / os.cpus().length) * 100), 2);

/** Percent of memory in use; on Lambda, of the function's configured memory. */
function memoryUsage(): number {
  const lambdaMb = Number(process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  if (lambdaMb > 0) return roundHalfUp((process.memoryUsage().rss / (lambdaMb * 1024 * 1024)) * 100, 2);
  return roundHalfUp(((os.totalmem() - os.freemem()) / os.totalmem()) * 100, 2);
}

async function diskUsage(): Promise<number> {
  const s = await statfs(config().DISK_PATH);
  return roundHalfUp(((s.blocks - s.bavail) / s.blocks) * 100, 2);
}

const kb = (bytesPerSecond: number) => `${(bytesPerSecond / 1024).toFixed(2)} KB/s`;

export async function systemStatus() {
  const [disk, models, trainingQueue, perMinute] = await Promise.all([
    diskUsage(),
    listProductionModels(),
    queueDepth('training'),
    requestsPerMinute(),
  ]);
  const t = throughput();
  const lookups = keyCacheStats.hits + keyCacheStats.misses;
  const accuracies = models.map((m) => m.validation_accuracy).filter((a): a is number => typeof a === 'number');
  const latest = models.map((m) => m.last_trained_at).sort().at(-1) ?? null;
  return {
    system_metrics: { cpu_usage: cpuUsage(), memory_usage: memoryUsage(), disk_usage: disk, network_throughput: `in ${kb(t.inPerSecond)}, out ${kb(t.outPerSecond)}` },
    service_metrics: {
      // Forecasts are computed within their request and never queued: the only forecasting work that runs as a
      // job is training a forecasting model, so the spec's field counts those, named again as what they are.
      active_forecasting_jobs: trainingQueue.inFlight,
      active_training_jobs: trainingQueue.inFlight,
      training_queue_length: trainingQueue.waiting,
      api_requests_per_minute: perMinute,
      cache_hit_rate: lookups ? roundHalfUp(keyCacheStats.hits / lookups, 4) : 0,
      notes: [
        'active_forecasting_jobs counts the jobs that build forecasting models (training jobs being worked on, as active_training_jobs): forecasts themselves are computed within their request and never run as jobs',
        'cache_hit_rate is the API-key cache of this process',
      ],
    },
    model_performance: {
      average_model_accuracy: accuracies.length ? roundHalfUp(accuracies.reduce((a, b) => a + b, 0) / accuracies.length, 4) : null,
      accuracy_metric: `${ACCURACY_METRIC}, on each production model's held-out test days`,
      models_requiring_retraining: models.filter((m) => m.requires_retraining).length,
      latest_model_deployment: latest,
    },
  };
}
