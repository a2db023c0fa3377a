/**
 * The web console's build: esbuild bundles the Preact client (src/main.tsx) with uPlot into one minified script
 * and one stylesheet beside the page. The local runtime and the edge node build it in memory on first request
 * (`consoleFiles`); CDK writes it to a folder that is deployed to S3 (`writeConsoleSync`). Nothing is fetched
 * from a CDN: the page loads only these three files and the API on the same origin.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, buildSync, type BuildOptions, type OutputFile } from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface ConsoleFile {
  /** Name under /console/. */
  name: string;
  contentType: string;
  body: Buffer;
}

/**
 * The page's Content-Security-Policy, sent by the local runtime and by CloudFront's response headers policy:
 * scripts, styles and data only from the console's own origin (uPlot sets inline styles on its canvas).
 */
export const CONSOLE_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** The security headers of every console file. */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

const OPTIONS: BuildOptions = {
  entryPoints: { app: path.join(HERE, 'src/main.tsx') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome120', 'firefox120', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: '/console',
  write: false,
  legalComments: 'none',
  logLevel: 'silent',
  define: { 'process.env.NODE_ENV': '"production"' },
};

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

function collect(outputs: readonly OutputFile[]): ConsoleFile[] {
  const files = outputs.map((o) => ({ name: path.basename(o.path), contentType: CONTENT_TYPES[path.extname(o.path)], body: Buffer.from(o.contents) }));
  const page = readFileSync(path.join(HERE, 'index.html'));
  return [{ name: 'index.html', contentType: CONTENT_TYPES['.html'], body: page }, ...files];
}

let built: Promise<ConsoleFile[]> | undefined;

/** The console's files, built once per process. */
export function consoleFiles(): Promise<ConsoleFile[]> {
  built ??= build(OPTIONS).then((result) => collect(result.outputFiles ?? []));
  built.catch(() => (built = undefined));
  return built;
}

/** Builds the console into `outDir` (CDK's asset folder); returns the file names written. */
export function writeConsoleSync(outDir: string): string[] {
  const files = collect(buildSync(OPTIONS).outputFiles ?? []);
  mkdirSync(outDir, { recursive: true });
  for (const file of files) writeFileSync(path.join(outDir, file.name), file.body);
  return files.map((f) => f.name);
}
