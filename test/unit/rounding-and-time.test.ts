/** The shared helpers that replaced the modules' own: roundHalfUp (their rounding rule, unchanged) and the time constants. */
import { round, roundHalfUp, roundHalfUpOrNull } from '../../shared/domain/rounding';
import { DAY_MS, HOUR_MS, MINUTE_MS, WEEK_MS, iso } from '../../shared/domain/time';
import * as forecastingTypes from '../../shared/domain/forecasting/types';
import { mulberry32 } from '../../shared/domain/seeded-random';

describe('roundHalfUp', () => {
  it.each([
    [2.5, 0, 3],
    [-2.5, 0, -2],
    [1.005, 2, 1],
    [0.00015, 4, 0.0001],
    [-0.0004, 3, 0],
    [123.4567, 6, 123.4567],
  ])('rounds %p to %p places as %p, ties toward +infinity as Math.round', (x, decimals, expected) => {
    expect(Object.is(roundHalfUp(x, decimals), expected)).toBe(true);
  });

  it('differs from round only where the issue says: negative ties and binary near-ties', () => {
    expect([round(-2.5, 0), roundHalfUp(-2.5, 0)]).toEqual([-3, -2]);
    expect([round(1.005, 2), roundHalfUp(1.005, 2)]).toEqual([1.01, 1]);
  });

  it('gives the figure the modules computed by hand, for any finite value and precision', () => {
    // Prepare: the expression every replaced helper used (Math.round(x * 10 ** d) / 10 ** d), -0 read as 0.
    const random = mulberry32(22);
    const byHand = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d + 0;
    const differing: [number, number][] = [];
    for (let i = 0; i < 20_000; i++) {
      const d = i % 10;
      // Values with few decimals too, where ties are common.
      const x = i % 2 ? (random() - 0.5) * 10 ** ((i % 7) - 2) : Math.round((random() - 0.5) * 1e5) / 10 ** (i % 6);
      // Act / Assess
      if (!Object.is(roundHalfUp(x, d), byHand(x, d))) differing.push([x, d]);
    }
    expect(differing).toEqual([]);
  });

  it('passes a non-finite value through, or gives the fallback the call site names', () => {
    expect(roundHalfUp(Number.POSITIVE_INFINITY, 3)).toBe(Number.POSITIVE_INFINITY);
    expect(roundHalfUp(Number.NaN, 3)).toBeNaN();
    expect(roundHalfUp(Number.NaN, 3, 0)).toBe(0);
    expect(roundHalfUp(Number.NEGATIVE_INFINITY, 3, null)).toBeNull();
    expect(roundHalfUp(Number.POSITIVE_INFINITY, 3, Number.NaN)).toBeNaN();
    expect(roundHalfUp(1.23456, 3, null)).toBe(1.235);
  });

  it('turns -0 into 0 and passes null through in the OrNull form', () => {
    expect(Object.is(roundHalfUp(-0.0001, 2), 0)).toBe(true);
    expect(roundHalfUpOrNull(null, 2)).toBeNull();
    expect(roundHalfUpOrNull(-1.25, 1)).toBe(-1.2);
  });
});

describe('time', () => {
  it('defines each duration from the one before', () => {
    expect([MINUTE_MS, HOUR_MS / MINUTE_MS, DAY_MS / HOUR_MS, WEEK_MS / DAY_MS]).toEqual([60_000, 60, 24, 7]);
  });

  it('is re-exported by forecasting/types', () => {
    expect([forecastingTypes.HOUR_MS, forecastingTypes.DAY_MS]).toEqual([HOUR_MS, DAY_MS]);
  });

  it('writes an instant as Date#toISOString does, and refuses a non-finite one', () => {
    expect(iso(Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toBe('2026-01-02T03:04:05.006Z');
    expect(() => iso(Number.NaN)).toThrow(RangeError);
  });
});
