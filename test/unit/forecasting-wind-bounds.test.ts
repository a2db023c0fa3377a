import { clampPower, finiteQuantile, ratedPower } from '../../shared/domain/forecasting/wind-bounds';

describe('wind power bounds', () => {
  it('reads quantiles between order statistics and skips missing values', () => {
    expect(finiteQuantile([3, NaN, 1, 2, 4], 0.5)).toBe(2.5);
    expect(finiteQuantile([3, 1, 2], 1)).toBe(3);
    expect(finiteQuantile([NaN], 0.5)).toBeNaN();
  });

  it("takes the caller's rated power when given", () => {
    expect(ratedPower([0, 100, 200], { kind: 'wind', options: { ratedPowerKw: 2050 } })).toBe(2050);
  });

  it('estimates rated power from the history, unmoved by a few logger spikes', () => {
    // 8,064 readings up to 2,000 kW (a tenth at rated) and five spikes at 20,000 kW.
    const y = Array.from({ length: 8064 }, (_, i) => (i % 10 === 0 ? 2000 : (i % 97) * 15));
    for (let i = 0; i < 5; i++) y[1000 * i + 3] = 20_000;

    expect(ratedPower(y, { kind: 'wind' })).toBe(2000);
  });

  it("takes a power curve's plateau when a calm history never reached it", () => {
    const calm = Array.from({ length: 1000 }, (_, i) => i % 800);

    expect(ratedPower(calm, { kind: 'wind' }, 2050)).toBe(2050);
    expect(ratedPower(calm, { kind: 'wind' })).toBeCloseTo(finiteQuantile(calm, 0.999), 9);
  });

  it('has no upper bound for a history without output', () => {
    expect(ratedPower([0, 0, NaN], { kind: 'wind' })).toBe(Infinity);
  });

  it('clips a forecast to [0, rated]', () => {
    expect([clampPower(-5, 100), clampPower(50, 100), clampPower(150, 100)]).toEqual([0, 50, 100]);
  });
});
