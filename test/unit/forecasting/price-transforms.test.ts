/** The price transforms LEAR can be fitted on, and the member that averages over two of them. */
import { fitPriceTransform } from '../../../shared/domain/forecasting/price-transforms';
import { priceLearMember, priceLearVstMember } from '../../../shared/domain/forecasting/price';
import { ALL_MEMBERS } from '../../../shared/domain/forecasting/members';
import { HOUR_MS, type RegularSeries } from '../../../shared/domain/forecasting/types';

describe('N-PIT (Uniejewski, Weron & Ziel 2018)', () => {
  // Prices with a negative hour, ties and a spike.
  const window = [31, 28, 35, 40, 28, 33, -5, 30, 250, 29, 36, 31];
  const npit = fitPriceTransform('npit', window);

  it('maps the window through its empirical distribution onto normal quantiles', () => {
    // The middle of twelve values sits at the normal median; the least and greatest at Phi^-1(0.5 / 12) and its mirror.
    expect(npit.forward(-5)).toBeCloseTo(-1.7317, 3);
    expect(npit.forward(250)).toBeCloseTo(1.7317, 3);
    // 31 holds ranks 6 and 7 of 12, the middle: the normal median.
    expect(npit.forward(31)).toBeCloseTo(0, 12);
    // A spike is just the top rank: no further from the rest than the bottom one.
    expect(npit.forward(250) - npit.forward(40)).toBeLessThan(1);
  });

  it('gives tied values one position, the mean of theirs', () => {
    // 28 twice, at ranks 2 and 3 of 12: plotting position (2 + 3) / 2 / 12 - 0.5 / 12 = 0.1667.
    expect(npit.forward(28)).toBeCloseTo(-0.9674, 3);
  });

  it('is increasing, and its inverse returns every value of the window', () => {
    const grid = Array.from({ length: 300 }, (_, i) => -10 + i);
    const forward = grid.map((x) => npit.forward(x));
    forward.slice(1).forEach((z, i) => expect(z).toBeGreaterThanOrEqual(forward[i]));
    for (const x of window) expect(npit.inverse(npit.forward(x))).toBeCloseTo(x, 10);
    for (const x of [0, 32.5, 100]) expect(npit.inverse(npit.forward(x))).toBeCloseTo(x, 10);
  });

  it('cannot forecast beyond the window: its inverse holds the extremes', () => {
    expect(npit.inverse(10)).toBe(250);
    expect(npit.inverse(-10)).toBe(-5);
    expect(npit.forward(1000)).toBe(npit.forward(250));
  });

  it('is flat on a constant window instead of dividing by zero', () => {
    const flat = fitPriceTransform('npit', [40, 40, 40]);
    expect(flat.forward(40)).toBe(0);
    expect(flat.inverse(1.3)).toBe(40);
  });
});

describe('priceLearVstMember', () => {
  /** Four months of prices with a daily shape, a weekly rhythm and occasional spikes. */
  const series = (): RegularSeries => {
    let state = 7;
    const uniform = () => (state = (state * 16807) % 2147483647) / 2147483647;
    const y: number[] = [];
    for (let i = 0; i < 120 * 24; i++) {
      const day = Math.floor(i / 24);
      const level = 40 + 8 * Math.sin((2 * Math.PI * (i % 24)) / 24) + (day % 7 >= 5 ? -6 : 0);
      y.push(level + 0.5 * (y[i - 24] ?? 40) - 20 + 4 * (uniform() - 0.5) + (uniform() < 0.01 ? 80 : 0));
    }
    return { t: Array.from(y, (_, i) => Date.UTC(2019, 0, 7) + i * HOUR_MS), y, stepMinutes: 60 };
  };

  it('is a registered price member', () => {
    expect(priceLearVstMember.name).toBe('price_lear_vst');
    expect(priceLearVstMember.supports('price')).toBe(true);
    expect(ALL_MEMBERS).toContain(priceLearVstMember);
  });

  it('takes the hourly median of LEAR on asinh and LEAR on N-PIT, each over the same windows', () => {
    const history = series();
    const fit = (windows: number[], transforms?: string[]) => ({ kind: 'price' as const, options: { calibrationWindows: windows, ...(transforms && { priceTransforms: transforms }) } });
    const vst = priceLearVstMember.fit(history, fit([56, 84])).predict(24);
    const models = [56, 84].flatMap((w) => ['asinh', 'npit'].map((t) => priceLearMember.fit(history, fit([w], [t])).predict(24)));

    // Assess: four models, so the median is the mean of the middle two at each hour.
    vst.forEach((v, h) => {
      const sorted = models.map((m) => m[h]).sort((a, b) => a - b);
      expect(v).toBeCloseTo((sorted[1] + sorted[2]) / 2, 9);
    });
    expect(models[1]).not.toEqual(models[0]);
    expect(vst).not.toEqual(vst.map((_, h) => models.reduce((sum, m) => sum + m[h], 0) / 4));
  });

  it('rejects a transform it does not know', () => {
    expect(() => priceLearMember.fit(series(), { kind: 'price', options: { priceTransforms: ['log'] } })).toThrow(/priceTransforms must be a list of asinh, npit/);
  });
});
