/** No import runs upward (issue 22): the HTTP layer and the use cases never import each other, and shared/ never imports its callers. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const IMPORT = /(?:from\s+|import\s*\(\s*|require\(\s*)['"`](\.{1,2}\/[^'"`$]*)/g;

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** Each relative import of the files under `dir`, as a path from the repository root. */
function importsOf(dir: string): { file: string; target: string }[] {
  return sources(dir).flatMap((file) =>
    [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(IMPORT)].map((m) => ({ file, target: path.normalize(path.join(path.dirname(file), m[1])) })),
  );
}

const into = (folder: string) => ({ target }: { target: string }) => target === folder || target.startsWith(`${folder}${path.sep}`);

describe('layering', () => {
  it('shared/http imports no service', () => {
    expect(importsOf('shared/http').filter(into('shared/services'))).toEqual([]);
  });

  it('services import nothing from shared/http', () => {
    expect(importsOf('shared/services').filter(into('shared/http'))).toEqual([]);
  });

  it('nothing under shared/ imports functions/ or the local runtime', () => {
    const upward = importsOf('shared').filter((i) => into('functions')(i) || into('local')(i));
    expect(upward).toEqual([]);
  });

  it('the check sees imports at all (a typo in a folder name would pass the rest)', () => {
    expect(importsOf('shared/services').filter(into('shared/store')).length).toBeGreaterThan(10);
    expect(importsOf('local').filter(into('functions')).length).toBeGreaterThan(0);
  });
});
