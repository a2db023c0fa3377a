/**
 * `npm run bench -- accuracy`: rolling-origin evaluation of the forecasting engine on every forecasting data
 * set of ../shared/data (issue #18, deliverable 1): at each origin the engine's own choice, every applicable
 * member alone and the classical peers (the simple ones are engine members; R's stlf and dshw for load),
 * scored by each kind's metric with paired bootstrap 95% intervals over origins, plus the gap-filling figures
 * of ./gaps.ts. Sets are TUNE or REPORT by the lead's fixed split (see datasets.ts and the closing note).
 * Writes bench/results/accuracy.{json,md} after a complete run; a partial run (kind or set filter, quick mode)
 * prints its tables and writes its JSON and markdown to $ACCURACY_OUT (default the system's temporary folder).
 *
 * Environment:
 *   ACCURACY_KINDS=load,solar,wind,price,gaps   the kinds to run (default all)
 *   ACCURACY_SETS=taylor,wf1                    only sets whose name contains one of these
 *   ACCURACY_QUICK=1 (or -- --quick)            few origins per set (8 days; 24 wind origins), for iterating
 *   ACCURACY_FULL=1 (or -- --full)              every candidate day (NP's test period: all 728), dshw everywhere
 *   ACCURACY_ORIGINS=load=14,price=28           origins per set by kind, instead of the mode's (solar: PVOD twice)
 *   ACCURACY_NP_EVERY_DAY=0                     Nord Pool 2017-18 with fundamentals on `price` origins like the other
 *                                               price sets, not on every day of its test period (the default but in quick mode)
 *   ACCURACY_WORKERS=2                          child processes evaluating sets in parallel
 *   ACCURACY_R=0                                skip the R peers even where Rscript is installed
 *   ACCURACY_DSHW=some|all|none                 dshw (a minute per origin) on every 4th origin of Taylor and the
 *                                               GEFCom total (default; `all` with ACCURACY_FULL), everywhere, or not
 *   ACCURACY_RESAMPLES=1000                     bootstrap resamples
 */
import { fork, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { writeResults } from '../results-files';
import { rAvailable } from '../rscript';
import { ACCURACY_KINDS, accuracySets, DEFAULT_ORIGINS, FULL_ORIGINS, QUICK_ORIGINS, type AccuracyKind, type AccuracySet, type OriginCounts } from './datasets';
import { COVERAGE, originRequest, type SetRun } from './evaluate';
import { benchAccuracyGaps } from './gaps';
import { runRPeers, type RPeerForecasts } from './r-peers';
import { markdown } from './report';
import { scoreSet, type SetScore } from './scores';
import { checkSet, loadAverageCheck, TARGETS } from './targets';
import type { WorkerAnswer, WorkerJob } from './worker';

interface Options {
  kinds: AccuracyKind[];
  gaps: boolean;
  sets: string[];
  quick: boolean;
  full: boolean;
  workers: number;
  r: boolean;
  dshw: 'some' | 'all' | 'none';
  resamples: number;
  /** Origins per set by kind, over the mode's. */
  origins: Partial<OriginCounts>;
}

function readOptions(env = process.env): Options {
  const asked = (env.ACCURACY_KINDS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const full = env.ACCURACY_FULL === '1' || process.argv.includes('--full');
  return {
    kinds: ACCURACY_KINDS.filter((k) => !asked.length || asked.includes(k)),
    gaps: !asked.length || asked.includes('gaps'),
    sets: (env.ACCURACY_SETS ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean),
    quick: env.ACCURACY_QUICK === '1' || process.argv.includes('--quick'),
    full,
    workers: Math.max(1, Number(env.ACCURACY_WORKERS ?? 2)),
    r: env.ACCURACY_R !== '0',
    dshw: (env.ACCURACY_DSHW as Options['dshw'] | undefined) ?? (full ? 'all' : 'some'),
    resamples: Number(env.ACCURACY_RESAMPLES ?? 1000),
    origins: {
      ...Object.fromEntries(
        (env.ACCURACY_ORIGINS ?? '')
          .split(',')
          .map((pair) => pair.split('=').map((s) => s.trim()))
          .filter(([kind, count]) => (ACCURACY_KINDS as readonly string[]).includes(kind) && Number(count) > 0)
          .map(([kind, count]) => [kind, Number(count)]),
      ),
      ...(env.ACCURACY_NP_EVERY_DAY === '0' ? { nordPoolTestEveryDay: false } : {}),
    },
  };
}

/** dshw's origins: every 4th of Taylor's and the GEFCom total's by default (a minute each), all when asked. */
function dshwOrigins(set: AccuracySet, mode: Options['dshw']): boolean[] {
  const main = set.name.startsWith('taylor') || set.name.endsWith('load_total_kw');
  return set.origins.map((_, k) => mode === 'all' || (mode === 'some' && main && k % 4 === 0));
}

/** Runs the sets on `workers` child processes, each set whole on one of them. */
function runOnWorkers(jobs: readonly WorkerJob[], workers: number): Promise<WorkerAnswer[]> {
  const answers: WorkerAnswer[] = [];
  const queue = [...jobs];
  const children: ChildProcess[] = [];
  return new Promise((resolve, reject) => {
    const next = (child: ChildProcess) => {
      const job = queue.shift();
      if (job) child.send(job);
      else child.kill();
    };
    for (let w = 0; w < Math.min(workers, jobs.length); w++) {
      const child = fork(new URL('./worker.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], serialization: 'advanced' });
      children.push(child);
      child.on('message', (answer: WorkerAnswer) => {
        answers.push(answer);
        if (answers.length === jobs.length) resolve(answers);
        next(child);
      });
      child.on('exit', (code) => {
        if (code && answers.length < jobs.length) {
          children.forEach((c) => c.kill());
          reject(new Error(`an accuracy worker exited with code ${code}`));
        }
      });
      next(child);
    }
    if (jobs.length === 0) resolve(answers);
  });
}

export async function benchAccuracy(): Promise<void> {
  const options = readOptions();
  const started = performance.now();
  const counts: OriginCounts = { ...(options.full ? FULL_ORIGINS : options.quick ? QUICK_ORIGINS : DEFAULT_ORIGINS), ...options.origins };
  const all = accuracySets(options.kinds, counts, options.full);
  const chosen = all.map((set, index) => ({ set, index })).filter(({ set }) => !options.sets.length || options.sets.some((f) => `${set.name} ${set.variant}`.toLowerCase().includes(f)));
  const partial = options.quick || options.sets.length > 0 || options.kinds.length < ACCURACY_KINDS.length || !options.gaps;

  const withR = options.r && chosen.some(({ set }) => set.rPeers) && rAvailable();
  // R runs beside the workers, one set at a time.
  let rChain: Promise<unknown> = Promise.resolve();
  const rRuns = new Map<number, Promise<RPeerForecasts>>();
  if (withR) {
    for (const { set, index } of chosen.filter(({ set }) => set.rPeers)) {
      const histories = set.origins.map((o) => originRequest(set, o).history);
      const run = rChain.then(() => runRPeers(histories, set.horizonSteps, dshwOrigins(set, options.dshw)));
      rChain = run;
      rRuns.set(index, run);
    }
  }

  console.log(`accuracy: ${chosen.length} sets on ${options.workers} workers${withR ? ', R peers beside them' : ', no R peers'}`);
  const answers = await runOnWorkers(
    chosen.map(({ index }) => ({ kinds: options.kinds, counts, full: options.full, index })),
    options.workers,
  );
  const byIndex = new Map(answers.map((a) => [a.index, a]));
  const secondsByKind: Record<string, number> = {};
  const scores: SetScore[] = [];
  const rErrors: string[] = [];
  for (const { set, index } of chosen) {
    const answer = byIndex.get(index)!;
    secondsByKind[set.kind] = (secondsByKind[set.kind] ?? 0) + answer.ms / 1000;
    const r = rRuns.has(index) ? await rRuns.get(index)! : undefined;
    if (r?.error) rErrors.push(`${set.name}: ${r.error}`);
    const run: SetRun = { ...answer.run, histories: [], ms: { ...answer.run.ms, ...(r?.ms ?? {}) } };
    scores.push(scoreSet(set, run, r?.forecasts ?? {}, { resamples: options.resamples }));
  }

  let gaps: { figures: unknown; markdown: string } | null = null;
  if (options.gaps) {
    const gapsStarted = performance.now();
    gaps = await benchAccuracyGaps();
    secondsByKind.gaps = (performance.now() - gapsStarted) / 1000;
  }
  const seconds = (performance.now() - started) / 1000;

  const setsSummary = (kind: AccuracyKind) => {
    const names = [...new Set(chosen.filter(({ set }) => set.kind === kind).map(({ set }) => `${set.name} (${set.role})`))];
    return names.join(', ');
  };
  const header = [
    `# Forecast accuracy on every data set (${new Date().toISOString()})`,
    '',
    `\`npm run bench -- accuracy\`${process.env.ACCURACY_ORIGINS ? ` with ACCURACY_ORIGINS=${process.env.ACCURACY_ORIGINS}` : ''}${options.kinds.includes('price') && counts.nordPoolTestEveryDay ? ' (Nord Pool 2017-18 with fundamentals: every day of its test period)' : ''}${partial ? ' (PARTIAL run: ' + JSON.stringify({ kinds: options.kinds, sets: options.sets, quick: options.quick, gaps: options.gaps }) + ')' : ''}${options.full ? ', full mode' : ''}. Rolling origins spread over each set's span; at each origin the history a user would send (load and wind 56 days, solar 90, prices up to 4 years), the engine's choice (\`ensemble\`, with its ${COVERAGE * 100}% intervals) and every member alone through \`forecastSeries\`. Ratios are paired over the same origins and steps, with percentile 95% intervals from ${options.resamples} bootstrap resamples of the origins (seed 18).`,
    '',
    `Wall time ${seconds.toFixed(0)} s on ${options.workers} workers; per kind (sum of set times): ${Object.entries(secondsByKind).map(([k, s]) => `${k} ${s.toFixed(0)} s`).join(', ')}.${withR ? ' R peers ran beside the engine (stlf on every load origin; dshw on ' + (options.dshw === 'all' ? 'every one' : options.dshw === 'some' ? "every 4th of Taylor's and the GEFCom total's" : 'none') + ').' : ' R peers: not run (Rscript with the forecast package absent, or ACCURACY_R=0).'}`,
    ...(rErrors.length ? ['', `R errors: ${rErrors.join('; ')}`] : []),
    '',
    '## Tune / report split',
    '',
    ...options.kinds.map((k) => `- ${k}: ${setsSummary(k)}`),
    '- Gap filling: TUNE SERF East; REPORT PVOD station01, La Haute Borne R80736, Taylor load (./gaps.ts).',
    '',
  ];
  const md = markdown(scores, header, options.kinds, gaps?.markdown ?? null);
  const checks = scores.map((s) => ({ set: s.name, role: s.role, variant: s.variant, checks: checkSet(s) }));
  const results = {
    measured_at: new Date().toISOString(),
    partial,
    options,
    seconds: { total: Math.round(seconds), by_kind: Object.fromEntries(Object.entries(secondsByKind).map(([k, s]) => [k, Math.round(s)])) },
    targets: TARGETS,
    r_peers: withR ? { stlf: 'forecast::stlf(msts(y, c(day, week)), h)', dshw: `forecast::dshw(y, day, week, h), origins: ${options.dshw}`, errors: rErrors } : 'not run',
    checks,
    load_average: loadAverageCheck(scores),
    sets: scores,
    gaps: gaps?.figures ?? null,
  };
  const written = partial ? writeResults(`accuracy-partial-${options.kinds.join('-')}`, results, md, process.env.ACCURACY_OUT ?? tmpdir()) : writeResults('accuracy', results, md);
  console.log(`\nwritten: ${written}.{json,md}`);
}
