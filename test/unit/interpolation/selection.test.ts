import { beatsLinear, combine, mseOf, selectOn, trialOf } from '../../../shared/domain/interpolation/selection';
import { mulberry32 } from '../../helpers/seeded-random';

const random = mulberry32(21);
const methods = ['linear', 'a', 'b'] as const;
/** Runs of 6 values; method `a` errs by half linear's error plus noise of its own; `b` sometimes fails (null). */
const trials = Array.from({ length: 40 }, (_, r) => {
  const truth = Array.from({ length: 6 }, () => 10 * random());
  const linear = truth.map((v) => v + 4 * (random() - 0.5));
  const a = truth.map((v, k) => v + 0.5 * (linear[k] - v) + 0.3 * (random() - 0.5));
  const b = r % 5 === 0 ? null : truth.map((v) => v + 3 * (random() - 0.5));
  return trialOf(truth, [linear, a, b]);
});

describe('selection', () => {
  it('scores any weighting from the runs\' Gram matrices exactly as the weighted fills themselves', () => {
    for (const weights of [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0.25, 0.75, 0], [0.2, 0.3, 0.5]]) {
      let se = 0;
      let n = 0;
      for (const { truth, fills } of trials) {
        const fill = combine(fills, weights);
        if (!fill) continue;
        fill.forEach((v, k) => (se += (v - truth[k]) ** 2));
        n += truth.length;
      }
      expect(mseOf(trials, weights)).toBeCloseTo(se / n, 10);
    }
  });

  it('chooses the method that errs least and lets it past the gate when it beats linear on unseen runs', () => {
    const chosen = selectOn(trials, methods, 5);
    expect(chosen.weights[1]).toBeGreaterThan(0);
    expect(beatsLinear(trials, methods, 5)).toBe(true);
  });

  it('keeps linear when the gain over it rests on three lucky runs of sixty (z 1.76, below GATE_Z)', () => {
    const lucky = Array.from({ length: 60 }, (_, r) => {
      const truth = Array.from({ length: 6 }, (_, k) => 10 * Math.sin(r + k));
      const linear = truth.map((v, k) => v + (r < 3 ? 3 : 0.5 * Math.cos(r * k)));
      return trialOf(truth, [linear, r < 3 ? truth.slice() : linear.slice(), null]);
    });
    expect(selectOn(lucky, methods, 5).method).toBe('a');
    expect(beatsLinear(lucky, methods, 5)).toBe(false);
    // Twelve such runs are a gain: the gate lets it through.
    const many = lucky.map((t, r) => (r < 12 ? trialOf(t.truth, [t.truth.map((v) => v + 3), t.truth.slice(), null]) : t));
    expect(beatsLinear(many, methods, 5)).toBe(true);
  });

  it('keeps linear when a few large wins carry the mean while most runs lose (the sign test)', () => {
    // 20 runs of 60 won by 2 per value; 40 lost by 0.2 per value: the mean gain is positive by many standard errors.
    const skewed = Array.from({ length: 60 }, (_, r) => {
      const truth = Array.from({ length: 6 }, (_, k) => 10 * Math.sin(r + k));
      const linear = truth.map((v) => v + (r % 3 === 0 ? 2 : 1));
      const a = truth.map((v) => v + (r % 3 === 0 ? 0 : 1.2));
      return trialOf(truth, [linear, a, null]);
    });
    const gains = skewed.map(({ gram }) => gram[0][0] - gram[1][1]);
    const mean = gains.reduce((s, g) => s + g, 0) / gains.length;
    const sd = Math.sqrt(gains.reduce((s, g) => s + (g - mean) ** 2, 0) / (gains.length - 1));
    expect(mean / (sd / Math.sqrt(gains.length))).toBeGreaterThan(1.96);
    expect(beatsLinear(skewed, methods, 5)).toBe(false);
  });

  it('keeps linear when the others only tie with it', () => {
    const ties = trials.map(({ truth, fills }) => trialOf(truth, [fills[0], fills[0]!.map((v, k) => v + (k % 2 ? 1e-3 : -1e-3)), null]));
    expect(beatsLinear(ties, methods, 5)).toBe(false);
  });
});
