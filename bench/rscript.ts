/**
 * R forecasting scripts as bench peers (bench only, never CI): one Rscript process per data set, fed through
 * temporary files, so R's start-up and package load are paid once. Needs `Rscript` with the forecast package
 * (Debian: `apt-get install r-cran-forecast`); callers skip R where `rAvailable()` says no.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stepsPerDay, type RegularSeries } from '../shared/domain/forecasting/types';

/** Whether Rscript with the forecast package is usable here. */
export function rAvailable(): boolean {
  const probe = spawnSync('Rscript', ['-e', 'suppressMessages(library(forecast))'], { stdio: 'ignore' });
  return probe.status === 0;
}

/** The lines R wrote, one per history (null where it wrote no output), and what went wrong, if anything. */
export interface RscriptAnswer {
  lines: string[] | null;
  error?: string;
}

/**
 * Runs `script` as `Rscript script <input> <output> <steps per day> <steps per week> <horizon steps>`: the input
 * holds one history a line, its values comma-separated (`NA` where missing), each line passed through `row`
 * (given the values and the history's index) first; the script writes one line per history to the output.
 * Every history has the first one's step.
 */
export function runRscript(
  script: string,
  histories: readonly RegularSeries[],
  horizonSteps: number,
  row: (values: string, k: number) => string = (values) => values,
): Promise<RscriptAnswer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-r-'));
  const input = path.join(dir, 'histories.csv');
  const output = path.join(dir, 'forecasts.csv');
  const scriptFile = path.join(dir, 'script.R');
  writeFileSync(scriptFile, script);
  writeFileSync(input, histories.map((h, k) => row(h.y.map((v) => (Number.isFinite(v) ? String(v) : 'NA')).join(','), k)).join('\n') + '\n');
  const daily = stepsPerDay(histories[0].stepMinutes);
  return new Promise((resolve) => {
    const child = spawn('Rscript', [scriptFile, input, output, String(daily), String(7 * daily), String(horizonSteps)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on('close', (code) => {
      let answer: RscriptAnswer;
      try {
        const lines = readFileSync(output, 'utf8').trim().split('\n');
        answer = lines.length === histories.length ? { lines } : { lines, error: `R answered ${lines.length} of ${histories.length} origins (exit ${code}): ${stderr}` };
      } catch (error) {
        answer = { lines: null, error: `R failed (exit ${code}): ${stderr || String(error)}` };
      }
      rmSync(dir, { recursive: true, force: true });
      resolve(answer);
    });
  });
}
