/**
 * A child process of the accuracy bench: it builds the data sets as the parent did and runs the sets it is
 * sent, one at a time, so two cores evaluate two sets at once.
 */
import { accuracySets, type AccuracyKind, type AccuracySet, type OriginCounts } from './datasets';
import { runSet, type SetRun } from './evaluate';

export interface WorkerJob {
  kinds: AccuracyKind[];
  counts: OriginCounts;
  full: boolean;
  /** Index into accuracySets(kinds, counts, full). */
  index: number;
}

export interface WorkerAnswer {
  index: number;
  run: Omit<SetRun, 'histories'>;
  ms: number;
}

let sets: AccuracySet[] | null = null;

process.on('message', (job: WorkerJob) => {
  sets ??= accuracySets(job.kinds, job.counts, job.full);
  const set = sets[job.index];
  const started = performance.now();
  const { histories: _histories, ...run } = runSet(set);
  const answer: WorkerAnswer = { index: job.index, run, ms: performance.now() - started };
  console.log(`  ${set.kind} ${set.name} (${set.role}, ${set.variant}): ${set.origins.length} origins in ${(answer.ms / 1000).toFixed(0)} s`);
  process.send!(answer);
});
