/**
 * `npm run bench -- console`: the web console's first-load weight and chart render time (issue #23).
 * - Size: the production build (console/build.ts), each file raw and gzip-compressed; the target is under 250 KB
 *   of compressed script on first load.
 * - Render: in Debian's Chromium, the console's Chart draws a year of 15-minute data (35,040 points, with a band
 *   and markers) until the next frame; the baseline is the same points stroked as one plain canvas path in the same
 *   page. Median of 7 after a first (cold) draw; the target is under 300 ms.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { consoleFiles } from '../console/build';
import { launchBrowser } from '../test/helpers/browser';
import { writeResults } from './results-files';

const RUNS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

async function harness(): Promise<string> {
  const result = await build({ entryPoints: { bench: new URL('./console-render.tsx', import.meta.url).pathname }, bundle: true, minify: true, format: 'esm', jsx: 'automatic', jsxImportSource: 'preact', outdir: '/b', write: false, logLevel: 'silent' });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '';
  return `<!doctype html><html><head><style>${css}</style></head><body><div id="host" style="width:1200px"></div><script type="module">${js}</script></body></html>`;
}

export async function benchConsole(): Promise<void> {
  const files = await consoleFiles();
  const sizes = files.map((f) => ({ file: f.name, bytes: f.body.length, gzip_bytes: gzipSync(f.body, { level: 9 }).length }));
  const scriptGzip = sizes.filter((s) => s.file.endsWith('.js')).reduce((sum, s) => sum + s.gzip_bytes, 0);

  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.setContent(await harness());
  await page.waitForFunction('"benchChart" in window');
  type BenchWindow = { benchChart: () => Promise<number>; benchBaseline: () => Promise<number>; benchPoints: number };
  const cold = await page.evaluate(() => (globalThis as unknown as BenchWindow).benchChart());
  const chart: number[] = [];
  const baseline: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    chart.push(await page.evaluate(() => (globalThis as unknown as BenchWindow).benchChart()));
    baseline.push(await page.evaluate(() => (globalThis as unknown as BenchWindow).benchBaseline()));
  }
  const points = await page.evaluate(() => (globalThis as unknown as BenchWindow).benchPoints);
  await browser.close();

  const results = {
    sizes,
    first_load_script_gzip_bytes: scriptGzip,
    script_target_bytes: 250 * 1024,
    render: { points, cold_ms: round(cold), median_ms: round(median(chart)), runs_ms: chart.map((x) => round(x)), baseline_median_ms: round(median(baseline)), ratio_to_baseline: round(median(chart) / median(baseline), 2), target_ms: 300 },
  };
  const md = [
    `# Web console (${new Date().toISOString()})`,
    '',
    '`npm run bench -- console`: the production build, and a year of 15-minute data drawn by the console\'s Chart in Chromium.',
    '',
    '| file | bytes | gzip bytes |',
    '|---|---|---|',
    ...sizes.map((s) => `| ${s.file} | ${s.bytes.toLocaleString('en')} | ${s.gzip_bytes.toLocaleString('en')} |`),
    '',
    `First load: ${(scriptGzip / 1024).toFixed(1)} KB of compressed script (target under 250 KB): ${scriptGzip < 250 * 1024 ? 'met' : '**not met**'}.`,
    '',
    `Render of ${points.toLocaleString('en')} points with a band and markers, to the next frame: cold ${round(cold)} ms, median ${round(median(chart))} ms over ${RUNS} (target under 300 ms: ${median(chart) < 300 && cold < 300 ? 'met' : '**not met**'}); the same points as one plain canvas path: ${round(median(baseline))} ms (ratio ${results.render.ratio_to_baseline}).`,
  ].join('\n');
  writeResults('console', results, md);
}
