/**
 * Dispatch memory (issue 20, item 5): the process's RSS before and after 10 year-long dispatch solves, each
 * an in-process call of the service function (`optimizeDispatch`, what POST /api/dispatch-optimization runs:
 * the optimised solve, the no-battery baseline and the report), its answer serialised as the handler sends it.
 *
 * Data: the year of bench/dispatch.ts (Nord Pool system price and load 2017, epftoolbox, Lago et al. 2021, the
 * load scaled to a 20 kW mean; NREL SERF East AC power x10, its measured days repeated), 8,760 hourly intervals.
 *
 * RSS is read after `global.gc` (run with `node --expose-gc`; bench/scale/index.ts does) once the event loop
 * has turned, so garbage is told apart from what stays. "Before" is after one day-ahead (24 h) solve: a
 * server that has answered any dispatch request has HiGHS's WebAssembly compiled, and that code is the same
 * for a day as for a year; `rssColdMb`, before any solve, is reported beside it.
 */
import { readFileSync } from 'node:fs';
import { highsMemoryBytes } from '../../shared/domain/dispatch/highs-solver';
import { DispatchOptimizationRequest } from '../../shared/schemas/dispatch';
import { optimizeDispatch } from '../../shared/services/dispatch/dispatch';
import { readCsv } from '../shared-data';

const SOLVES = 10;
const YEAR_HOURS = 8760;
const MB = 2 ** 20;

export interface DispatchMemory {
  /** RSS after one day-ahead solve, before the year-long ones (MB). */
  rssBeforeMb: number;
  /** RSS after the year-long solves, their answers sent and dropped (MB). */
  rssAfterMb: number;
  solves: number;
  /** Mean wall time of one service call (optimised solve, baseline solve, report and JSON). */
  secondsPerSolve: number;
  /** RSS after the first year-long solve: what the rest add is what a year's solve leaves behind (MB). */
  rssAfterFirstMb: number;
  /** RSS after each year-long solve, settled (MB). */
  rssAfterEachMb: number[];
  /**
   * Median of the rises from one solve to the next: what each solve leaves behind (MB). A leak adds at every solve;
   * the process's one-time rises (the heap's or allocator's high-water mark moving once, seen at the second or
   * third solve) do not move the median.
   */
  retainedMbPerSolve: number;
  /** RSS with the modules loaded and no solve yet (MB). */
  rssColdMb: number;
  /** RSS after the last year-long solve without a forced collection: what a server shows (MB). */
  rssAfterNoGcMb: number;
  /** Highest RSS of the process (VmHWM, MB). */
  rssPeakMb: number;
  /** WebAssembly memory of the HiGHS instance kept for the next solve, if any (MB). */
  wasmRetainedMb: number;
  /** Net cost of the last year-long answer (the LP's objective here: no demand charge), to compare runs. */
  objective: number;
  /** Length of the JSON answer (MB). */
  answerMb: number;
}

/** The year-long request as the handler receives it (validated, defaults filled in). */
export function yearRequest(hours = YEAR_HOURS): DispatchOptimizationRequest {
  const rows = readCsv('prices/NP.csv').filter(([date]) => date.startsWith('2017-')).slice(0, hours);
  const systemLoad = rows.map((r) => Number(r[2]));
  const meanLoad = systemLoad.reduce((a, b) => a + b, 0) / systemLoad.length;
  const quarter = readCsv('solar/serf_east_15min_ac_power.csv').map(([, v]) => Math.max(0, (10 * Number(v)) / 1000));
  const hourly = Array.from({ length: Math.floor(quarter.length / 4) }, (_, h) => (quarter[4 * h] + quarter[4 * h + 1] + quarter[4 * h + 2] + quarter[4 * h + 3]) / 4);
  return DispatchOptimizationRequest.parse({
    forecasts: {
      solar_forecast: Array.from({ length: rows.length }, (_, t) => hourly[t % hourly.length]),
      load_forecast: systemLoad.map((v) => (20 * v) / meanLoad),
      price_forecast: rows.map((r) => Number(r[1]) / 1000),
    },
    system_config: { battery_capacity_kwh: 100, battery_power_kw: 25, battery_min_soc: 0.1, battery_max_soc: 0.9, initial_soc: 0.5, roundtrip_efficiency: 0.9 },
    optimization_config: { objective: 'revenue', interval_minutes: 60, grid_export_limit: 30, start_time: '2017-01-01T00:00:00Z' },
  });
}

/** Median of the differences between consecutive values. */
export function medianRise(ys: readonly number[]): number {
  const rises = ys.slice(1).map((y, k) => y - ys[k]).sort((a, b) => a - b);
  if (!rises.length) return NaN;
  const mid = rises.length >> 1;
  return rises.length % 2 ? rises[mid] : (rises[mid - 1] + rises[mid]) / 2;
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 50));
const rssMb = () => process.memoryUsage().rss / MB;
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024;

/** RSS once the loop has turned and (with --expose-gc) the collector has run twice (weak and finalised objects). */
async function settledRssMb(): Promise<number> {
  await turn();
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc: without it garbage and retained memory cannot be told apart');
  gc();
  await turn();
  gc();
  return rssMb();
}

/** One request as the API serves it: the answer serialised, then dropped. */
async function serve(body: DispatchOptimizationRequest): Promise<{ objective: number; answerBytes: number }> {
  const answer = await optimizeDispatch(body);
  const json = JSON.stringify(answer);
  return { objective: answer.optimization_result.economic_summary.net_cost, answerBytes: json.length };
}

export async function benchDispatchMemory(): Promise<DispatchMemory> {
  const year = yearRequest();
  const day = yearRequest(24);
  const rssColdMb = await settledRssMb();
  await serve(day);
  const rssBeforeMb = await settledRssMb();
  let seconds = 0;
  const timed = async () => {
    const started = performance.now();
    const served = await serve(year);
    seconds += (performance.now() - started) / 1000;
    return served;
  };
  let last = await timed();
  const rssAfterFirstMb = await settledRssMb();
  const rssAfterEachMb = [rssAfterFirstMb];
  let rssAfterNoGcMb = NaN;
  for (let i = 1; i < SOLVES; i++) {
    last = await timed();
    await turn();
    rssAfterNoGcMb = rssMb();
    rssAfterEachMb.push(await settledRssMb());
  }
  const rssAfterMb = rssAfterEachMb[rssAfterEachMb.length - 1];
  const result: DispatchMemory = {
    rssBeforeMb,
    rssAfterMb,
    solves: SOLVES,
    secondsPerSolve: seconds / SOLVES,
    rssAfterFirstMb,
    rssAfterEachMb,
    retainedMbPerSolve: medianRise(rssAfterEachMb),
    rssColdMb,
    rssAfterNoGcMb,
    rssPeakMb: peakMb(),
    wasmRetainedMb: (await highsMemoryBytes()) / MB,
    objective: last.objective,
    answerMb: last.answerBytes / MB,
  };
  console.log(`dispatch memory: ${JSON.stringify(result)}`);
  return result;
}
