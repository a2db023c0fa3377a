import { localSolarHour } from '../../../shared/domain/weather/climatology';
import {
  CLOUD_DIURNAL_HALF_RANGE_PCT,
  clearSkyIndexSpread,
  climatologicalCloudCoverPct,
  kastenCzeplakClearSkyIndex,
  seasonalCloudCoverPct,
  skyUnderCloud,
} from '../../../shared/domain/weather/cloud-climatology';
import { mulberry32 } from '../../helpers/seeded-random';

/** Draws from Beta(a, b) for a, b < 1 by Jöhnk's (1964) rejection method. */
function betaSampler(a: number, b: number, random: () => number): () => number {
  return () => {
    for (;;) {
      const x = random() ** (1 / a);
      const y = random() ** (1 / b);
      if (x + y <= 1 && x + y > 0) return x / (x + y);
    }
  };
}

describe('Kasten & Czeplak (1980)', () => {
  it('gives 1 - 0.75 (N/8)^3.4: 1 clear, 0.25 overcast, 0.929 at 4 oktas', () => {
    expect(kastenCzeplakClearSkyIndex(0)).toBe(1);
    expect(kastenCzeplakClearSkyIndex(1)).toBeCloseTo(0.25, 12);
    expect(kastenCzeplakClearSkyIndex(0.5)).toBeCloseTo(1 - 0.75 * 0.5 ** 3.4, 12);
    expect(kastenCzeplakClearSkyIndex(0.5)).toBeCloseTo(0.929, 3);
  });
});

describe('skyUnderCloud: Kasten & Czeplak over the beta distribution of cloud amount', () => {
  it('is the clear sky at no cloud and a quarter of it, all diffuse, under overcast', () => {
    expect(skyUnderCloud(0, 0.12)).toEqual({ clearSkyIndex: 1, diffuseOfClearGlobal: 0.12 });
    const overcast = skyUnderCloud(100, 0.12);
    expect(overcast.clearSkyIndex).toBeCloseTo(0.25, 12);
    expect(overcast.diffuseOfClearGlobal).toBeCloseTo(0.25, 12);
  });

  it.each([20, 50, 65, 85])('matches a Monte Carlo mean over Beta(m, 1 - m) at %i%% cover', (cover) => {
    const m = cover / 100;
    const draw = betaSampler(m, 1 - m, mulberry32(cover));
    const n = 200_000;
    let k = 0;
    let d = 0;
    let k2 = 0;
    for (let i = 0; i < n; i++) {
      const x = draw();
      const ki = kastenCzeplakClearSkyIndex(x);
      k += ki;
      k2 += ki * ki;
      d += ki * (0.1 + 0.9 * x * x);
    }
    const sky = skyUnderCloud(cover, 0.1);
    expect(sky.clearSkyIndex).toBeCloseTo(k / n, 2);
    expect(sky.diffuseOfClearGlobal).toBeCloseTo(d / n, 2);
    expect(clearSkyIndexSpread(cover)).toBeCloseTo(Math.sqrt(k2 / n - (k / n) ** 2), 2);
  });

  it('is darker than the point formula at the mean cover (the relation is convex), and darker with more cloud', () => {
    for (const cover of [30, 60, 90]) expect(skyUnderCloud(cover, 0.1).clearSkyIndex).toBeLessThan(kastenCzeplakClearSkyIndex(cover / 100));
    const indices = [0, 10, 30, 50, 70, 90, 100].map((c) => skyUnderCloud(c, 0.1).clearSkyIndex);
    indices.slice(1).forEach((k, i) => expect(k).toBeLessThan(indices[i]));
  });
});

describe('zonal cloud climatology', () => {
  const at = (iso: string) => new Date(iso);

  it('varies with the season as the zones do: winter storm tracks, monsoons, the Arctic summer', () => {
    expect(seasonalCloudCoverPct(at('2024-01-15T00:00:00Z'), 52.5)).toBeGreaterThan(seasonalCloudCoverPct(at('2024-07-15T00:00:00Z'), 52.5) + 8);
    expect(seasonalCloudCoverPct(at('2024-07-15T00:00:00Z'), 15)).toBeGreaterThan(seasonalCloudCoverPct(at('2024-01-15T00:00:00Z'), 15) + 15);
    expect(seasonalCloudCoverPct(at('2024-01-15T00:00:00Z'), -15)).toBeGreaterThan(seasonalCloudCoverPct(at('2024-07-15T00:00:00Z'), -15) + 15);
    expect(seasonalCloudCoverPct(at('2024-07-15T00:00:00Z'), 80)).toBeGreaterThan(seasonalCloudCoverPct(at('2024-01-15T00:00:00Z'), 80));
  });

  it('averages over the year to the zonal annual mean (60% at 45 N)', () => {
    const days = Array.from({ length: 366 }, (_, d) => seasonalCloudCoverPct(new Date(Date.UTC(2024, 0, 1) + d * 86_400_000), 45));
    expect(days.reduce((s, x) => s + x, 0) / days.length).toBeCloseTo(60, 1);
  });

  it('peaks in the mid-afternoon over land, CLOUD_DIURNAL_HALF_RANGE_PCT above the day’s mean', () => {
    const hours = Array.from({ length: 24 }, (_, h) => new Date(Date.UTC(2024, 5, 20, h)));
    const cover = hours.map((t) => climatologicalCloudCoverPct(t, 52.52, 13.405));
    const cloudiest = hours[cover.indexOf(Math.max(...cover))];
    expect(Math.round(localSolarHour(cloudiest, 13.405))).toBe(15);
    expect(Math.max(...cover) - seasonalCloudCoverPct(cloudiest, 52.52)).toBeCloseTo(CLOUD_DIURNAL_HALF_RANGE_PCT, 0);
  });
});
