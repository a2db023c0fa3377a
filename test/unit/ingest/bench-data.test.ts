import { parse } from 'csv-parse/sync';
import { inChunks, YEAR_OF_5_MINUTE_OPTIONS, yearOf5MinuteCsv } from '../../../bench/ingest-data';
import { standardiseCsv } from '../../../shared/domain/ingest';

describe('benchmark input: a year of 5-minute data', () => {
  const csv = yearOf5MinuteCsv();

  it('is one header row and 105,120 rows of one width, under the 6 MB request limit', () => {
    const records = parse(csv) as string[][];

    expect(records).toHaveLength(105_121);
    expect(new Set(records.map((r) => r.length))).toEqual(new Set([4]));
    expect(Buffer.byteLength(csv)).toBeLessThan(6 * 1024 * 1024);
    expect(yearOf5MinuteCsv()).toBe(csv);
  });

  it('standardises to every 5-minute interval of 2023 in Berlin, the repeated hour placed by its DST marker', async () => {
    const file = await standardiseCsv(inChunks(csv), YEAR_OF_5_MINUTE_OPTIONS);

    expect(file.detectedManufacturer).toBe('huawei');
    expect(file.rows).toHaveLength(105_120);
    expect([file.rowsRejected, file.duplicatesMerged, file.offGridRows]).toEqual([0, 0, 0]);
    expect(file.intervalMinutes).toBe(5);
    expect([file.start, file.end]).toEqual(['2022-12-31T23:00:00Z', '2023-12-31T22:55:00Z']);
    expect(file.notes).toContain('24 rows in the repeated autumn hour placed by their DST marker');
    const yearKwh = file.rows.reduce((sum, r) => sum + (r.energy_kwh ?? 0), 0);
    // About 870 kWh per kWp: a plausible year for 8 kW in Berlin.
    expect(yearKwh).toBeGreaterThan(6500);
    expect(yearKwh).toBeLessThan(7500);
  });
});
