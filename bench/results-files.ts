/** Where every bench writes its figures: bench/results/<name>.{json,md}, the files the README and the issues quote. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const RESULTS_DIR = path.join('bench', 'results');

/**
 * Writes `<dir>/<base>.json` (the results, indented) and `<dir>/<base>.md` (ending in one newline), and prints
 * the markdown. Partial runs pass another `dir`, so that bench/results holds full runs only.
 * @returns both files' path without the extension
 */
export function writeResults(base: string, results: unknown, md: string, dir = RESULTS_DIR): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${base}.json`), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(path.join(dir, `${base}.md`), md.endsWith('\n') ? md : md + '\n');
  console.log(md);
  return path.join(dir, base);
}
