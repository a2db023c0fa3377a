import { decodeEventKey, fileStamp, parseUploadKey, quarantineKey, seriesKey, slugSegment, uploadKey } from '../../shared/domain/uploads/object-keys';
import { encodeEventKey } from '../../local/s3-router';

describe('upload object keys', () => {
  it('slugs each segment: lower case, safe characters, no "..", never empty', () => {
    expect(slugSegment('Berlin Süd / Dach #2')).toBe('berlin-sud-dach-2');
    expect(slugSegment('../etc')).toBe('etc');
    expect(slugSegment('a..b')).toBe('a.b');
    expect(slugSegment('')).toBe('unknown');
    expect(slugSegment(undefined)).toBe('unknown');
    expect(slugSegment('SMA_Sunny-Boy.5')).toBe('sma_sunny-boy.5');
  });

  it('builds the layout of the spec with a UTC file stamp', () => {
    const at = new Date('2026-03-09T07:05:03.900Z');
    expect(fileStamp(at)).toBe('20260309_070503');
    expect(uploadKey({ kind: 'nowcast', customer: 'Cust 1', site: 'Roof', region: 'eu-central-1', location: 'Berlin', manufacturer: 'SMA', at })).toBe(
      'nowcast/cust-1/roof/eu-central-1/berlin/sma/20260309_070503_realtime.csv',
    );
    expect(uploadKey({ kind: 'historical', customer: 'c', site: 's', region: 'r', location: 'l', manufacturer: 'm', at })).toMatch(/_historical\.csv$/);
  });

  it('reads the parts back from a key in the layout and refuses others', () => {
    const key = 'historical/c1/s1/af-south-1/nairobi/huawei/20250101_000000_historical.csv';
    expect(parseUploadKey(key)).toEqual({ kind: 'historical', customer: 'c1', site: 's1', region: 'af-south-1', location: 'nairobi', manufacturer: 'huawei', at: new Date('2025-01-01T00:00:00Z') });
    expect(parseUploadKey('historical/c1/s1/r/l/m/20250101_000000_realtime.csv')).toBeUndefined();
    expect(parseUploadKey('nowcast/c1/s1/r/l/20250101_000000_realtime.csv')).toBeUndefined();
    expect(parseUploadKey('series/c1/s1/2025-01.csv')).toBeUndefined();
  });

  it('names derived objects', () => {
    expect(seriesKey('C 1', 'S', '2025-02')).toBe('series/c-1/s/2025-02.csv');
    expect(quarantineKey('nowcast/a.csv')).toBe('quarantine/nowcast/a.csv');
  });

  it('decodes event keys encoded as S3 encodes them', () => {
    const key = 'nowcast/my site/x+y (1).csv';
    expect(decodeEventKey(encodeEventKey(key))).toBe(key);
  });
});
