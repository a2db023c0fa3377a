/** Per-address limits over HTTP: failed authentications per minute, registrations per UTC day. */
import { call, uniqueEmail, useRuntime } from '../helpers/runtime';
import { registerAccount } from '../../shared/services/accounts/accounts';

const FAILURES_PER_MINUTE = 5;
const REGISTRATIONS_PER_DAY = 3;

const runtime = useRuntime({
  env: { AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: String(FAILURES_PER_MINUTE), REGISTRATIONS_PER_ADDRESS_PER_DAY: String(REGISTRATIONS_PER_DAY) },
});

/** Waits for the next window when fewer than `margin` seconds are left of this one, so a burst stays in one window. */
async function clearOfWindowEnd(windowSeconds: number, margin = 8): Promise<void> {
  const left = windowSeconds - ((Date.now() / 1000) % windowSeconds);
  if (left < margin) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

const secondsToWindowEnd = (windowSeconds: number) => windowSeconds - Math.floor(Date.now() / 1000) % windowSeconds;

const unknownKey = (i: number) => `eo_live_guess${String(i).padStart(40, '0')}`;

describe('failed authentications per client address', () => {
  it('answers 429 with Retry-After to failed keys past the limit, while a valid key from the same address keeps working', async () => {
    // Prepare: a valid key minted as an operator would (no address counted), and a window with room for the burst.
    const { api_key: valid } = await registerAccount({ email: uniqueEmail() });
    await clearOfWindowEnd(60);

    // Act: one more unknown key than the limit allows, then a few requests with the valid key and without a key.
    const failed = [];
    for (let i = 0; i <= FAILURES_PER_MINUTE; i++) failed.push(await call(runtime(), 'GET', '/api/usage', { key: unknownKey(i) }));
    const bearerGuess = await call(runtime(), 'GET', '/api/usage', { key: unknownKey(99), bearer: true });
    const terminalGuess = await call(runtime(), 'POST', '/terminal/assets', { key: unknownKey(100), json: { action: 'list' } });
    const spoofedGuess = await call(runtime(), 'GET', '/api/usage', { key: unknownKey(101), headers: { 'x-forwarded-for': '198.51.100.9' } });
    const withValidKey = await call(runtime(), 'GET', '/api/usage', { key: valid });
    const withValidBearer = await call(runtime(), 'GET', '/api/usage', { key: valid, bearer: true });
    const withoutKey = await call(runtime(), 'GET', '/api/usage');

    // Assess
    expect(failed.slice(0, FAILURES_PER_MINUTE).map((r) => [r.status, r.body])).toEqual(
      Array.from({ length: FAILURES_PER_MINUTE }, () => [401, { status: 'error', error: 'Unauthorized' }]),
    );
    const refused = failed[FAILURES_PER_MINUTE];
    expect(refused).toMatchObject({ status: 429, body: { status: 'error', error: 'Too many failed authentications from this address' } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(Math.abs(retryAfter - secondsToWindowEnd(60))).toBeLessThanOrEqual(2);
    expect(bearerGuess.status).toBe(429);
    // The group's error shape: /terminal/* answers in its own envelope.
    expect(terminalGuess).toMatchObject({ status: 429, body: { success: false, message: 'Too many failed authentications from this address' } });
    // The address is the one the gateway saw, not one the client claims.
    expect(spoofedGuess.status).toBe(429);
    expect(withValidKey.status).toBe(200);
    expect(withValidKey.body.tier).toBe('free');
    expect(withValidBearer.status).toBe(200);
    // A missing key was never a guess: still the plain 401.
    expect(withoutKey).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
  });
});

describe('registrations per client address', () => {
  it('refuses registrations past the daily limit with 429 until the next UTC day, counting neither invalid bodies nor operators', async () => {
    // Prepare
    await clearOfWindowEnd(86_400);
    const register = (email: unknown) => call(runtime(), 'POST', '/api/register', { json: { email, organization: 'Abuse tests', use_case: 'tests', tier_preference: 'free' } });
    const invalid = await register('not-an-email');

    // Act
    const accepted = [];
    for (let i = 0; i < REGISTRATIONS_PER_DAY; i++) accepted.push(await register(uniqueEmail()));
    const refused = await register(uniqueEmail());
    const byOperator = await registerAccount({ email: uniqueEmail() });

    // Assess
    expect(invalid.status).toBe(400);
    expect(accepted.map((r) => r.status)).toEqual(Array(REGISTRATIONS_PER_DAY).fill(200));
    expect(accepted.every((r) => typeof r.body.api_key === 'string')).toBe(true);
    const nextUtcDay = new Date((Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000).toISOString();
    expect(refused).toMatchObject({
      status: 429,
      body: { status: 'error', error: `Too many registrations from this address today (at most ${REGISTRATIONS_PER_DAY} a day); try again after ${nextUtcDay}` },
    });
    expect(Math.abs(Number(refused.headers.get('retry-after')) - secondsToWindowEnd(86_400))).toBeLessThanOrEqual(2);
    expect(byOperator.tier).toBe('free');
  });
});
