/** No import runs upward (issue 22): the HTTP layer and the use cases never import each other, and shared/ never imports its callers. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const IMPORT = /(?:from\s+|import\s*\(\s*|require\(\s*)['"`](\.{1,2}\/[^'"`$]*)/g;

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(tsx?|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : [],
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

  it('the console client reaches the service only over HTTP: it imports its own files and pure domain code', () => {
    const outside = importsOf('console/src').filter((i) => !into('console/src')(i) && !into('shared/domain')(i));
    expect(outside).toEqual([]);
    expect(importsOf('console/src').filter(into('shared/domain')).length).toBeGreaterThan(0);
  });

  it('the check sees imports at all (a typo in a folder name would pass the rest)', () => {
    expect(importsOf('shared/services').filter(into('shared/store')).length).toBeGreaterThan(10);
    expect(importsOf('local').filter(into('functions')).length).toBeGreaterThan(0);
  });

  it('gives no two folders under shared/ the same name at different depths', () => {
    // services/<capability> beside domain/<capability> is the intended parallel (same depth); shared/weather
    // beside shared/domain/weather was not.
    const depths = new Map<string, Set<number>>();
    const walk = (dir: string, depth: number): void => {
      for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        if (!e.isDirectory()) continue;
        depths.set(e.name, (depths.get(e.name) ?? new Set()).add(depth));
        walk(path.join(dir, e.name), depth + 1);
      }
    };
    walk('shared', 1);
    expect([...depths].filter(([, d]) => d.size > 1).map(([name]) => name)).toEqual([]);
  });

  it('gives no two exported types under shared/ the same name', () => {
    const declared = new Map<string, string[]>();
    for (const file of sources('shared')) {
      for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(/^export (?:interface|type|class|enum) (\w+)/gm)) declared.set(m[1], [...(declared.get(m[1]) ?? []), file]);
    }
    expect([...declared].filter(([, files]) => files.length > 1)).toEqual([]);
  });
});
