import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROUTES, handlerModules, matchRoute, routeKey } from '../../shared/routes';

describe('route table', () => {
  it('has unique ids and unique method-path pairs', () => {
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map(routeKey)).size).toBe(ROUTES.length);
  });

  it('names a handler module that exists for every row', () => {
    for (const name of handlerModules()) expect(existsSync(path.join('functions', `${name}.ts`))).toBe(true);
  });

  it('puts every /terminal path in the terminal envelope group', () => {
    for (const r of ROUTES) expect(r.group === 'terminal').toBe(r.path.startsWith('/terminal/'));
  });
});

describe('matchRoute', () => {
  it('matches a path parameter and decodes it', () => {
    const m = matchRoute('GET', '/api/training-status/job%201');
    expect(m.route?.id).toBe('training-status');
    expect('pathParameters' in m && m.pathParameters).toEqual({ job_id: 'job 1' });
  });

  it('tells a wrong method from an unknown path', () => {
    expect(matchRoute('DELETE', '/api/usage')).toEqual({ route: undefined, pathExists: true });
    expect(matchRoute('GET', '/nowhere')).toEqual({ route: undefined, pathExists: false });
  });

  it('does not match an empty path parameter', () => {
    expect(matchRoute('GET', '/api/training-status/').route).toBeUndefined();
  });
});
