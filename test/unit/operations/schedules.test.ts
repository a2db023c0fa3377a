import {
  MAINTENANCE_TYPES,
  parseIsoInstant,
  PRIORITIES,
  REASON_MAX_LENGTH,
  validateScheduleCreation,
} from '../../../shared/domain/operations/schedules';

const NOW = new Date('2026-11-22T09:00:00Z');
const valid = { maintenance_type: 'preventive', scheduled_date: '2026-11-29T09:00:00Z', priority: 'medium', reason: 'Annual inspection' };
const check = (overrides: Record<string, unknown>) => validateScheduleCreation({ ...valid, ...overrides }, NOW);
const problemsOf = (overrides: Record<string, unknown>) => {
  const result = check(overrides);
  return result.ok ? [] : result.problems;
};
const dateOf = (scheduled_date: string) => {
  const result = check({ scheduled_date });
  return result.ok ? result.value.scheduled_date : result.problems.map((p) => p.message).join('; ');
};

describe('schedule creation', () => {
  it('exports the values the spec allows', () => {
    expect(MAINTENANCE_TYPES).toEqual(['preventive', 'corrective', 'emergency']);
    expect(PRIORITIES).toEqual(['high', 'medium', 'low']);
  });

  it('accepts a valid schedule and normalises it: lower-case values, trimmed reason, UTC date', () => {
    const result = check({ maintenance_type: 'Corrective', priority: ' HIGH ', reason: '  Inverter trips at noon \n', scheduled_date: '2031-06-01T10:00:00+02:00' });

    expect(result).toEqual({ ok: true, value: { maintenance_type: 'corrective', priority: 'high', reason: 'Inverter trips at noon', scheduled_date: '2031-06-01T08:00:00Z' } });
  });

  it('returns every scheduled_date in UTC with Z', () => {
    expect(dateOf('2027-01-15')).toBe('2027-01-15T00:00:00Z');
    expect(dateOf('2027-01-15T10:30Z')).toBe('2027-01-15T10:30:00Z');
    expect(dateOf('2027-01-15T10:30:00-05:00')).toBe('2027-01-15T15:30:00Z');
    expect(dateOf('2027-01-15T10:30:00+0530')).toBe('2027-01-15T05:00:00Z');
    expect(dateOf('2027-01-15T10:30:00.25Z')).toBe('2027-01-15T10:30:00.250Z');
    expect(dateOf('2027-01-15T10:30:00.123456Z')).toBe('2027-01-15T10:30:00.123Z');
  });

  it('names a missing field with the spec message', () => {
    const { reason: _reason, ...withoutReason } = valid;

    expect(validateScheduleCreation(withoutReason, NOW)).toEqual({ ok: false, problems: [{ field: 'reason', code: 'missing', message: 'Missing required field: reason' }] });
    expect(problemsOf({ reason: '   ' })).toEqual([{ field: 'reason', code: 'missing', message: 'Missing required field: reason' }]);
    expect(problemsOf({ priority: null })).toEqual([{ field: 'priority', code: 'missing', message: 'Missing required field: priority' }]);
  });

  it('says which values are allowed when one is not', () => {
    expect(problemsOf({ maintenance_type: 'weekly_magic' })).toEqual([
      { field: 'maintenance_type', code: 'invalid', message: 'maintenance_type must be one of preventive, corrective, emergency; got "weekly_magic"' },
    ]);
    expect(problemsOf({ priority: 'urgent' })).toEqual([{ field: 'priority', code: 'invalid', message: 'priority must be one of high, medium, low; got "urgent"' }]);
    expect(problemsOf({ priority: 1 })[0].message).toBe('priority must be one of high, medium, low (a string)');
  });

  it('quotes at most 60 characters of a wrong value back', () => {
    const message = problemsOf({ maintenance_type: 'x'.repeat(10_000) })[0].message;

    expect(message).toBe(`maintenance_type must be one of preventive, corrective, emergency; got "${'x'.repeat(58)}…`);
  });

  it('reports every problem at once, in field order', () => {
    const result = validateScheduleCreation({ maintenance_type: 'x', scheduled_date: 'tomorrow', priority: 'x' }, NOW);

    expect(result.ok ? [] : result.problems.map((p) => [p.field, p.code])).toEqual([
      ['maintenance_type', 'invalid'],
      ['scheduled_date', 'invalid'],
      ['priority', 'invalid'],
      ['reason', 'missing'],
    ]);
  });

  it('accepts a date up to one day in the past and refuses an earlier one, naming the earliest', () => {
    expect(dateOf('2026-11-21T09:00:00Z')).toBe('2026-11-21T09:00:00Z');
    expect(dateOf('2026-11-22')).toBe('2026-11-22T00:00:00Z'); // today, as a date
    expect(dateOf('2026-11-21T08:59:59Z')).toBe('scheduled_date is more than 1 day in the past; give a date from 2026-11-21T09:00:00Z on (got "2026-11-21T08:59:59Z")');
  });

  it('accepts a date up to five years ahead and refuses a later one, naming the latest', () => {
    expect(dateOf('2031-11-22T09:00:00Z')).toBe('2031-11-22T09:00:00Z');
    expect(dateOf('2031-11-22T09:00:01Z')).toBe('scheduled_date is more than 5 years ahead; give a date up to 2031-11-22T09:00:00Z (got "2031-11-22T09:00:01Z")');
  });

  it('refuses a date-time without a time zone, saying how to add one', () => {
    expect(dateOf('2027-01-15T10:00:00')).toBe('scheduled_date needs a time zone: end it with Z or an offset such as +02:00; got "2027-01-15T10:00:00"');
  });

  it('refuses text that is not an ISO 8601 date, and dates the calendar does not have', () => {
    expect(dateOf('next tuesday')).toMatch(/^scheduled_date must be an ISO 8601 date \(2031-06-01\) or date-time with an offset/);
    expect(dateOf('15/01/2027')).toMatch(/must be an ISO 8601 date/);
    expect(dateOf('2027-02-29')).toBe('scheduled_date is not a calendar date: 2027-02-29; got "2027-02-29"');
    expect(dateOf('2028-02-29')).toBe('2028-02-29T00:00:00Z');
    expect(dateOf('2027-13-01T00:00:00Z')).toMatch(/is not a calendar date: 2027-13-01/);
    expect(dateOf('2027-01-15T24:00:00Z')).toMatch(/has no such time of day: 24:00:00/);
    expect(dateOf('2027-01-15T10:00:00+25:00')).toMatch(/has an impossible offset: \+25:00/);
    expect(problemsOf({ scheduled_date: 1_800_000_000_000 })[0].message).toBe('scheduled_date must be an ISO 8601 string, e.g. 2031-06-01T10:00:00Z');
  });

  it('reads ISO years literally, not as 19xx', () => {
    expect(parseIsoInstant('0050-01-01')).toBe(Date.parse('0050-01-01T00:00:00Z'));
    expect(new Date(parseIsoInstant('0050-01-01T12:00:00Z') as number).getUTCFullYear()).toBe(50);
  });

  it('limits the reason to its maximum length', () => {
    expect(check({ reason: 'x'.repeat(REASON_MAX_LENGTH) }).ok).toBe(true);
    expect(problemsOf({ reason: 'x'.repeat(REASON_MAX_LENGTH + 1) })).toEqual([
      { field: 'reason', code: 'invalid', message: `reason must be at most ${REASON_MAX_LENGTH} characters; got ${REASON_MAX_LENGTH + 1}` },
    ]);
  });
});
