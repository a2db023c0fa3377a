import { createReadStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inspectCsvHead, standardiseCsv } from '../../../shared/domain/ingest';
import { iso, peakOf, VENDOR_FIXTURES, vendorFile } from './helpers';

const at = (rows: { t: number }[], instant: string) => rows.find((r) => r.t === Date.parse(instant));

describe('vendor exports', () => {
  it('reads an SMA Sunny Explorer export: preamble, stacked header, two inverters summed, decimal commas, counters', async () => {
    const file = await standardiseCsv(vendorFile('sma.csv'), { timezone: 'Europe/Berlin' });

    expect(file.detectedManufacturer).toBe('sma');
    expect(file.delimiter).toBe(';');
    expect(file.columns).toEqual({ timestamp: 'dd.MM.yyyy HH:mm:ss', value: 'Gesamtertrag', valueKind: 'cumulative_energy', unit: 'kWh', channels: {} });
    expect(file.notes).toContain('2 columns named "Gesamtertrag" (one per device) summed');
    expect(file.intervalMinutes).toBe(15);
    expect(file.rowsRead).toBe(96);
    // 13:30 CEST: (23477.596 - 23476.571) + (18782.077 - 18781.257) = 1.845 kWh in 15 minutes.
    expect(at(file.rows, '2024-06-15T11:30:00Z')).toEqual({ t: Date.parse('2024-06-15T11:30:00Z'), power_kw: 7.38, energy_kwh: 1.845 });
    expect(file.rows[0]).toEqual({ t: Date.parse('2024-06-14T22:00:00Z'), power_kw: null, energy_kwh: null });
  });

  it('reads a Fronius Solar.web export with its units row and German decimal commas', async () => {
    const file = await standardiseCsv(vendorFile('fronius.csv'), { timezone: 'Europe/Vienna' });

    expect(file.detectedManufacturer).toBe('fronius');
    expect(file.delimiter).toBe(';');
    expect(file.columns).toMatchObject({ timestamp: 'Datum und Uhrzeit', value: 'PV Leistung', valueKind: 'power', unit: 'W' });
    // "15.06.2024 12:00;1568;1568;6270,91" in Vienna summer time.
    expect(at(file.rows, '2024-06-15T10:00:00Z')).toMatchObject({ power_kw: 6.27091, energy_kwh: 1.5677275 });
  });

  it('reads a SolarEdge portal export with month-first US dates', async () => {
    const file = await standardiseCsv(vendorFile('solaredge.csv'), { timezone: 'America/Los_Angeles' });

    expect(file.detectedManufacturer).toBe('solaredge');
    expect(file.columns).toMatchObject({ timestamp: 'Time', value: 'System Production (Wh)', valueKind: 'energy', unit: 'Wh' });
    expect(file.notes).toContain('dates read as MM/DD/YYYY HH:mm (values above 12 show the order)');
    // "06/15/2024 12:00,1455,...": 1455 Wh in 15 minutes is 5.82 kW on average.
    expect(at(file.rows, '2024-06-15T19:00:00Z')).toMatchObject({ power_kw: 5.82, energy_kwh: 1.455 });
  });

  it('reads an Enphase Enlighten report: quoted thousands separators, hourly rows, a Total row skipped', async () => {
    const file = await standardiseCsv(vendorFile('enphase.csv'), { timezone: 'America/New_York' });

    expect(file.detectedManufacturer).toBe('enphase');
    expect(file.columns).toMatchObject({ timestamp: 'Date/Time', value: 'Energy Produced (Wh)', valueKind: 'energy', unit: 'Wh' });
    expect(file.intervalMinutes).toBe(60);
    expect(file.rowsRead).toBe(24);
    expect(file.rowsRejected).toBe(0);
    expect(file.notes).toContain('1 summary row ("Total", ...) skipped');
    // No day above 12 in "06/05/2024": month first, as Enlighten writes it.
    expect(file.notes).toContain('dates read as MM/DD/YYYY (no value above 12; month first as this portal writes it)');
    // "06/05/2024 13:00,"5,084"": 5,084 Wh in one hour, 13:00 EDT.
    expect(at(file.rows, '2024-06-05T17:00:00Z')).toMatchObject({ power_kw: 5.084, energy_kwh: 5.084 });
    expect(file.rows.reduce((sum, r) => sum + (r.energy_kwh ?? 0), 0)).toBeCloseTo(44.86, 9);
  });

  it('reads a Huawei FusionSolar history with DST-marked times and its reactive power, PF and temperature', async () => {
    const file = await standardiseCsv(vendorFile('huawei.csv'), { timezone: 'Europe/Berlin' });

    expect(file.detectedManufacturer).toBe('huawei');
    expect(file.columns).toEqual({
      timestamp: 'Start Time',
      value: 'Active power(kW)',
      valueKind: 'power',
      unit: 'kW',
      channels: { kvarh: 'Output reactive power(kvar)', pf: 'Power factor', temperature_c: 'Internal temperature(℃)' },
    });
    // "2024-06-15 12:00:00 DST,...,7.708,29.68,0.385,0.999,7.906,41.0": kvar over 15 minutes is kvarh.
    expect(at(file.rows, '2024-06-15T10:00:00Z')).toEqual({
      t: Date.parse('2024-06-15T10:00:00Z'),
      power_kw: 7.708,
      energy_kwh: 1.927,
      channels: { kvarh: 0.09625, pf: 0.999, temperature_c: 41 },
    });
  });

  it('reads a generic meter export with offsets and every optional channel', async () => {
    const file = await standardiseCsv(vendorFile('generic.csv'));

    expect(file.detectedManufacturer).toBe('generic');
    expect(file.columns.channels).toEqual({
      kvarh: 'reactive_energy_kvarh',
      kva: 'apparent_power_kva',
      pf: 'power_factor',
      temperature_c: 'module_temperature_c',
      irradiance_wm2: 'irradiance_wm2',
    });
    expect(file.columns).toMatchObject({ value: 'active_power_kw', valueKind: 'power', unit: 'kW' });
    expect(at(file.rows, '2024-06-15T10:00:00Z')).toEqual({
      t: Date.parse('2024-06-15T10:00:00Z'),
      power_kw: 8.523,
      energy_kwh: 2.13075,
      channels: { kvarh: 0.0852, kva: 8.609, pf: 0.99, temperature_c: 41.6, irradiance_wm2: 915.3 },
    });
  });

  it('records a manufacturer given by the caller, slugged, while parsing by content', async () => {
    const file = await standardiseCsv(vendorFile('huawei.csv'), { manufacturer: 'Huawei FusionSolar', timezone: 'Europe/Berlin' });

    expect(file.manufacturer).toBe('huawei-fusionsolar');
    expect(file.detectedManufacturer).toBe('huawei');
    expect(file.columns.value).toBe('Active power(kW)');
  });

  it.each([
    ['sma.csv', 'sma', ';', 'Gesamtertrag'],
    ['fronius.csv', 'fronius', ';', 'PV Leistung'],
    ['solaredge.csv', 'solaredge', ',', 'System Production (Wh)'],
    ['enphase.csv', 'enphase', ',', 'Energy Produced (Wh)'],
    ['huawei.csv', 'huawei', ',', 'Active power(kW)'],
    ['generic.csv', 'generic', ',', 'active_power_kw'],
  ])('recognises %s from its first lines alone', (name, manufacturer, delimiter, valueColumn) => {
    const head = readFileSync(path.join(VENDOR_FIXTURES, name), 'utf8').slice(0, 700);

    const inspection = inspectCsvHead(head, { truncated: true });

    expect(inspection).toMatchObject({ manufacturer, delimiter, valueColumn });
  });
});

// NREL PVDAQ system 50 (SERF East, Golden, Colorado), AC power in W with local time and offset, as shipped in
// pvlib/pvanalytics `pvanalytics/data/serf_east_15min_ac_power.csv` (MIT licence). The fixture is its first 3 days.
describe('real data: NREL SERF East', () => {
  it('reads the 3-day slice: 15-minute interval, offsets honoured over the zone option, W inferred, night draw kept', async () => {
    const file = await standardiseCsv(vendorFile('nrel-pvdaq-serf-east-3days.csv'), { timezone: 'Europe/Berlin' });

    expect(file.intervalMinutes).toBe(15);
    expect(file.rows).toHaveLength(288);
    // "2016-07-01 00:00:00-07:00": the offset wins over the (wrong) zone option.
    expect(file.start).toBe('2016-07-01T07:00:00Z');
    expect(file.end).toBe('2016-07-04T06:45:00Z');
    expect(file.columns).toMatchObject({ timestamp: 'measured_on', value: 'ac_power', valueKind: 'power', unit: 'W' });
    expect(file.notes).toContain('the header names no unit: W assumed from the magnitude (peak 4841 >= 1000; give capacityKw to confirm)');
    const peak = peakOf(file.rows);
    expect([iso(peak.t), peak.power_kw]).toEqual(['2016-07-03T18:45:00.000Z', 4.841]);
    expect(file.rows[0].power_kw).toBe(-0.0028601);
    expect(file.rowsRejected).toBe(0);
  });

  const fullFile = '/work/shared/data/solar/serf_east_15min_ac_power.csv';
  (existsSync(fullFile) ? it : it.skip)('reads the whole published file (10,000 rows) with its peak of 5,426.4 W', async () => {
    const file = await standardiseCsv(createReadStream(fullFile, { highWaterMark: 4096 }), { capacityKw: 5 });

    expect(file.rowsRead).toBe(10000);
    expect(file.rows).toHaveLength(10000);
    expect(file.intervalMinutes).toBe(15);
    expect(file.columns.unit).toBe('W');
    const peak = peakOf(file.rows);
    expect([iso(peak.t), peak.power_kw]).toEqual(['2016-09-22T18:30:00.000Z', 5.4264]);
    expect(file.end).toBe('2016-10-13T10:45:00Z');
  });
});
