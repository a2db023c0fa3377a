import { meetsTier, routeById } from '../../shared/routes';

describe('minimum tiers of the route rows', () => {
  it('lets a tier through at or above the row minimum, and nobody without a tier', () => {
    expect(meetsTier('free', undefined)).toBe(true);
    expect(meetsTier(undefined, undefined)).toBe(true);
    expect(meetsTier('free', 'professional')).toBe(false);
    expect(meetsTier('professional', 'professional')).toBe(true);
    expect(meetsTier('enterprise', 'professional')).toBe(true);
    expect(meetsTier('professional', 'enterprise')).toBe(false);
    expect(meetsTier(undefined, 'professional')).toBe(false);
  });

  it('opens the registry steering to professional and keeps system status enterprise-only', () => {
    expect(routeById('model-promote')).toMatchObject({ method: 'POST', path: '/api/models/{model_id}/promote', tier: 'professional', handler: 'change-model-status' });
    expect(routeById('model-rollback')).toMatchObject({ method: 'POST', path: '/api/models/{model_id}/rollback', tier: 'professional', handler: 'change-model-status' });
    expect(routeById('system-status').tier).toBe('enterprise');
  });
});
