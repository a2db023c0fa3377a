/**
 * `npm run bench -- scale` (issue 20, "Done when"): what the service's costs grow with, each figure as a ratio
 * measured in this run, judged against the issue's target:
 *   nowcast      processing time of a 3-point nowcast on sites holding 1 day, 1 year and 10 years of 5-minute
 *                history (./ingestion.ts), as ratios to the 1-day site: target flat, within 1.5 times;
 *   training     training a 10-year 5-minute site (./training.ts): time and peak RSS, against the training
 *                worker's Lambda memory;
 *   api          p99 of GET /api/usage while an automatic training runs (./api-latency.ts): target under 100 ms;
 *   dispatch     server RSS before and after 10 year-long dispatch solves (./dispatch-memory.ts): no growth left;
 *   stlf         a day-ahead load forecast on 8 weeks of half-hourly data against R's stlf, time and MAPE on the
 *                same origins (./load-vs-stlf.ts): no slower, no less accurate.
 * The first four run one at a time, each in a child process of its own (`--expose-gc`), so one part's heap
 * neither inflates the next one's RSS nor shares its event loop; stlf runs in this process. A part whose module
 * is absent or fails is reported as "not measured" with the reason. Writes bench/results/scale.{json,md} after
 * a run of every part; a partial run writes them to $SCALE_OUT (default the system's temporary folder).
 *
 * Environment:
 *   SCALE_PARTS=nowcast,training,api,dispatch,stlf   the parts to run (default all)
 *   SCALE_STLF_ORIGINS=14                            origins per load set
 *   SCALE_STLF_SETS=taylor,zone11                    load sets whose name holds one of these (default the REPORT sets)
 *   SCALE_PART_TIMEOUT_S=900                         a child part is stopped after this long
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeResults } from '../results-files';
import { benchLoadVsStlf, type StlfComparison, type StlfRow } from './load-vs-stlf';

/** Issue 20's targets. */
export const SCALE_TARGETS = {
  /** Nowcast on 1 year and 10 years of history, as a multiple of the 1-day site's time ("flat, within 1.5 times"). */
  nowcastFlat: 1.5,
  /** p99 of GET /api/usage during an automatic training, ms. */
  apiP99Ms: 100,
  /** Engine / stlf time and MAPE ("costs no more than R's stlf ... at equal or better accuracy"). */
  vsStlf: 1,
  /**
   * RSS each year-long solve leaves behind, MB: the median rise from one solve to the next (dispatch-memory.ts).
   * The issue measured 190 MB left by a year's dispatch; a hundredth of that per solve counts as none (single
   * readings move by about 0.5 MB with nothing retained).
   */
  dispatchRetainedMbPerSolve: 1.9,
};

/**
 * The training worker's memory: lib/pipelines/workers.ts passes no memorySize, so it takes ServiceFunction's
 * default (lib/api/service-function.ts).
 */
export const TRAINING_LAMBDA_MB = 1024;

/** The issue's "before" figures, quoted beside this run's. */
const ISSUE_BEFORE = { nowcast10yOver1d: 15, usageDuringTrainingMs: '18,000-20,000', dispatchGrowthMb: 190, engineMs: 296, stlfMs: 109 };

type Part = 'nowcast' | 'training' | 'api' | 'dispatch';
const PARTS: readonly Part[] = ['nowcast', 'training', 'api', 'dispatch'];

/** Where each part's measurement lives, its export, the fields it answers with and the helper writing it. */
const PART_MODULES: Record<Part, { file: string; exportName: string; fields: readonly string[]; owner: string }> = {
  nowcast: { file: 'ingestion.ts', exportName: 'benchNowcastScaling', fields: [], owner: '20A' },
  training: { file: 'training.ts', exportName: 'benchTrainingScaling', fields: ['seconds', 'peakRssMb', 'points'], owner: '20B' },
  api: { file: 'api-latency.ts', exportName: 'benchApiDuringTraining', fields: ['p50Ms', 'p99Ms', 'trainingSeconds'], owner: '20C' },
  dispatch: { file: 'dispatch-memory.ts', exportName: 'benchDispatchMemory', fields: ['rssBeforeMb', 'rssAfterMb', 'solves', 'secondsPerSolve'], owner: '20E' },
};

const PART_FLAG = '--scale-part=';
const RESULT_PREFIX = 'SCALE_RESULT ';
const SCALE_DIR = path.join('bench', 'scale');

export interface PartOutcome {
  part: Part;
  /** The part's answer, or null with the reason it was not measured. */
  value: unknown;
  notMeasured?: string;
  seconds: number;
  loadAverage: { before: number; after: number };
}

export interface Verdict {
  measure: string;
  figure: string;
  ratio: string;
  target: string;
  /** PASS / FAIL, or NOT MEASURED (with the reason in `figure`), or INFO where the issue sets no threshold. */
  verdict: 'PASS' | 'FAIL' | 'NOT MEASURED' | 'INFO';
}

export const fmt = (x: number | null | undefined, digits = 2) => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits));
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a part's answer against the shape its brief promised; the reason when it does not fit. */
export function shapeProblem(part: Part, value: unknown): string | null {
  if (part === 'nowcast') {
    if (!Array.isArray(value) || !value.length) return 'expected a non-empty array of { history, ms }';
    const bad = value.find((r) => !isRecord(r) || typeof r.history !== 'string' || typeof r.ms !== 'number');
    return bad ? `unexpected row ${JSON.stringify(bad)}` : null;
  }
  if (!isRecord(value)) return 'expected an object';
  const missing = PART_MODULES[part].fields.filter((f) => typeof value[f] !== 'number');
  return missing.length ? `missing numeric ${missing.join(', ')} in ${JSON.stringify(value).slice(0, 200)}` : null;
}

/** The verdict rows of nowcast scaling: each history's time as a ratio to the shortest history's. */
export function nowcastVerdicts(rows: readonly { history: string; ms: number }[]): Verdict[] {
  const base = rows[0];
  return rows.slice(1).map((r) => {
    const ratio = r.ms / base.ms;
    return { measure: `nowcast processing, ${r.history} vs ${base.history} of 5-minute history`, figure: `${fmt(r.ms, 0)} ms vs ${fmt(base.ms, 0)} ms`, ratio: fmt(ratio), target: `<= ${SCALE_TARGETS.nowcastFlat}`, verdict: ratio <= SCALE_TARGETS.nowcastFlat ? 'PASS' : 'FAIL' };
  });
}

/**
 * The verdict of the load forecast against stlf on one set: the forecast a day after another (what a site or a
 * client forecasting each morning pays, its validation reused but for the newest fold) at most stlf's time, and
 * MAPE at most stlf's; the cold time (every fold validated, a series' first forecast) is reported beside it.
 */
export function stlfVerdict(row: StlfRow): Verdict {
  const measured = row.timeRatio !== null && row.mapeRatio !== null && row.stlfMs !== null;
  const nextDayRatio = measured ? row.nextDayMs.mean / row.stlfMs!.mean : null;
  // Equal accuracy: the MAPE ratio at most 1, or 1 within its 95% paired bootstrap interval (no difference the origins can tell).
  const equalOrBetter = measured && (row.mapeRatio! <= SCALE_TARGETS.vsStlf || (row.mapeRatioInterval !== null && row.mapeRatioInterval[0] <= SCALE_TARGETS.vsStlf));
  const pass = measured && nextDayRatio! <= SCALE_TARGETS.vsStlf && equalOrBetter && row.nextDayMs.identical;
  return {
    measure: `load forecast vs R stlf, ${row.set} (${row.horizonSteps} steps of ${row.stepMinutes} min)`,
    figure: measured
      ? `a day after another ${fmt(row.nextDayMs.mean, 0)} ms (cold ${fmt(row.engineMs.mean, 0)} ms) vs stlf ${fmt(row.stlfMs!.mean, 0)} ms per forecast; MAPE ${fmt(row.engineMape)}% vs ${fmt(row.stlfMape)}%${row.nextDayMs.identical ? '' : '; next-day forecast DIFFERS from the cold one'}`
      : `not measured: ${row.error ?? 'R absent'}`,
    ratio: measured ? `time ${fmt(nextDayRatio)} (cold ${fmt(row.timeRatio)}), MAPE ${fmt(row.mapeRatio, 3)}${row.mapeRatioInterval ? ` [${fmt(row.mapeRatioInterval[0], 3)}, ${fmt(row.mapeRatioInterval[1], 3)}]` : ''}` : 'n/a',
    target: `time <= ${SCALE_TARGETS.vsStlf}, MAPE <= ${SCALE_TARGETS.vsStlf} or not distinguishable from it (95% interval)`,
    verdict: measured ? (pass ? 'PASS' : 'FAIL') : 'NOT MEASURED',
  };
}

/**
 * Item 4's reuse: the same request again, its validation answered by the fold cache, as a share of the cold
 * time; PASS when every repeated forecast equalled its cold one bit for bit (the issue sets no ratio).
 */
export function reuseVerdict(rows: readonly StlfRow[]): Verdict | null {
  const measured = rows.filter((r) => r.repeatMs.mean > 0 && r.engineMs.mean > 0);
  if (!measured.length) return null;
  const ratio = geometricMean(measured.map((r) => r.repeatMs.mean / r.engineMs.mean));
  const identical = measured.every((r) => r.repeatMs.identical);
  return {
    measure: `a load forecast repeated, validation reused (${measured.length} sets)`,
    figure: `repeated ${fmt(geometricMean(measured.map((r) => r.repeatMs.mean)), 1)} ms against cold ${fmt(geometricMean(measured.map((r) => r.engineMs.mean)), 0)} ms (geometric means); forecasts and intervals ${identical ? 'identical' : 'DIFFERENT'}`,
    ratio: `repeated / cold ${fmt(ratio, 3)}`,
    target: 'validation reused, same forecast',
    verdict: identical ? 'PASS' : 'FAIL',
  };
}

/** Every verdict row of a run, in the issue's order. */
export function verdicts(outcomes: readonly PartOutcome[], stlf: StlfComparison | null): Verdict[] {
  const rows: Verdict[] = [];
  const notMeasured = (measure: string, why: string, target: string): Verdict => ({ measure, figure: `not measured: ${why}`, ratio: 'n/a', target, verdict: 'NOT MEASURED' });
  for (const o of outcomes) {
    if (o.part === 'nowcast') {
      if (o.notMeasured) rows.push(notMeasured('nowcast processing, 1 day / 1 year / 10 years of 5-minute history', o.notMeasured, `<= ${SCALE_TARGETS.nowcastFlat}`));
      else rows.push(...nowcastVerdicts(o.value as { history: string; ms: number }[]));
    }
    if (o.part === 'training') {
      const measure = 'training a 10-year 5-minute site';
      const target = `peak RSS < the trainer's ${TRAINING_LAMBDA_MB} MB`;
      if (o.notMeasured) rows.push(notMeasured(measure, o.notMeasured, target));
      else {
        const v = o.value as { seconds: number; peakRssMb: number; points: number };
        const ratio = v.peakRssMb / TRAINING_LAMBDA_MB;
        rows.push({ measure, figure: `${fmt(v.seconds, 1)} s, peak RSS ${fmt(v.peakRssMb, 0)} MB, ${v.points.toLocaleString('en')} points`, ratio: `${fmt(ratio)} of the memory`, target, verdict: ratio < 1 ? 'PASS' : 'FAIL' });
      }
    }
    if (o.part === 'api') {
      const measure = 'p99 of GET /api/usage during an automatic training';
      const target = `< ${SCALE_TARGETS.apiP99Ms} ms`;
      if (o.notMeasured) rows.push(notMeasured(measure, o.notMeasured, target));
      else {
        const v = o.value as { p50Ms: number; p99Ms: number; trainingSeconds: number; calls?: number; idleP99Ms?: number };
        const calls = typeof v.calls === 'number' ? `${v.calls} calls, ` : '';
        const idle = typeof v.idleP99Ms === 'number' ? `; p99 with no training ${fmt(v.idleP99Ms, 1)} ms` : '';
        const idleRatio = typeof v.idleP99Ms === 'number' ? `, ${fmt(v.p99Ms / v.idleP99Ms)} of the idle p99` : '';
        rows.push({ measure, figure: `p50 ${fmt(v.p50Ms, 1)} ms, p99 ${fmt(v.p99Ms, 1)} ms (${calls}during a ${fmt(v.trainingSeconds, 1)} s training)${idle}`, ratio: `${fmt(v.p99Ms / SCALE_TARGETS.apiP99Ms)} of the target${idleRatio}`, target, verdict: v.p99Ms < SCALE_TARGETS.apiP99Ms ? 'PASS' : 'FAIL' });
      }
    }
    if (o.part === 'dispatch') {
      const measure = 'server RSS after 10 year-long dispatch solves';
      const target = `< ${SCALE_TARGETS.dispatchRetainedMbPerSolve} MB left per solve`;
      if (o.notMeasured) rows.push(notMeasured(measure, o.notMeasured, target));
      else {
        const v = o.value as { rssBeforeMb: number; rssAfterMb: number; solves: number; secondsPerSolve: number; rssAfterNoGcMb?: number; rssAfterEachMb?: number[]; retainedMbPerSolve?: number };
        const noGc = typeof v.rssAfterNoGcMb === 'number' ? ` (${fmt(v.rssAfterNoGcMb, 0)} MB before a forced collection)` : '';
        const each = v.rssAfterEachMb ?? [v.rssBeforeMb, v.rssAfterMb];
        const retained = v.retainedMbPerSolve ?? (v.rssAfterMb - v.rssBeforeMb) / v.solves;
        rows.push({
          measure,
          figure: `${fmt(v.rssBeforeMb, 0)} MB after a day-ahead solve; after each year-long solve ${each.map((x) => fmt(x, 0)).join(', ')} MB${noGc}; ${fmt(v.secondsPerSolve, 2)} s each: each solve left ${fmt(retained, 2)} MB (median rise)`,
          ratio: `${fmt(retained / SCALE_TARGETS.dispatchRetainedMbPerSolve)} of the target; after / before ${fmt(v.rssAfterMb / v.rssBeforeMb)}`,
          target,
          verdict: retained < SCALE_TARGETS.dispatchRetainedMbPerSolve ? 'PASS' : 'FAIL',
        });
      }
    }
  }
  if (stlf) {
    if (!stlf.rInstalled) rows.push(notMeasured('load forecast vs R stlf', 'Rscript with the forecast package is not installed', `time and MAPE <= ${SCALE_TARGETS.vsStlf}`));
    else rows.push(...stlf.rows.map(stlfVerdict));
    const reuse = reuseVerdict(stlf.rows);
    if (reuse) rows.push(reuse);
  }
  return rows;
}

/** Geometric mean of positive ratios (the average of ratios that treats 0.5 and 2 alike). */
export function geometricMean(ratios: readonly number[]): number {
  const ok = ratios.filter((r) => r > 0 && Number.isFinite(r));
  return ok.length ? Math.exp(ok.reduce((s, r) => s + Math.log(r), 0) / ok.length) : NaN;
}

/** Runs one part in a child process and reads its answer from the line the child prints. */
function runPart(part: Part, timeoutSeconds: number): Promise<PartOutcome> {
  const started = performance.now();
  const before = loadavg()[0];
  const spec = PART_MODULES[part];
  const done = (value: unknown, notMeasured?: string): PartOutcome => ({ part, value, ...(notMeasured ? { notMeasured } : {}), seconds: (performance.now() - started) / 1000, loadAverage: { before, after: loadavg()[0] } });
  if (!existsSync(path.join(SCALE_DIR, spec.file))) return Promise.resolve(done(null, `${SCALE_DIR}/${spec.file} does not exist (helper ${spec.owner})`));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(SCALE_DIR, 'index.ts'), `${PART_FLAG}${part}`], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let answer: string | null = null;
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith(RESULT_PREFIX)) answer = line.slice(RESULT_PREFIX.length);
        else console.log(`  [${part}] ${line}`);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSeconds * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (pending.startsWith(RESULT_PREFIX)) answer = pending.slice(RESULT_PREFIX.length);
      if (signal === 'SIGKILL') return resolve(done(null, `stopped after ${timeoutSeconds} s (SCALE_PART_TIMEOUT_S)`));
      if (answer === null) return resolve(done(null, `${spec.file} failed (exit ${code}): ${lastLines(stderr)}`));
      const parsed = JSON.parse(answer) as { value?: unknown; error?: string };
      if (parsed.error) return resolve(done(null, `${spec.exportName} threw: ${parsed.error}`));
      const problem = shapeProblem(part, parsed.value);
      resolve(problem ? done(null, `${spec.exportName} answered an unexpected shape: ${problem}`) : done(parsed.value));
    });
  });
}

const lastLines = (text: string) => text.trim().split('\n').slice(-3).join(' / ').slice(0, 400) || 'no message';

/** In the child: imports the part's module, runs it and prints its answer on one line, then exits (servers and pools may hold the loop). */
async function childMain(part: Part): Promise<void> {
  const spec = PART_MODULES[part];
  let line: string;
  try {
    const module = (await import(pathToFileURL(path.resolve(SCALE_DIR, spec.file)).href)) as Record<string, unknown>;
    const run = module[spec.exportName];
    if (typeof run !== 'function') throw new Error(`${spec.file} exports no function ${spec.exportName}`);
    line = JSON.stringify({ value: await (run as () => Promise<unknown>)() });
  } catch (error) {
    line = JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
  }
  process.stdout.write(`${RESULT_PREFIX}${line}\n`, () => process.exit(0));
}

const childPart = process.argv.find((a) => a.startsWith(PART_FLAG))?.slice(PART_FLAG.length);
if (childPart) void childMain(childPart as Part);

interface Options {
  parts: string[];
  stlfOrigins: number;
  stlfSets: string[];
  partTimeoutSeconds: number;
}

function readOptions(env = process.env): Options {
  const list = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);
  const parts = list(env.SCALE_PARTS);
  return {
    parts: parts.length ? parts : [...PARTS, 'stlf'],
    stlfOrigins: Math.max(2, Number(env.SCALE_STLF_ORIGINS ?? 14)),
    stlfSets: list(env.SCALE_STLF_SETS),
    partTimeoutSeconds: Number(env.SCALE_PART_TIMEOUT_S ?? 900),
  };
}

function stlfTable(stlf: StlfComparison): string[] {
  const lines = [
    '| set | role | step | origins | history days | engine ms mean (median), cold | stlf ms mean (median) | cold / stlf | engine ms a day after another (same forecast) | next day / stlf | engine ms repeated (same forecast) | repeated / stlf | engine MAPE % | stlf MAPE % | MAPE ratio [95%] | steps |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of stlf.rows) {
    lines.push(
      `| ${r.set} | ${r.role} | ${r.stepMinutes} min x ${r.horizonSteps} | ${r.origins} | ${fmt(r.historyDays[0], 0)}-${fmt(r.historyDays[1], 0)} | ${fmt(r.engineMs.mean, 0)} (${fmt(r.engineMs.median, 0)}) | ${r.stlfMs ? `${fmt(r.stlfMs.mean, 0)} (${fmt(r.stlfMs.median, 0)})` : 'n/a'} | ${fmt(r.timeRatio)} | ${fmt(r.nextDayMs.mean, 1)} (${r.nextDayMs.identical ? 'identical' : 'DIFFERS'}) | ${r.stlfMs ? fmt(r.nextDayMs.mean / r.stlfMs.mean, 3) : 'n/a'} | ${fmt(r.repeatMs.mean, 1)} (${r.repeatMs.identical ? 'identical' : 'DIFFERS'}) | ${r.stlfMs ? fmt(r.repeatMs.mean / r.stlfMs.mean, 3) : 'n/a'} | ${fmt(r.engineMape, 3)} | ${fmt(r.stlfMape, 3)} | ${fmt(r.mapeRatio, 3)}${r.mapeRatioInterval ? ` [${fmt(r.mapeRatioInterval[0], 3)}, ${fmt(r.mapeRatioInterval[1], 3)}]` : ''} | ${r.steps} |`,
    );
  }
  const gefcom = stlf.rows.filter((r) => r.set.startsWith('gefcom') && r.timeRatio !== null);
  if (gefcom.length) {
    const better = gefcom.filter((r) => r.mapeRatio! <= 1).length;
    lines.push('', `GEFCom (${gefcom.length} sets, hourly): geometric mean time ratio ${fmt(geometricMean(gefcom.map((r) => r.timeRatio!)))}, MAPE ratio ${fmt(geometricMean(gefcom.map((r) => r.mapeRatio!)), 3)}; the engine's MAPE is at most stlf's on ${better} of ${gefcom.length}.`);
  }
  const errors = stlf.rows.filter((r) => r.error);
  if (errors.length) lines.push('', ...errors.map((r) => `- ${r.set}: ${r.error}`));
  return lines;
}

/** Runs the scale bench and writes its results. */
export async function benchScale(): Promise<void> {
  const options = readOptions();
  const started = performance.now();
  const outcomes: PartOutcome[] = [];
  for (const part of PARTS) {
    if (!options.parts.includes(part)) continue;
    console.log(`scale: ${part}`);
    const outcome = await runPart(part, options.partTimeoutSeconds);
    console.log(`  ${part}: ${outcome.notMeasured ? `not measured: ${outcome.notMeasured}` : JSON.stringify(outcome.value)} (${fmt(outcome.seconds, 0)} s)`);
    outcomes.push(outcome);
  }
  let stlf: StlfComparison | null = null;
  let stlfLoad = { before: NaN, after: NaN };
  let stlfSeconds = NaN;
  if (options.parts.includes('stlf')) {
    console.log('scale: stlf');
    const stlfStarted = performance.now();
    stlfLoad.before = loadavg()[0];
    stlf = await benchLoadVsStlf({ origins: options.stlfOrigins, sets: options.stlfSets, roles: ['REPORT'] }, (r) => console.log(`  ${r.set}: engine ${fmt(r.engineMs.mean, 0)} ms, stlf ${fmt(r.stlfMs?.mean, 0)} ms; MAPE ${fmt(r.engineMape, 3)} vs ${fmt(r.stlfMape, 3)}`));
    stlfLoad = { ...stlfLoad, after: loadavg()[0] };
    stlfSeconds = (performance.now() - stlfStarted) / 1000;
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = verdicts(outcomes, stlf);
  const partial = [...PARTS, 'stlf'].some((p) => !options.parts.includes(p)) || options.stlfSets.length > 0;
  const md = markdown(rows, outcomes, stlf, { options, seconds, partial, stlfLoad, stlfSeconds });
  const results = {
    measured_at: new Date().toISOString(),
    partial,
    options,
    seconds: Math.round(seconds),
    cores: cpus().length,
    targets: { ...SCALE_TARGETS, training_lambda_mb: TRAINING_LAMBDA_MB },
    issue_before: ISSUE_BEFORE,
    verdicts: rows,
    parts: outcomes,
    stlf: stlf && { ...stlf, seconds: stlfSeconds, loadAverage: stlfLoad },
  };
  const written = partial ? writeResults('scale-partial', results, md, process.env.SCALE_OUT ?? tmpdir()) : writeResults('scale', results, md);
  console.log(`\nwritten: ${written}.{json,md}`);
}

function markdown(rows: readonly Verdict[], outcomes: readonly PartOutcome[], stlf: StlfComparison | null, run: { options: Options; seconds: number; partial: boolean; stlfLoad: { before: number; after: number }; stlfSeconds: number }): string {
  const lines = [
    `# Scale with history (${new Date().toISOString()})`,
    '',
    `\`npm run bench -- scale\`${run.partial ? ` (PARTIAL run: ${JSON.stringify(run.options)})` : ''}, issue 20's "Done when". Every ratio is between figures measured in this run. Parts run one after another, each but stlf in a child process of its own (\`node --expose-gc\`), on a shared machine with ${cpus().length} cores: its 1-minute load average is given per part, and timings on it carry the other work's noise. Wall time ${fmt(run.seconds, 0)} s.`,
    '',
    '## Targets',
    '',
    '| measure | figure | ratio | target | verdict |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.measure} | ${r.figure} | ${r.ratio} | ${r.target} | ${r.verdict} |`),
    '',
    `Before this issue (its text): a nowcast on a 10-year site took ${ISSUE_BEFORE.nowcast10yOver1d} times a new site's; upload acknowledgements during training ${ISSUE_BEFORE.usageDuringTrainingMs} ms; dispatch left ${ISSUE_BEFORE.dispatchGrowthMb} MB behind; a load forecast ${ISSUE_BEFORE.engineMs} ms against stlf's ${ISSUE_BEFORE.stlfMs} ms.`,
    '',
    '## Parts',
    '',
    '| part | module | wall s | load average before / after | answer |',
    '|---|---|---|---|---|',
    ...outcomes.map((o) => `| ${o.part} | bench/scale/${PART_MODULES[o.part].file} | ${fmt(o.seconds, 0)} | ${fmt(o.loadAverage.before, 1)} / ${fmt(o.loadAverage.after, 1)} | ${o.notMeasured ? `not measured: ${o.notMeasured}` : `\`${JSON.stringify(o.value)}\``} |`),
    '',
  ];
  if (stlf) {
    lines.push('## Load forecast against R stlf', '');
    lines.push(
      `The engine's \`forecastSeries\` (kind load, ensemble: every member validated on its folds, stacked, conformal intervals) against \`forecast::stlf\` (MSTL with daily and weekly seasonality plus ETS; Bandara, Hyndman & Bergmeir 2021) on the accuracy bench's load sets (bench/accuracy/datasets.ts), history only, ${run.options.stlfOrigins} day-ahead origins per set at local midnights with the same histories for both. Time per forecast: the engine's call in-process after one untimed warm-up call; stlf's fit and forecast timed inside R with proc.time (R's start-up and the package load excluded, one untimed warm-up call). MAPE over the steps where both forecasts exist. Cold: the fold cache (shared/domain/forecasting/validation.ts) emptied before the call, so every member is validated on every fold, as on a site's first request; a day after another: the forecast made the day before (the same number of days of history, one day earlier) run first untimed, so every fold but the newest is answered by the cache (the engine's window starts on a weekly grid, engine.ts windowStart), its forecast compared bit for bit with the cold one; repeated: the same request right after, every fold answered by the cache. Load average ${fmt(run.stlfLoad.before, 1)} before, ${fmt(run.stlfLoad.after, 1)} after; ${fmt(run.stlfSeconds, 0)} s.`,
      '',
    );
    lines.push(...(stlf.rInstalled ? stlfTable(stlf) : ['Not measured: Rscript with the forecast package is not installed (Debian: apt-get install r-cran-forecast).']), '');
  }
  return lines.join('\n');
}
