import { standardiseCsv } from '../../../shared/domain/ingest';
import { chunked, standardiseText, triples } from './helpers';

describe('reading CSV text', () => {
  it.each([
    [',', 'time,Power (kW)\n2024-06-01 10:00,1.5\n2024-06-01 10:15,2.5\n'],
    [';', 'time;Power (kW)\n2024-06-01 10:00;1.5\n2024-06-01 10:15;2.5\n'],
    ['\t', 'time\tPower (kW)\n2024-06-01 10:00\t1.5\n2024-06-01 10:15\t2.5\n'],
  ])('detects the delimiter %j', async (delimiter, text) => {
    const file = await standardiseText(text);

    expect(file.delimiter).toBe(delimiter);
    expect(triples(file.rows)).toEqual([
      ['2024-06-01T10:00:00.000Z', 1.5, 0.375],
      ['2024-06-01T10:15:00.000Z', 2.5, 0.625],
    ]);
  });

  it('reads decimal commas in semicolon files, with thousands dots', async () => {
    const file = await standardiseText('Zeitstempel;Leistung [W]\n01.06.2024 10:00;1.234,5\n01.06.2024 10:15;2,25\n01.06.2024 10:30;3\n');

    expect(file.rows.map((r) => r.power_kw)).toEqual([1.2345, 0.00225, 0.003]);
  });

  it('does not take a quoted decimal comma for a delimiter, nor a comma inside quotes for a field break', async () => {
    const file = await standardiseText('"Time stamp","Note","Power, AC (kW)"\n"2024-06-01 10:00","cloudy, then sun","1.5"\n"2024-06-01 10:15","a ""quoted"" note; really","2.5"\n');

    expect(file.columns.value).toBe('Power, AC (kW)');
    expect(file.rows.map((r) => r.power_kw)).toEqual([1.5, 2.5]);
  });

  it('skips a UTF-8 byte order mark, preamble lines, blank lines and trailing empty lines', async () => {
    const text = '\uFEFFPlant: Roof East\nExported on 2024-06-02 by the logger\nSerial,12345\n\nTime stamp,PAC [W]\n2024-06-01 10:00,1000\n\n2024-06-01 10:15,2000\n\n\n,,\n';

    const file = await standardiseText(text);

    expect(file.columns).toMatchObject({ timestamp: 'Time stamp', value: 'PAC [W]', unit: 'W' });
    expect(triples(file.rows)).toEqual([
      ['2024-06-01T10:00:00.000Z', 1, 0.25],
      ['2024-06-01T10:15:00.000Z', 2, 0.5],
    ]);
    expect(file.rowsRead).toBe(2);
    expect(file.rowsRejected).toBe(0);
  });

  it('reads Latin-1 files (Windows exports) and UTF-16 files with a byte order mark', async () => {
    const text = 'Zeit;Temperatur (°C);Leistung [kW]\r\n01.06.2024 10:00;21,5;1,5\r\n01.06.2024 10:15;22,5;2,5\r\n';
    const latin1 = await standardiseCsv(chunked(Buffer.from(text, 'latin1'), 5));
    const utf16 = await standardiseCsv(chunked(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 5));

    for (const file of [latin1, utf16]) {
      expect(file.columns.channels).toEqual({ temperature_c: 'Temperatur (°C)' });
      expect(file.rows.map((r) => [r.power_kw, r.channels?.temperature_c])).toEqual([
        [1.5, 21.5],
        [2.5, 22.5],
      ]);
    }
  });

  it('reads a file without a header row from its content', async () => {
    const file = await standardiseText('2024-06-01T10:00:00Z,0.5\n2024-06-01T10:15:00Z,0.75\n2024-06-01T10:30:00Z,1\n');

    expect(file.columns).toMatchObject({ timestamp: 'column 1', value: 'column 2', unit: 'kW' });
    expect(file.notes).toContain('no header row: columns recognised from their content');
    expect(file.rows.map((r) => r.power_kw)).toEqual([0.5, 0.75, 1]);
  });

  it('finds a date column and a separate time column, with 12-hour times', async () => {
    const file = await standardiseText('Date,Time,Energy (kWh)\n06/15/2024,11:45 AM,1\n06/15/2024,12:00 PM,2\n06/15/2024,12:15 PM,3\n');

    expect(file.columns.timestamp).toBe('Date + Time');
    expect(triples(file.rows)).toEqual([
      ['2024-06-15T11:45:00.000Z', 4, 1],
      ['2024-06-15T12:00:00.000Z', 8, 2],
      ['2024-06-15T12:15:00.000Z', 12, 3],
    ]);
  });
});

describe('streaming', () => {
  // More than 64 KB, so the layout is fixed from the head and the rest streams through csv-parse.
  const rows = 2800; // 29 days of June
  const line = (i: number) => {
    const minutes = i * 15;
    const day = 1 + Math.floor(minutes / 1440);
    const stamp = `${String(day).padStart(2, '0')}.06.2024 ${String(Math.floor((minutes % 1440) / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    const note = i % 97 === 0 ? '"Wartung;\nWechselrichter neu gestartet"' : '"Süd; ☀ klar, Module sauber"';
    const power = i === 2500 ? 'n/a ☀' : `${(i % 40) / 10}`.replace('.', ',');
    return `${stamp};${note};${power}`;
  };
  const text = ['Zeitstempel;Bemerkung;Leistung [kW]', ...Array.from({ length: rows }, (_, i) => line(i))].join('\n') + '\n';
  const bytes = Buffer.from(text, 'utf8');
  // The bad row: its physical line counts the header and the line breaks inside earlier quoted notes.
  const badLine = 2 + 2500 + Math.floor(2499 / 97) + 1;

  it('gives the same series for one chunk and for small chunks cut inside characters and quoted fields', async () => {
    const sun = bytes.indexOf('☀', 70_000); // a 3-byte character after the 64 KB head
    const quote = bytes.indexOf('"Wartung', 80_000);
    async function* cutAt(points: number[]): AsyncGenerator<Buffer> {
      let from = 0;
      for (const point of [...points, bytes.length]) {
        yield bytes.subarray(from, point);
        from = point;
      }
    }
    const whole = await standardiseCsv(chunked(bytes, bytes.length));

    const small = await standardiseCsv(chunked(bytes, 7));
    const cut = await standardiseCsv(cutAt([1000, 65_537, sun + 1, sun + 2, quote + 5, quote + 12]));

    expect(bytes.length).toBeGreaterThan(100_000);
    expect(whole.rows).toHaveLength(rows - 1);
    for (const file of [small, cut]) {
      expect(file.rows).toEqual(whole.rows);
      expect(file.rejectReasons).toEqual([`line ${badLine}: "n/a ☀" in "Leistung [kW]" is not a number`]);
    }
  });

  it('accepts string chunks as well as Buffers', async () => {
    async function* strings() {
      for (let i = 0; i < text.length; i += 1000) yield text.slice(i, i + 1000);
    }

    const file = await standardiseCsv(strings());

    expect(file.rows).toHaveLength(rows - 1);
    expect(file.rows[1]).toEqual({ t: Date.parse('2024-06-01T00:15:00Z'), power_kw: 0.1, energy_kwh: 0.025 });
  });
});

describe('ragged rows', () => {
  it('reads rows that leave out the empty trailing columns the header names', async () => {
    const file = await standardiseText('time,Power (kW),Temperature (C),Note\n2024-06-01 10:00,1.5\n2024-06-01 10:15,2.5,21\n2024-06-01 10:30,3,22,ok\n');

    expect(file.columns.channels).toEqual({ temperature_c: 'Temperature (C)' });
    expect(file.rows.map((r) => [r.power_kw, r.channels?.temperature_c])).toEqual([
      [1.5, undefined],
      [2.5, 21],
      [3, 22],
    ]);
  });
});
