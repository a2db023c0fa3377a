import { calendarFeatures, dayType, isPublicHoliday, publicHolidays, SATURDAY, SUNDAY_OR_HOLIDAY, UnknownTimeZone, WORKDAY } from '../../../shared/domain/forecasting/calendar';

const at = (iso: string) => Date.parse(iso);

describe('calendar features in the site zone', () => {
  it('follows London wall-clock hours across the spring change (01:00 GMT becomes 02:00 BST)', () => {
    const t = ['2024-03-31T00:00Z', '2024-03-31T00:30Z', '2024-03-31T01:00Z', '2024-03-31T01:30Z', '2024-03-31T12:00Z'].map(at);

    const cal = calendarFeatures(t, 'Europe/London');

    expect(cal.minuteOfDay).toEqual([0, 30, 120, 150, 13 * 60]);
    expect(cal.hour).toEqual([0, 0, 2, 2, 13]);
    expect(cal.weekday).toEqual([7, 7, 7, 7, 7]);
  });

  it('repeats the local 01:00 hour at the autumn change', () => {
    const t = ['2024-10-26T23:30Z', '2024-10-27T00:00Z', '2024-10-27T00:30Z', '2024-10-27T01:00Z', '2024-10-27T01:30Z'].map(at);

    const cal = calendarFeatures(t, 'Europe/London');

    expect(cal.minuteOfDay).toEqual([30, 60, 90, 60, 90]);
    expect(cal.hour).toEqual([0, 1, 1, 1, 1]);
  });

  it('puts an evening in New York on the previous local day and weekday, before and after its DST change', () => {
    const t = ['2024-03-10T03:00Z', '2024-03-11T03:00Z'].map(at);

    const cal = calendarFeatures(t, 'America/New_York');

    // 22:00 EST on Saturday 9 March, then 23:00 EDT on Sunday 10 March.
    expect(cal.hour).toEqual([22, 23]);
    expect(cal.weekday).toEqual([6, 7]);
    expect(cal.localDay[1] - cal.localDay[0]).toBe(1);
  });

  it('defaults to UTC', () => {
    const cal = calendarFeatures([at('2024-01-01T23:15Z')]);

    expect(cal).toEqual({ hour: [23], minuteOfDay: [23 * 60 + 15], weekday: [1], localDay: [19723], holiday: [0] });
  });

  it('rejects a zone luxon does not know', () => {
    expect(() => calendarFeatures([0], 'Mars/Olympus_Mons')).toThrow(UnknownTimeZone);
  });
});

describe('public holidays', () => {
  it('knows Christmas Day 2024 in Great Britain and in Germany, and German Unity Day only in Germany', () => {
    expect(isPublicHoliday('GB', '2024-12-25')).toBe(true);
    expect(isPublicHoliday('DE', '2024-12-25')).toBe(true);
    expect(isPublicHoliday('GB', '2024-12-26')).toBe(true);
    expect(isPublicHoliday('DE', '2024-10-03')).toBe(true);
    expect(isPublicHoliday('GB', '2024-10-03')).toBe(false);
  });

  it('does not count Christmas Eve in Germany, a bank half-day rather than a public holiday', () => {
    expect(isPublicHoliday('DE', '2024-12-24')).toBe(false);
  });

  it('reads a subdivision: Epiphany in Bavaria but not in Berlin', () => {
    expect(isPublicHoliday('DE-BY', '2024-01-06')).toBe(true);
    expect(isPublicHoliday('DE-BE', '2024-01-06')).toBe(false);
  });

  it('caches each country and year once', () => {
    expect(publicHolidays('GB', 2024)).toBe(publicHolidays('gb', 2024));
    expect(publicHolidays('GB', 2024)).not.toBe(publicHolidays('GB', 2025));
  });

  it('gives an unknown country no holidays', () => {
    expect(publicHolidays('XX', 2024).size).toBe(0);
  });

  it('flags a timestamp by its local date: 23:30 UTC on Christmas Eve is Christmas Day in Berlin', () => {
    const t = [at('2024-12-24T23:30Z')];

    expect(calendarFeatures(t, 'Europe/Berlin', 'DE').holiday).toEqual([1]);
    expect(calendarFeatures(t, 'UTC', 'DE').holiday).toEqual([0]);
    expect(calendarFeatures(t, 'Europe/Berlin').holiday).toEqual([0]);
  });
});

describe('day types', () => {
  it('treats a holiday like a Sunday', () => {
    expect(dayType(3, 0)).toBe(WORKDAY);
    expect(dayType(6, 0)).toBe(SATURDAY);
    expect(dayType(7, 0)).toBe(SUNDAY_OR_HOLIDAY);
    expect(dayType(3, 1)).toBe(SUNDAY_OR_HOLIDAY);
  });
});
