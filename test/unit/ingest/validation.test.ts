import { InvalidCsv, InvalidDataPoints, inspectCsvHead, standardisePoints } from '../../../shared/domain/ingest';
import { standardiseText, triples } from './helpers';

const reasonOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidCsv);
  return (error as InvalidCsv).reason;
};

describe('invalid CSV', () => {
  it('throws InvalidCsv, named so, with a reason', async () => {
    const error = await standardiseText('foo,bar\nhello,world\n1,2\n').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InvalidCsv);
    expect((error as Error).name).toBe('InvalidCsv');
    expect((error as InvalidCsv).reason).toBe('no timestamp column: no recognisable timestamps in the first 30 lines');
  });

  it('refuses a file with timestamps but no power or energy column', async () => {
    expect(await reasonOf(standardiseText('timestamp,status\n2024-01-01 00:00,ok\n2024-01-01 00:15,ok\n'))).toBe(
      'no power or energy column: no numeric values beside the timestamps in the first 30 lines',
    );
    expect(await reasonOf(standardiseText('timestamp,Voltage (V),Frequency (Hz)\n2024-01-01 00:00,230,50\n2024-01-01 00:15,231,50\n'))).toBe(
      'no power or energy column: no numeric column besides the timestamp is a power or energy reading',
    );
  });

  it('refuses an empty file and a header without data', async () => {
    expect(await reasonOf(standardiseText(''))).toBe('the file is empty');
    expect(await reasonOf(standardiseText('timestamp,power_kw\n'))).toBe('no timestamp column: no recognisable timestamps in the first 30 lines');
  });

  it('refuses a file whose data starts after the first 30 lines', async () => {
    const preamble = Array.from({ length: 35 }, (_, i) => `meta ${i}`).join('\n');

    expect(await reasonOf(standardiseText(`${preamble}\ntime,kW\n2024-01-01 00:00,1\n2024-01-01 00:15,1\n`))).toMatch(/^no timestamp column/);
  });

  it('refuses a file when no valid row remains', async () => {
    const text = 'time,kW\n2024-03-31 02:00,1\n2024-03-31 02:15,1\n2024-03-31 02:30,1\n';

    expect(await reasonOf(standardiseText(text, { timezone: 'Europe/Berlin' }))).toBe(
      'no valid row remains (3 read, 3 rejected; line 2: local time 2024-03-31 02:00 does not exist in Europe/Berlin (clocks go forward))',
    );
  });

  it('refuses an unknown time zone', async () => {
    expect(await reasonOf(standardiseText('time,kW\n2024-01-01 00:00,1\n', { timezone: 'Mars/Olympus_Mons' }))).toBe('unknown time zone "Mars/Olympus_Mons"');
  });
});

describe('inspecting the head of an upload', () => {
  it('describes a valid head', () => {
    expect(inspectCsvHead('sep=;\nZeitstempel;Leistung [kW];Temperatur\n01.06.2024 10:00;1,5;20\n01.06.2024 10:15;2,5;21\n')).toEqual({
      delimiter: ';',
      header: ['Zeitstempel', 'Leistung [kW]', 'Temperatur'],
      timestampColumn: 'Zeitstempel',
      valueColumn: 'Leistung [kW]',
      manufacturer: 'generic',
      unit: 'kW',
    });
  });

  it('decodes the head bytes as the streaming pass does (UTF-16 with a byte order mark)', () => {
    const text = 'Zeit\tLeistung [kW]\r\n01.06.2024 10:00\t1,5\r\n01.06.2024 10:15\t2,5\r\n';

    const inspection = inspectCsvHead(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));

    expect(inspection).toMatchObject({ delimiter: '\t', timestampColumn: 'Zeit', valueColumn: 'Leistung [kW]', unit: 'kW' });
  });

  it('throws InvalidCsv for what is not a series', () => {
    expect(() => inspectCsvHead('foo,bar\nhello,world\n1,2\n')).toThrow(InvalidCsv);
    expect(() => inspectCsvHead('{"data_points": []}')).toThrow(InvalidCsv);
    expect(() => inspectCsvHead('')).toThrow(InvalidCsv);
  });

  it('ignores the cut-off last line of the first 64 KB', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `2024-01-01T00:00:00Z,${i}`);
    const head = Buffer.from(['time,kW', ...rows].join('\n')).subarray(0, 64 * 1024).toString('utf8');

    expect(inspectCsvHead(head)).toMatchObject({ timestampColumn: 'time', valueColumn: 'kW' });
    // The same text taken as a whole file fails on its truncated last line only if that line is read.
    expect(inspectCsvHead(`${head.slice(0, head.lastIndexOf('\n'))}\n2024-`, { truncated: true }).valueColumn).toBe('kW');
  });

  it('answers quickly on a full 64 KB head', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `${String(1 + (i % 28)).padStart(2, '0')}.02.2024 10:00;${i},5`);
    const head = Buffer.from(['Zeit;Leistung [W]', ...rows].join('\n')).subarray(0, 64 * 1024).toString('utf8');

    const started = performance.now();
    inspectCsvHead(head);

    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('JSON data points', () => {
  it('standardises points in W, kW, MW, Wh, kWh and MWh, case-insensitively', () => {
    const power = standardisePoints([
      { timestamp: '2024-01-01T00:00:00Z', value: 500, unit: 'W' },
      { timestamp: '2024-01-01T00:15:00Z', value: 1, unit: 'kw' },
      { timestamp: '2024-01-01T00:30:00+01:00', value: 0.002, unit: 'MW' },
    ]);
    const energy = standardisePoints([
      { timestamp: '2024-01-01T00:00:00Z', value: 250, unit: 'Wh' },
      { timestamp: '2024-01-01T00:15:00Z', value: 0.5, unit: 'KWH' },
      { timestamp: '2024-01-01T00:30:00Z', value: 0.00025, unit: 'MWh' },
    ]);

    expect(triples(power.rows)).toEqual([
      ['2023-12-31T23:30:00.000Z', 2, 0.5],
      ['2024-01-01T00:00:00.000Z', 0.5, 0.125],
      ['2024-01-01T00:15:00.000Z', 1, 0.25],
    ]);
    expect(triples(energy.rows)).toEqual([
      ['2024-01-01T00:00:00.000Z', 1, 0.25],
      ['2024-01-01T00:15:00.000Z', 2, 0.5],
      ['2024-01-01T00:30:00.000Z', 1, 0.25],
    ]);
    expect(energy.columns).toMatchObject({ valueKind: 'energy', unit: 'kWh' });
  });

  it('rejects points with a bad timestamp or value, naming them, and reads local times in the zone', () => {
    const file = standardisePoints(
      [
        { timestamp: '2024-07-01 12:00', value: 1, unit: 'kW' },
        { timestamp: 'soon', value: 1, unit: 'kW' },
        { timestamp: '2024-07-01 12:15', value: Number.NaN, unit: 'kW' },
      ],
      { timezone: 'Africa/Johannesburg', manufacturer: 'My Meter' },
    );

    expect(file.start).toBe('2024-07-01T10:00:00Z');
    expect(file.rowsRejected).toBe(2);
    expect(file.rejectReasons).toEqual(['point 2: timestamp "soon" not recognised', 'point 3: value is not a finite number']);
    expect(file.manufacturer).toBe('my-meter');
  });

  it('quotes at most 200 characters of a rejected cell, so a huge cell cannot outgrow the upload record', () => {
    const file = standardisePoints(
      [
        { timestamp: '2024-07-01T12:00:00Z', value: 1, unit: 'kW' },
        { timestamp: 'x'.repeat(1_000_000), value: 1, unit: 'kW' },
      ],
      { timezone: 'UTC' },
    );

    expect(file.rowsRejected).toBe(1);
    expect(file.rejectReasons[0]).toHaveLength(200);
    expect(file.rejectReasons[0]).toMatch(/^point 2: timestamp "x+…$/);
  });

  it('throws InvalidDataPoints for an unknown unit, for power mixed with energy, and for no points', () => {
    expect(() => standardisePoints([{ timestamp: '2024-01-01T00:00:00Z', value: 1, unit: 'A' }])).toThrow(
      new InvalidDataPoints('data point 1: unknown unit "A" (use W, kW, MW, Wh, kWh or MWh)'),
    );
    expect(() =>
      standardisePoints([
        { timestamp: '2024-01-01T00:00:00Z', value: 1, unit: 'kW' },
        { timestamp: '2024-01-01T00:15:00Z', value: 1, unit: 'kWh' },
      ]),
    ).toThrow(InvalidDataPoints);
    expect(() => standardisePoints([])).toThrow(InvalidDataPoints);
    const error = (() => {
      try {
        standardisePoints([{ timestamp: '2024-01-01T00:00:00Z', value: 1, unit: 'kVA' }]);
      } catch (e) {
        return e as InvalidDataPoints;
      }
    })();
    expect(error?.name).toBe('InvalidDataPoints');
  });
});
