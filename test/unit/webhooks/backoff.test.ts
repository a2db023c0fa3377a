import { retryDelaySeconds, retrySchedule, withJitter, type RetryPolicy } from '../../../shared/domain/webhooks/backoff';

const policy: RetryPolicy = { maxAttempts: 8, baseDelaySeconds: 5, maxDelaySeconds: 900 };

describe('retry backoff', () => {
  it('doubles the delay after each failed attempt, from the base', () => {
    expect(retrySchedule(policy)).toEqual([5, 10, 20, 40, 80, 160, 320]);
    expect(retryDelaySeconds(1, policy)).toBe(5);
    expect(retryDelaySeconds(3, policy)).toBe(20);
  });

  it('gives no delay after the last attempt: the delivery is parked then', () => {
    expect(retryDelaySeconds(8, policy)).toBeUndefined();
    expect(retryDelaySeconds(9, policy)).toBeUndefined();
    expect(retrySchedule({ ...policy, maxAttempts: 1 })).toEqual([]);
  });

  it('caps each delay at the maximum (SQS allows 900 s)', () => {
    expect(retrySchedule({ ...policy, maxAttempts: 12 })).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 900, 900, 900]);
  });

  it('retries at once with a zero base (tests)', () => {
    expect(retrySchedule({ ...policy, baseDelaySeconds: 0, maxAttempts: 3 })).toEqual([0, 0]);
  });

  it('refuses an attempt number that is not a positive integer', () => {
    expect(() => retryDelaySeconds(0, policy)).toThrow(RangeError);
    expect(() => retryDelaySeconds(1.5, policy)).toThrow(RangeError);
  });

  it('spreads each wait over the upper half of its ceiling (equal jitter)', () => {
    expect(withJitter(320, () => 0)).toBe(160);
    expect(withJitter(320, () => 1)).toBe(320);
    expect(withJitter(320, () => 0.5)).toBe(240);
    expect(withJitter(0, () => 0.7)).toBe(0);
  });
});
