/**
 * Ingestion benchmark: one year of 5-minute data (105,120 rows, one CSV) uploaded over HTTP and processed
 * end to end (S3 event -> streaming standardisation -> monthly series -> coverage -> weather), beside the
 * raw parse speed of the CSV library alone on the same text. Peak memory is the process's RSS growth,
 * sampled every 10 ms. Writes bench/results/ingestion.{json,md}.
 */
import { parse } from 'csv-parse';
import { Readable } from 'node:stream';
import { startLocalRuntime } from '../local/runtime';
import { registerAccount } from '../shared/services/accounts/accounts';
import { yearOf5MinuteCsv } from './ingest-data';
import { roundHalfUp } from '../shared/domain/rounding';
import { writeResults } from './results-files';

const CHUNK = 64 * 1024;
const TARGET_RATIO = 0.25;
const TARGET_SECONDS = 5;
const TARGET_MEMORY_MB = 200;

function chunks(text: string): Readable {
  const buffer = Buffer.from(text, 'utf8');
  return Readable.from((function* () {
    for (let i = 0; i < buffer.length; i += CHUNK) yield buffer.subarray(i, i + CHUNK);
  })());
}

async function rawParse(text: string): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  let rows = 0;
  for await (const _record of chunks(text).pipe(parse({ delimiter: detectDelimiter(text) }))) rows++;
  return { rows, ms: performance.now() - started };
}

const detectDelimiter = (text: string) => (text.slice(0, 2000).split(';').length > text.slice(0, 2000).split(',').length ? ';' : ',');

function sampleMemory(): { stop: () => number } {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  return {
    stop: () => {
      clearInterval(timer);
      return (Math.max(peak, process.memoryUsage().rss) - base) / 1024 / 1024;
    },
  };
}

export async function benchIngestion(): Promise<void> {
  const csv = yearOf5MinuteCsv();
  const raw = await rawParse(csv);
  const runtime = await startLocalRuntime({ port: 0, env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', RATE_LIMIT_FREE: '100000' } });
  try {
    const { api_key } = await registerAccount({ email: `bench-ingest-${Date.now()}@example.com` });
    global.gc?.();
    const memory = sampleMemory();
    const started = performance.now();
    const form = new FormData();
    for (const [k, v] of Object.entries({ customer_id: 'bench', site_id: 'year', region: 'eu-central-1', location: 'Berlin' })) form.append(k, v);
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'year.csv');
    const res = await fetch(`${runtime.url}/upload_train`, { method: 'POST', headers: { 'x-api-key': api_key }, body: form });
    const ack = (await res.json()) as { upload_id: string };
    const acked = performance.now();
    await runtime.s3Events.idle();
    const done = performance.now();
    const peakMb = memory.stop();
    const status = (await (await fetch(`${runtime.url}/api/uploads/${ack.upload_id}`, { headers: { 'x-api-key': api_key } })).json()) as { status: string; rows: number };

    const endToEndMs = done - started;
    const results = {
      measured_at: new Date().toISOString(),
      file: { rows: raw.rows - 1, bytes: Buffer.byteLength(csv), chunk_bytes: CHUNK },
      raw_csv_parse: { ms: roundHalfUp(raw.ms, 2), rows_per_second: roundHalfUp((raw.rows / raw.ms) * 1000, 0) },
      end_to_end: {
        status: status.status,
        rows: status.rows,
        ms: roundHalfUp(endToEndMs, 2),
        upload_request_ms: roundHalfUp(acked - started, 2),
        processing_ms: roundHalfUp(done - acked, 2),
        rows_per_second: roundHalfUp((status.rows / endToEndMs) * 1000, 0),
        peak_memory_growth_mb: roundHalfUp(peakMb, 1),
      },
      ratios: { end_to_end_vs_raw_parse_speed: roundHalfUp(raw.ms / endToEndMs, 3) },
      targets: {
        ratio_at_least: TARGET_RATIO,
        ratio_met: raw.ms / endToEndMs >= TARGET_RATIO,
        seconds_under: TARGET_SECONDS,
        seconds_met: endToEndMs < TARGET_SECONDS * 1000,
        memory_mb_under: TARGET_MEMORY_MB,
        memory_met: peakMb < TARGET_MEMORY_MB,
      },
    };
    const md = [
      `# Ingestion benchmark (${results.measured_at})`,
      '',
      `One CSV of ${results.file.rows} rows (${roundHalfUp(results.file.bytes / 1e6, 2)} MB), one year of 5-minute data.`,
      '',
      '| what | ms | rows/s |',
      '|---|---|---|',
      `| csv-parse alone, same text, ${CHUNK / 1024} KB chunks | ${results.raw_csv_parse.ms} | ${results.raw_csv_parse.rows_per_second} |`,
      `| upload over HTTP + processing end to end (status ${status.status}) | ${results.end_to_end.ms} | ${results.end_to_end.rows_per_second} |`,
      `| of which processing after the acknowledgement | ${results.end_to_end.processing_ms} | |`,
      '',
      `End-to-end speed / raw parse speed: ${results.ratios.end_to_end_vs_raw_parse_speed} (target at least ${TARGET_RATIO}: ${results.targets.ratio_met ? 'met' : 'NOT met'}).`,
      `Under ${TARGET_SECONDS} s: ${results.targets.seconds_met ? 'met' : 'NOT met'}. Peak RSS growth ${results.end_to_end.peak_memory_growth_mb} MB (target under ${TARGET_MEMORY_MB} MB: ${results.targets.memory_met ? 'met' : 'NOT met'}).`,
      '',
    ].join('\n');
    writeResults('ingestion', results, md);
  } finally {
    await runtime.close();
  }
}
