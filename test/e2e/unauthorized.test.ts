/** SPEC authentication rule 4, ARCHITECTURE 3: every keyed route answers a missing or unknown key with the same 401 body. */
import { ROUTES } from '../../shared/routes';
import { call, useRuntime } from '../helpers/runtime';

// The failed-key limit per address would turn the sweep's guesses into 429s.
const runtime = useRuntime({ edge: true, env: { AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: '100000' } });

const keyed = ROUTES.filter((r) => r.auth === 'key');
const concretePath = (path: string) => path.replace(/\{[^}]+\}/g, 'unauthorized-probe');

describe('401 on every authenticated route', () => {
  it('covers both envelopes of the route table', () => {
    expect(keyed.some((r) => r.group === 'terminal')).toBe(true);
    expect(keyed.some((r) => r.group === 'platform')).toBe(true);
  });

  it.each(keyed.map((r) => [`${r.method} ${r.path}`, r] as const))('%s answers {status: error, error: Unauthorized} without a key and with a bad one', async (_label, route) => {
    // Prepare
    const json = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
    const path = concretePath(route.path);

    // Act
    const missing = await call(runtime(), route.method, path, { json });
    const bad = await call(runtime(), route.method, path, { json, key: 'bad' });
    const badBearer = await call(runtime(), route.method, path, { json, key: 'eo_live_unknown', bearer: true });

    // Assess: exactly the spec's body, on terminal routes too.
    for (const answer of [missing, bad, badBearer]) {
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: { status: 'error', error: 'Unauthorized' } });
    }
  });
});
