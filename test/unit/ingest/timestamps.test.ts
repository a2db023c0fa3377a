import { LocalTimeResolver } from '../../../shared/domain/ingest/timestamps';
import { iso, standardiseText, triples } from './helpers';

const instants = (rows: { t: number }[]) => rows.map((r) => iso(r.t));

describe('timestamp formats', () => {
  it.each([
    ['YYYY-MM-DD HH:mm:ss', '2024-06-15 13:45:00'],
    ['YYYY-MM-DDTHH:mm', '2024-06-15T13:45'],
    ['ISO with Z and milliseconds', '2024-06-15T13:45:00.000Z'],
    ['ISO with an offset', '2024-06-15T15:45:00+02:00'],
    ['DD.MM.YYYY HH:mm:ss (SMA, German exports)', '15.06.2024 13:45:00'],
    ['DD.MM.YYYY HH:mm', '15.06.2024 13:45'],
    ['DD/MM/YYYY HH:mm (EU)', '15/06/2024 13:45'],
    ['MM/DD/YYYY HH:mm (US)', '06/15/2024 13:45'],
    ['YYYY/MM/DD HH:mm', '2024/06/15 13:45'],
    ['12-hour h:mm AM/PM', '06/15/2024 1:45 PM'],
    ['Unix epoch seconds', '1718459100'],
    ['Unix epoch milliseconds', '1718459100000'],
  ])('reads %s', async (_format, stamp) => {
    const file = await standardiseText(`timestamp,Power (kW)\n${stamp},1\n`);

    expect(file.start).toBe('2024-06-15T13:45:00Z');
  });

  it('tells DD/MM from MM/DD by a value above 12 anywhere in the file, not just in the first rows', async () => {
    // Hourly rows from 1 to 14 February: the first day above 12 comes 288 rows in, past the sampled head.
    const rows = (order: 'dmy' | 'mdy') =>
      Array.from({ length: 14 * 24 }, (_, i) => {
        const day = String(1 + Math.floor(i / 24)).padStart(2, '0');
        const hour = String(i % 24).padStart(2, '0');
        return `${order === 'dmy' ? `${day}/02` : `02/${day}`}/2024 ${hour}:00,${i % 7}`;
      });
    const dayFirst = await standardiseText(['date,kW', ...rows('dmy')].join('\n'));
    const monthFirst = await standardiseText(['date,kW', ...rows('mdy')].join('\n'));

    for (const file of [dayFirst, monthFirst]) {
      expect(file.rows).toHaveLength(336);
      expect(file.rowsRejected).toBe(0);
      expect([file.start, file.end]).toEqual(['2024-02-01T00:00:00Z', '2024-02-14T23:00:00Z']);
      expect(file.intervalMinutes).toBe(60);
    }
    expect(dayFirst.notes).toContain('dates read as DD/MM/YYYY (values above 12 show the order)');
    expect(monthFirst.notes).toContain('dates read as MM/DD/YYYY (values above 12 show the order)');
  });

  it('chooses the date order whose consecutive rows lie close together when no value exceeds 12', async () => {
    // Hourly rows across midnight of 5/6 June written month first: read day first they would jump a month.
    const text = 'date,kW\n06/05/2024 22:00,1\n06/05/2024 23:00,2\n06/06/2024 00:00,3\n06/06/2024 01:00,4\n';

    const file = await standardiseText(text);

    expect(instants(file.rows)).toEqual(['2024-06-05T22:00:00.000Z', '2024-06-05T23:00:00.000Z', '2024-06-06T00:00:00.000Z', '2024-06-06T01:00:00.000Z']);
    expect(file.notes).toContain('dates read as MM/DD/YYYY (consecutive rows are closer in time read this way)');
  });
});

describe('time zones and daylight saving time', () => {
  it('reads times without an offset in the given zone', async () => {
    const file = await standardiseText('time,kW\n2024-01-15 12:00,1\n2024-07-15 12:00,1\n', { timezone: 'Europe/Berlin' });

    expect(instants(file.rows)).toEqual(['2024-01-15T11:00:00.000Z', '2024-07-15T10:00:00.000Z']);
    expect(file.notes).toContain('2 timestamps without an offset read as Europe/Berlin local time');
  });

  it('reads them as UTC when no zone is given, and says so', async () => {
    const file = await standardiseText('time,kW\n2024-07-15 12:00,1\n');

    expect(file.start).toBe('2024-07-15T12:00:00Z');
    expect(file.notes).toContain('1 timestamp without an offset read as UTC (no timezone given)');
  });

  it('rejects wall times that do not exist in Europe/Berlin on the spring-forward night, naming the line', async () => {
    const text = 'time,kW\n2024-03-31 01:45,1\n2024-03-31 02:00,2\n2024-03-31 02:45,3\n2024-03-31 03:00,4\n';

    const file = await standardiseText(text, { timezone: 'Europe/Berlin' });

    expect(triples(file.rows)).toEqual([
      ['2024-03-31T00:45:00.000Z', 1, 0.25],
      ['2024-03-31T01:00:00.000Z', 4, 1],
    ]);
    expect(file.rowsRejected).toBe(2);
    expect(file.rejectReasons).toEqual([
      'line 3: local time 2024-03-31 02:00 does not exist in Europe/Berlin (clocks go forward)',
      'line 4: local time 2024-03-31 02:45 does not exist in Europe/Berlin (clocks go forward)',
    ]);
  });

  it('places the repeated autumn hour by order: the second occurrence is the later instant', async () => {
    const text = ['time,kW', '01:45', '02:00', '02:15', '02:30', '02:45', '02:00', '02:15', '02:30', '02:45', '03:00'].map((x, i) => (i === 0 ? x : `2024-10-27 ${x},${i}`)).join('\n');

    const file = await standardiseText(text, { timezone: 'Europe/Berlin' });

    expect(instants(file.rows)).toEqual([
      '2024-10-26T23:45:00.000Z',
      '2024-10-27T00:00:00.000Z',
      '2024-10-27T00:15:00.000Z',
      '2024-10-27T00:30:00.000Z',
      '2024-10-27T00:45:00.000Z',
      '2024-10-27T01:00:00.000Z',
      '2024-10-27T01:15:00.000Z',
      '2024-10-27T01:30:00.000Z',
      '2024-10-27T01:45:00.000Z',
      '2024-10-27T02:00:00.000Z',
    ]);
    expect(file.rows.map((r) => r.power_kw)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(file.duplicatesMerged).toBe(0);
    expect(file.intervalMinutes).toBe(15);
  });

  it('places a repeated hour written newest first by order too', async () => {
    const text = 'time,kW\n2024-10-27 03:00,4\n2024-10-27 02:00,3\n2024-10-27 02:00,2\n2024-10-27 01:00,1\n';

    const file = await standardiseText(text, { timezone: 'Europe/Berlin' });

    expect(triples(file.rows).map(([t, p]) => [t, p])).toEqual([
      ['2024-10-26T23:00:00.000Z', 1],
      ['2024-10-27T00:00:00.000Z', 2],
      ['2024-10-27T01:00:00.000Z', 3],
      ['2024-10-27T02:00:00.000Z', 4],
    ]);
  });

  it('uses FusionSolar-style " DST" markers rather than order when a file has them', async () => {
    const text = 'Start Time,Active power(kW)\n2024-10-27 02:30:00,2\n2024-10-27 02:30:00 DST,1\n';

    const file = await standardiseText(text, { timezone: 'Europe/Berlin' });

    expect(triples(file.rows).map(([t, p]) => [t, p])).toEqual([
      ['2024-10-27T00:30:00.000Z', 1],
      ['2024-10-27T01:30:00.000Z', 2],
    ]);
    expect(file.notes).toContain('2 rows in the repeated autumn hour placed by their DST marker');
  });

  it('honours explicit offsets whatever the zone option, across the autumn change', async () => {
    const text = 'time,kW\n2024-10-27T02:30:00+02:00,1\n2024-10-27T02:30:00+01:00,2\n2024-10-27T01:45:00Z,3\n2024-10-26T21:45:00-04:00,4\n';

    const file = await standardiseText(text, { timezone: 'Asia/Tokyo' });

    expect(triples(file.rows).map(([t, p]) => [t, p])).toEqual([
      ['2024-10-27T00:30:00.000Z', 1],
      ['2024-10-27T01:30:00.000Z', 2],
      ['2024-10-27T01:45:00.000Z', 4],
    ]);
    expect(file.duplicatesMerged).toBe(1);
  });

  it('resolves wall times in zones with half-hour offsets and southern-hemisphere summer time', () => {
    const india = new LocalTimeResolver('Asia/Kolkata');
    const sydney = new LocalTimeResolver('Australia/Sydney');

    expect(india.resolve(Date.UTC(2024, 5, 15, 12, 0))).toBe(1);
    expect(iso(india.early)).toBe('2024-06-15T06:30:00.000Z');
    // Sydney falls back at 03:00 AEDT on 7 April 2024: 02:30 happens twice.
    expect(sydney.resolve(Date.UTC(2024, 3, 7, 2, 30))).toBe(2);
    expect([iso(sydney.early), iso(sydney.late)]).toEqual(['2024-04-06T15:30:00.000Z', '2024-04-06T16:30:00.000Z']);
    // ...and springs forward at 02:00 AEST on 6 October 2024.
    expect(sydney.resolve(Date.UTC(2024, 9, 6, 2, 30))).toBe(0);
  });
});
