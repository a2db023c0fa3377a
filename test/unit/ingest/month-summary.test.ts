import { combineSummaries, coverage, mergeSeries, partitionByMonth, summariseMonth, type MonthSummary, type StandardRow } from '../../../shared/domain/ingest';
import { mulberry32 } from '../../helpers/seeded-random';

const MINUTE = 60_000;
const row = (t: number): StandardRow => ({ t, power_kw: 1, energy_kwh: 0.25 });

/** Uploads as they arrive: runs of rows at `intervalMinutes` with random holes, some off the grid, overlapping earlier uploads. */
function randomUploads(seed: number, intervalMinutes: number): StandardRow[][] {
  const random = mulberry32(seed);
  const interval = intervalMinutes * MINUTE;
  const origin = Date.UTC(2023, 10, 28) + Math.floor(random() * 10) * interval;
  const uploads: StandardRow[][] = [];
  for (let u = 0; u < 12; u++) {
    // Starts anywhere in ~4 months, so uploads cross month boundaries and repeat instants of earlier ones.
    let t = origin + Math.floor(random() * 120 * 24 * (60 / intervalMinutes)) * interval;
    const rows: StandardRow[] = [];
    const n = 1 + Math.floor(random() * 3000);
    for (let k = 0; k < n; k++) {
      const r = random();
      const jitter = r < 0.02 ? Math.floor((random() - 0.5) * 0.6 * interval) : 0; // a little off the grid
      rows.push(row(t + jitter));
      t += r < 0.9 ? interval : r < 0.97 ? interval * (2 + Math.floor(random() * 5)) : interval * Math.floor(random() * 3000);
    }
    uploads.push(rows);
  }
  return uploads;
}

/** What upload processing does: merge each upload into its months, re-summarise the touched months only, combine. */
function ingest(uploads: StandardRow[][], intervalMinutes: number) {
  const stored = new Map<string, StandardRow[]>();
  const summaries = new Map<string, MonthSummary>();
  let combined = combineSummaries([], intervalMinutes);
  for (const upload of uploads) {
    for (const [month, rows] of partitionByMonth(upload)) {
      const merged = mergeSeries(stored.get(month) ?? [], rows).rows;
      stored.set(month, merged);
      summaries.set(month, summariseMonth(month, merged, intervalMinutes)!);
    }
    combined = combineSummaries([...summaries.values()], intervalMinutes);
  }
  const all = [...stored.values()].flat();
  return { combined, all };
}

describe('coverage combined from month summaries', () => {
  it.each([
    [1, 5],
    [2, 5],
    [3, 15],
    [4, 60],
    [5, 30],
    [6, 5],
  ])('equals coverage over every stored row (seed %i, %i-minute data)', (seed, intervalMinutes) => {
    // Prepare
    const uploads = randomUploads(seed, intervalMinutes);

    // Act
    const { combined, all } = ingest(uploads, intervalMinutes);

    // Assess: the full-history computation this replaces.
    const full = coverage(all, intervalMinutes);
    expect(combined).toEqual(full);
    expect(full.gap_count).toBeGreaterThan(0);
    expect(new Set(all.map((r) => r.t)).size).toBe(all.length);
  });

  it('lists more than one month of gaps only up to the cap, in time order, counting all', () => {
    const interval = 5 * MINUTE;
    const rows: StandardRow[] = [];
    // Every other interval missing over two months: thousands of gaps, one across the boundary.
    for (let t = Date.UTC(2024, 0, 31, 23, 0); t < Date.UTC(2024, 1, 2); t += 2 * interval) rows.push(row(t));
    const summaries = [...partitionByMonth(rows)].map(([month, r]) => summariseMonth(month, r, 5)!);

    const combined = combineSummaries(summaries, 5);

    expect(combined).toEqual(coverage(rows, 5));
    expect(combined.gap_count).toBe(rows.length - 1);
    expect(combined.gaps).toHaveLength(50);
    expect(combined.gaps[5]).toEqual({ start: '2024-01-31T23:55:00Z', end: '2024-01-31T23:55:00Z', missing_intervals: 1 }); // across the boundary
    expect(combined.gaps[49].start).toBe('2024-02-01T07:15:00Z');
  });

  it('finds the gap between two months even when neither month has one of its own', () => {
    const january = [row(Date.UTC(2024, 0, 31, 23, 50)), row(Date.UTC(2024, 0, 31, 23, 55))];
    const march = [row(Date.UTC(2024, 2, 1, 0, 0)), row(Date.UTC(2024, 2, 1, 0, 5))];

    const combined = combineSummaries([summariseMonth('2024-03', march, 5)!, summariseMonth('2024-01', january, 5)!], 5);

    expect(combined).toMatchObject({ first: '2024-01-31T23:50:00Z', last: '2024-03-01T00:05:00Z', rows: 4, gap_count: 1, gaps: [{ start: '2024-02-01T00:00:00Z', end: '2024-02-29T23:55:00Z', missing_intervals: 29 * 288 }] });
    expect(combined.completeness).toBeCloseTo(4 / (29 * 288 + 4), 6);
  });

  it('refuses a summary counted at another interval', () => {
    const s = summariseMonth('2024-01', [row(Date.UTC(2024, 0, 1))], 5)!;
    expect(() => combineSummaries([s], 15)).toThrow(/at 5 minutes, not 15/);
  });

  it('has nothing to summarise for a month without rows', () => {
    expect(summariseMonth('2024-01', [], 5)).toBeUndefined();
    expect(combineSummaries([], 5)).toEqual(coverage([], 5));
  });
});
