import { generateApiKey, hashApiKey, keyHint } from '../../shared/domain/accounts/api-key';
import { presentedKey } from '../../shared/access/authentication';

describe('API keys', () => {
  it('carries a readable prefix and at least 32 random bytes in base64url', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^eo_live_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(key);
  });

  it('is stored as a SHA-256 hash that never contains the key', () => {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hash);
    expect(hash).not.toContain(key.slice(8));
  });

  it('shows only the prefix and four characters as a hint', () => {
    const key = generateApiKey();
    expect(keyHint(key)).toBe(`${key.slice(0, 12)}…`);
  });
});

describe('presented key', () => {
  it('reads x-api-key', () => {
    expect(presentedKey({ 'x-api-key': 'k1' })).toBe('k1');
  });

  it('reads Authorization: Bearer, in any case of the scheme', () => {
    expect(presentedKey({ authorization: 'Bearer k2' })).toBe('k2');
    expect(presentedKey({ authorization: 'bearer k2' })).toBe('k2');
  });

  it('rejects other schemes and an empty bearer', () => {
    expect(presentedKey({ authorization: 'Basic Y29uZjpjb25m' })).toBeUndefined();
    expect(presentedKey({ authorization: 'Bearer ' })).toBeUndefined();
    expect(presentedKey({ authorization: 'Token abc' })).toBeUndefined();
    expect(presentedKey({})).toBeUndefined();
  });

  it('prefers x-api-key when both are sent', () => {
    expect(presentedKey({ 'x-api-key': 'a', authorization: 'Bearer b' })).toBe('a');
  });
});
