import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTES } from '../../shared/routes';
import { ROUTE_TESTS } from '../e2e/route-tests';

const ROOT = path.join(__dirname, '../..');

describe('every route has an end-to-end test, findable from its id (test/e2e/route-tests.ts)', () => {
  it('lists every route of the table, and nothing else', () => {
    expect(Object.keys(ROUTE_TESTS).sort()).toEqual(ROUTES.map((r) => r.id).sort());
  });

  it.each(Object.entries(ROUTE_TESTS))('%s: each listed file calls the route', (_id, tests) => {
    expect(tests.length).toBeGreaterThan(0);
    for (const [file, call] of tests) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      expect({ file, calls: text.includes(call) }).toEqual({ file, calls: true });
    }
  });
});
