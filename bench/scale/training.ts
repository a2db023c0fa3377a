/**
 * Training a site with 10 years of 5-minute history (issue 20, item 2): the time of an automatic training job
 * and its peak RSS, against the trainer's Lambda memory (lib/pipelines/workers.ts passes no memorySize, so the
 * training worker has ServiceFunction's default, 1024 MB: lib/api/service-function.ts).
 *
 * The site's history is written as the store holds it (one series object per UTC month, the site's record
 * with its coverage) into the local runtime's embedded stores, one month at a time so writing it costs little
 * memory. The job runs in a child Node process of its own, as the trainer's Lambda would: its peak RSS
 * (`process.resourceUsage().maxRSS`) is the trainer's alone, not the embedded stores' that share the parent.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { serialiseSeries, type StandardRow } from '../../shared/domain/ingest';
import { seriesKey } from '../../shared/domain/uploads/object-keys';
import { startLocalRuntime } from '../../local/runtime';
import { runTrainingMessage } from '../../shared/services/training/training';
import { putObject } from '../../shared/store/bucket';
import { listModelsOfSite } from '../../shared/store/models-repo';
import { ensureSite } from '../../shared/store/sites-repo';
import { getTrainingJob } from '../../shared/store/training-jobs-repo';
import { mulberry32 } from '../../test/helpers/seeded-random';
import { DAY_MS } from '../../shared/domain/time';

const STEP_MS = 5 * 60_000;
/** The history the issue measured: 10 years of 5-minute data. */
const BENCH_YEARS = 10;
/** The last instant of the generated history (any fixed instant: the data is synthetic). */
const BENCH_END = Date.UTC(2026, 5, 30, 23, 55);
const CHILD_FLAG = '--training-child';
const RESULT_PREFIX = 'TRAINING_RESULT ';

/**
 * A load-like 5-minute value: a daily cycle, lower weekends, an annual (heating) cycle, and noise; what the
 * heaviest members (Holt-Winters, MSTL, load regression, the feature regression) are fitted to.
 */
function loadValue(t: number, noise: number): number {
  const d = new Date(t);
  const hour = d.getUTCHours() + d.getUTCMinutes() / 60;
  const annual = Math.cos((2 * Math.PI * (t - Date.UTC(d.getUTCFullYear(), 0, 15))) / (365.25 * DAY_MS));
  const weekend = d.getUTCDay() % 6 === 0 ? -6 : 0;
  return Math.round((40 + 15 * Math.sin((2 * Math.PI * (hour - 6)) / 24) + 8 * annual + weekend + noise) * 1000) / 1000;
}

/**
 * Writes `years` of 5-minute load history ending at `end` for a new site, month by month as the store keeps it,
 * and the site's record with its coverage. Returns the number of rows written.
 */
export async function writeFiveMinuteSite(ids: { account_id: string; customer_id: string; site_id: string }, years: number, end = BENCH_END, seed = 1): Promise<number> {
  const random = mulberry32(seed);
  const start = end - Math.round(years * 365.25 * DAY_MS / STEP_MS) * STEP_MS;
  let rows = 0;
  for (let monthStart = start; monthStart <= end; ) {
    const d = new Date(monthStart);
    const next = Math.min(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1), end + STEP_MS);
    const month: StandardRow[] = [];
    for (let t = monthStart; t < next; t += STEP_MS) month.push({ t, power_kw: loadValue(t, 2 * (random() - 0.5)), energy_kwh: null });
    await putObject(seriesKey(ids.customer_id, ids.site_id, d.toISOString().slice(0, 7)), serialiseSeries(month));
    rows += month.length;
    monthStart = next;
  }
  await ensureSite({
    ...ids,
    location: 'Berlin',
    region: 'eu-central-1',
    created_at: new Date().toISOString(),
    coverage: { first: new Date(start).toISOString(), last: new Date(end).toISOString(), rows, interval_minutes: 5, gap_count: 0, completeness: 1, gaps: [] },
  });
  return rows;
}

/** What the child reports: the job's outcome and its own time and peak RSS. */
interface ChildResult {
  seconds: number;
  peakRssMb: number;
  startRssMb: number;
  /** CPU time of the child (user and system), which contention on a shared machine does not stretch. */
  cpuSeconds: number;
  status: string;
  reason?: string;
  trainingPoints?: number;
}

/** In the child: runs the automatic training message for the site and prints its result on one line. */
async function trainInChild(ids: { account_id: string; customer_id: string; site_id: string }): Promise<void> {
  const startRssMb = process.memoryUsage().rss / 1_048_576;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const requestedAt = new Date().toISOString();
  await runTrainingMessage({ type: 'automatic', ...ids, requested_at: requestedAt });
  const seconds = (performance.now() - started) / 1000;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  // The automatic job's id, as training.ts derives it from the message.
  const job = await getTrainingJob(`job_auto_${createHash('sha256').update(`${ids.customer_id}\n${ids.site_id}\n${requestedAt}`).digest('hex').slice(0, 24)}`);
  const [model] = await listModelsOfSite(ids.customer_id, ids.site_id);
  const result: ChildResult = { seconds, peakRssMb, startRssMb, cpuSeconds, status: job?.status ?? 'unknown', reason: job?.reason, trainingPoints: model?.training_data_points };
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
  process.exit(0);
}

/** Runs the trainer in a child process with this process's environment (the embedded stores' endpoints). */
function runChild(ids: { account_id: string; customer_id: string; site_id: string }): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'scale', 'training.ts'), CHILD_FLAG, JSON.stringify(ids)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'silent' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (!line) return reject(new Error(`the training child exited with ${code} and no result: ${err.slice(-2000)}`));
      resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as ChildResult);
    });
  });
}

/**
 * Writes a 10-year 5-minute site into the embedded stores and trains it as the automatic training does.
 * `points` is the site's history (rows stored); the job trains on the last TRAINING_WINDOW_DAYS of them.
 */
export async function benchTrainingScaling(): Promise<{ seconds: number; peakRssMb: number; points: number }> {
  const runtime = await startLocalRuntime({ port: 0, env: { LOG_LEVEL: 'silent' } });
  try {
    const ids = { account_id: 'acct_bench_scale', customer_id: `bench-scale-${Date.now()}`, site_id: 'ten-years-5min' };
    const written = performance.now();
    const points = await writeFiveMinuteSite(ids, BENCH_YEARS);
    const writeSeconds = (performance.now() - written) / 1000;
    const child = await runChild(ids);
    if (child.status !== 'completed') throw new Error(`training the ${BENCH_YEARS}-year site ended ${child.status}: ${child.reason ?? 'no reason'}`);
    console.log(
      `training, ${BENCH_YEARS} years of 5-minute history (${points} rows, written in ${writeSeconds.toFixed(1)} s): ${child.seconds.toFixed(1)} s (${child.cpuSeconds.toFixed(1)} s of CPU), ` +
        `peak RSS ${child.peakRssMb.toFixed(0)} MB (${child.startRssMb.toFixed(0)} MB at the child's start), ${child.trainingPoints ?? '?'} points trained on`,
    );
    return { seconds: child.seconds, peakRssMb: child.peakRssMb, points };
  } finally {
    await runtime.close();
  }
}

if (process.argv[2] === CHILD_FLAG) void trainInChild(JSON.parse(process.argv[3]) as { account_id: string; customer_id: string; site_id: string });
