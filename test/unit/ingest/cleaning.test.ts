import { standardiseText, triples } from './helpers';

describe('cleaning within a file', () => {
  it('sorts out-of-order rows and merges duplicate timestamps, the later row winning', async () => {
    const text = 'time,kW\n2024-01-01 00:30,3\n2024-01-01 00:00,1\n2024-01-01 00:15,2\n2024-01-01 00:15,9\n2024-01-01 00:45,4\n';

    const file = await standardiseText(text);

    expect(triples(file.rows)).toEqual([
      ['2024-01-01T00:00:00.000Z', 1, 0.25],
      ['2024-01-01T00:15:00.000Z', 9, 2.25],
      ['2024-01-01T00:30:00.000Z', 3, 0.75],
      ['2024-01-01T00:45:00.000Z', 4, 1],
    ]);
    expect(file.duplicatesMerged).toBe(1);
    expect(file.notes).toContain('3 rows out of time order sorted');
  });

  it('rejects unparseable rows with a count and the first ten reasons, each naming its line', async () => {
    const good = Array.from({ length: 4 }, (_, i) => `2024-01-01 0${i}:00,${i}`);
    const bad = Array.from({ length: 12 }, (_, i) => `2024-01-02 ${String(i).padStart(2, '0')}:00,n/a`);
    const text = ['time,kW', ...good, '2024-13-01 00:00,1', 'yesterday,2', '2024-01-01 05:00,', ...bad].join('\n') + '\n';

    const file = await standardiseText(text);

    expect(file.rows).toHaveLength(4);
    expect(file.rowsRead).toBe(19);
    expect(file.rowsRejected).toBe(15);
    expect(file.rejectReasons).toHaveLength(10);
    expect(file.rejectReasons.slice(0, 4)).toEqual([
      'line 6: "2024-13-01 00:00" is not a valid date and time',
      'line 7: timestamp "yesterday" not recognised',
      'line 8: no value in "kW"',
      'line 9: "n/a" in "kW" is not a number',
    ]);
  });

  it('accounts for every row read: kept, rejected or merged', async () => {
    const text = 'time,Power (W)\n2024-01-01 00:00,10\n2024-01-01 00:00,11\nnever,1\n2024-01-01 01:00,-500\n2024-01-01 02:00,1000\n';

    const file = await standardiseText(text);

    expect(file.rowsRead).toBe(5);
    expect(file.rows.length + file.rowsRejected + file.duplicatesMerged).toBe(file.rowsRead);
  });

  it('infers the interval as the most common step and counts rows off its grid', async () => {
    const text = 'time,kW\n2024-01-01 00:00,1\n2024-01-01 00:15,1\n2024-01-01 00:22,1\n2024-01-01 00:30,1\n2024-01-01 00:45,1\n2024-01-01 01:30,1\n';

    const file = await standardiseText(text);

    expect(file.intervalMinutes).toBe(15);
    expect(file.offGridRows).toBe(1);
    expect(file.rows).toHaveLength(6);
  });

  it('tolerates loggers that stamp a few seconds early or late', async () => {
    const text = 'time,kW\n2024-01-01 00:00:03,1\n2024-01-01 00:14:58,1\n2024-01-01 00:30:01,1\n2024-01-01 00:45:00,1\n2024-01-01 00:52:30,1\n';

    const file = await standardiseText(text);

    expect(file.intervalMinutes).toBe(15);
    expect(file.offGridRows).toBe(1);
  });

  it('anchors the grid where most rows lie, so half-hour offsets are not off-grid', async () => {
    // Hourly data from India (UTC+5:30): every instant is at :30 UTC.
    const text = 'time,kW\n2024-01-01 06:00,1\n2024-01-01 07:00,2\n2024-01-01 08:00,3\n';

    const file = await standardiseText(text, { timezone: 'Asia/Kolkata' });

    expect(file.start).toBe('2024-01-01T00:30:00Z');
    expect(file.offGridRows).toBe(0);
  });

  it('reports start and end as ISO UTC with Z', async () => {
    const file = await standardiseText('time,kW\n2024-01-01T01:00:00+01:00,1\n2024-01-01T01:15:00.250+01:00,1\n');

    expect([file.start, file.end]).toEqual(['2024-01-01T00:00:00Z', '2024-01-01T00:15:00.250Z']);
  });
});
