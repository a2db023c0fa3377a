import { coverage, InvalidCsv, mergeSeries, parseSeries, partitionByMonth, serialiseSeries, SERIES_HEADER, type StandardRow } from '../../../shared/domain/ingest';

const t = (iso: string) => Date.parse(iso);
const row = (iso: string, power: number | null, energy: number | null = power === null ? null : power / 4): StandardRow => ({ t: t(iso), power_kw: power, energy_kwh: energy });

describe('merging into a stored series', () => {
  it('adds new intervals, replaces those already present (counted), and sorts', () => {
    const existing = [row('2024-01-01T00:15:00Z', 2), row('2024-01-01T00:00:00Z', 1)];
    const incoming = [row('2024-01-01T00:30:00Z', 3), row('2024-01-01T00:15:00Z', 9)];

    const merged = mergeSeries(existing, incoming);

    expect(merged.rows.map((r) => [new Date(r.t).toISOString(), r.power_kw])).toEqual([
      ['2024-01-01T00:00:00.000Z', 1],
      ['2024-01-01T00:15:00.000Z', 9],
      ['2024-01-01T00:30:00.000Z', 3],
    ]);
    expect([merged.added, merged.replaced]).toEqual([1, 1]);
  });

  it('changes nothing when the same rows arrive again (idempotent processing)', () => {
    const rows = [row('2024-01-01T00:00:00Z', 1), row('2024-01-01T00:15:00Z', 2)];

    const again = mergeSeries(rows, rows);

    expect(again.rows).toEqual(rows);
    expect([again.added, again.replaced]).toEqual([0, 2]);
  });
});

describe('monthly partitions', () => {
  it('groups rows by UTC month, whatever the local calendar', () => {
    const rows = [row('2024-01-31T23:45:00Z', 1), row('2024-02-01T00:00:00Z', 2), row('2024-02-29T12:00:00Z', 3), row('2024-03-01T00:00:00Z', 4)];

    const months = partitionByMonth(rows);

    expect([...months.keys()]).toEqual(['2024-01', '2024-02', '2024-03']);
    expect(months.get('2024-02')!.map((r) => r.power_kw)).toEqual([2, 3]);
  });

  it('keeps rows of a month together when the input jumps between months', () => {
    const months = partitionByMonth([row('2024-03-05T00:00:00Z', 1), row('2024-04-05T00:00:00Z', 2), row('2024-03-06T00:00:00Z', 3)]);

    expect(months.get('2024-03')!.map((r) => r.power_kw)).toEqual([1, 3]);
  });
});

describe('coverage', () => {
  it('reports span, gaps with their missing intervals, and completeness', () => {
    const times = ['00:00', '00:15', '00:30', '01:15', '01:30', '02:30'].map((hm) => row(`2024-01-01T${hm}:00Z`, 1));

    const report = coverage(times, 15);

    expect(report).toEqual({
      first: '2024-01-01T00:00:00Z',
      last: '2024-01-01T02:30:00Z',
      rows: 6,
      interval_minutes: 15,
      gaps: [
        { start: '2024-01-01T00:45:00Z', end: '2024-01-01T01:00:00Z', missing_intervals: 2 },
        { start: '2024-01-01T01:45:00Z', end: '2024-01-01T02:15:00Z', missing_intervals: 3 },
      ],
      gap_count: 2,
      completeness: 0.545455,
    });
  });

  it('lists the first 50 gaps and counts them all', () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ t: i * 2 * 3_600_000, power_kw: 1, energy_kwh: 1 }));

    const report = coverage(rows, 60);

    expect(report.gaps).toHaveLength(50);
    expect(report.gap_count).toBe(59);
    // 60 rows over 119 expected hourly intervals.
    expect(report.completeness).toBe(0.504202);
  });

  it('is empty and zero for no rows, and complete for a gapless series', () => {
    expect(coverage([], 15)).toEqual({ first: null, last: null, rows: 0, interval_minutes: 15, gaps: [], gap_count: 0, completeness: 0 });
    expect(coverage([row('2024-01-01T00:00:00Z', 1), row('2024-01-01T00:05:00Z', 1)], 5).completeness).toBe(1);
  });
});

describe('stored series text', () => {
  const rows: StandardRow[] = [
    { t: t('2024-01-01T00:00:00Z'), power_kw: null, energy_kwh: null },
    { t: t('2024-01-01T00:15:00Z'), power_kw: 1.23456789, energy_kwh: 0.3086419725, channels: { pf: 0.99, temperature_c: -3.25 } },
    {
      t: t('2024-01-01T00:30:00Z'),
      power_kw: -0.0000004,
      energy_kwh: 123456.7,
      channels: { kvarh: 0.0125, kva: 1.3, pf: 1, temperature_c: 20, irradiance_wm2: 812.5 },
    },
    { t: t('2024-01-01T00:45:00.250Z'), power_kw: 2, energy_kwh: 0.5 },
  ];

  it('writes the fixed header and at most six decimals', () => {
    const text = serialiseSeries(rows);

    expect(text).toBe(
      [
        SERIES_HEADER.join(','),
        '2024-01-01T00:00:00Z,,,,,,,',
        '2024-01-01T00:15:00Z,1.234568,0.308642,,,0.99,-3.25,',
        '2024-01-01T00:30:00Z,0,123456.7,0.0125,1.3,1,20,812.5',
        '2024-01-01T00:45:00.250Z,2,0.5,,,,,',
        '',
      ].join('\n'),
    );
    expect(SERIES_HEADER.join(',')).toBe('timestamp,power_kw,energy_kwh,kvarh,kva,pf,temperature_c,irradiance_wm2');
  });

  it('reads back exactly what it wrote, to six decimals', () => {
    const sixDecimals = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6 || 0);

    const back = parseSeries(serialiseSeries(rows));

    expect(back).toEqual(
      rows.map((r) => ({
        ...r,
        power_kw: sixDecimals(r.power_kw),
        energy_kwh: sixDecimals(r.energy_kwh),
        ...(r.channels ? { channels: Object.fromEntries(Object.entries(r.channels).map(([k, v]) => [k, sixDecimals(v)])) } : {}),
      })),
    );
    expect(serialiseSeries(back)).toBe(serialiseSeries(rows));
  });

  it('reads an empty or missing object as no rows and refuses text without the header', () => {
    expect(parseSeries(`${SERIES_HEADER.join(',')}\n`)).toEqual([]);
    expect(parseSeries('')).toEqual([]);
    expect(() => parseSeries('time,kW\n2024-01-01T00:00:00Z,1\n')).toThrow(InvalidCsv);
  });
});
