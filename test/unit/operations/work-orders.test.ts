import {
  canTransition,
  estimatedCompletion,
  isOrderStatus,
  MAX_ESTIMATED_DURATION_HOURS,
  ORDER_STATUSES,
  validateOrderCreation,
} from '../../../shared/domain/operations/work-orders';
import type { WorkPriority } from '../../../shared/domain/operations/schedules';

describe('work order status transitions', () => {
  // ARCHITECTURE 9: pending -> in_progress -> completed, pending|in_progress -> cancelled; nothing else.
  const ALLOWED = new Set(['pending>in_progress', 'in_progress>completed', 'pending>cancelled', 'in_progress>cancelled']);
  const pairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const));

  it('knows the four statuses', () => {
    expect(ORDER_STATUSES).toEqual(['pending', 'in_progress', 'completed', 'cancelled']);
    expect(isOrderStatus('in_progress')).toBe(true);
    expect(isOrderStatus('done')).toBe(false);
  });

  it.each(pairs)('allows %s -> %s only when the table does', (from, to) => {
    expect(canTransition(from, to)).toBe(ALLOWED.has(`${from}>${to}`));
  });

  it('allows exactly four of the sixteen moves', () => {
    expect(pairs.filter(([from, to]) => canTransition(from, to))).toEqual([
      ['pending', 'in_progress'],
      ['pending', 'cancelled'],
      ['in_progress', 'completed'],
      ['in_progress', 'cancelled'],
    ]);
  });

  it('refuses same-state, backward and terminal moves', () => {
    expect(canTransition('pending', 'pending')).toBe(false);
    expect(canTransition('in_progress', 'pending')).toBe(false);
    expect(canTransition('pending', 'completed')).toBe(false);
    expect(canTransition('completed', 'in_progress')).toBe(false);
    expect(canTransition('cancelled', 'in_progress')).toBe(false);
  });

  it('refuses statuses it does not know', () => {
    expect(canTransition('pending', 'done')).toBe(false);
    expect(canTransition('open', 'in_progress')).toBe(false);
    expect(canTransition('toString', 'in_progress')).toBe(false);
  });
});

describe('estimated completion', () => {
  const CREATED = new Date('2026-11-22T09:00:00Z');
  const done = (hours: number, priority: WorkPriority) => estimatedCompletion(CREATED, hours, priority).toISOString();

  it('starts high priority after 4 h, then counts the duration in wall-clock hours', () => {
    expect(done(4, 'high')).toBe('2026-11-22T17:00:00.000Z');
  });

  it('starts medium priority after 24 h', () => {
    expect(done(4, 'medium')).toBe('2026-11-23T13:00:00.000Z');
  });

  it('starts low priority after 72 h', () => {
    expect(done(4, 'low')).toBe('2026-11-25T13:00:00.000Z');
  });

  it('counts fractional and multi-day durations straight through nights and weekends', () => {
    expect(done(1.5, 'high')).toBe('2026-11-22T14:30:00.000Z');
    expect(done(48, 'high')).toBe('2026-11-24T13:00:00.000Z');
  });

  it('refuses durations outside (0, the maximum] and an invalid creation date', () => {
    expect(() => estimatedCompletion(CREATED, 0, 'high')).toThrow(RangeError);
    expect(() => estimatedCompletion(CREATED, Number.NaN, 'high')).toThrow(RangeError);
    expect(() => estimatedCompletion(CREATED, MAX_ESTIMATED_DURATION_HOURS + 1, 'high')).toThrow(RangeError);
    expect(() => estimatedCompletion(new Date('not a date'), 4, 'high')).toThrow(/createdAt/);
    expect(() => estimatedCompletion(CREATED, 4, 'urgent' as WorkPriority)).toThrow(/priority/);
  });
});

describe('work order creation', () => {
  const valid = { schedule_id: 'sch-1', bom_id: 'bom-1', assigned_technician: 'A. Technician', estimated_duration_hours: 4, priority: 'high' };
  const problemsOf = (overrides: Record<string, unknown>) => {
    const result = validateOrderCreation({ ...valid, ...overrides });
    return result.ok ? [] : result.problems;
  };

  it('accepts a valid order, trimmed and with a lower-case priority', () => {
    expect(validateOrderCreation({ ...valid, assigned_technician: '  A. Technician ', priority: 'Low' })).toEqual({ ok: true, value: { ...valid, priority: 'low' } });
  });

  it('names a missing field with the spec message', () => {
    const { assigned_technician: _t, ...withoutTechnician } = valid;

    expect(validateOrderCreation(withoutTechnician)).toEqual({
      ok: false,
      problems: [{ field: 'assigned_technician', code: 'missing', message: 'Missing required field: assigned_technician' }],
    });
    expect(problemsOf({ schedule_id: '' })).toEqual([{ field: 'schedule_id', code: 'missing', message: 'Missing required field: schedule_id' }]);
  });

  it('wants the duration as a number of hours above 0 and at most 720', () => {
    expect(problemsOf({ estimated_duration_hours: '4' })[0].message).toBe('estimated_duration_hours must be a number of hours, e.g. 4; got "4"');
    expect(problemsOf({ estimated_duration_hours: 0 })[0].message).toBe('estimated_duration_hours must be above 0; got 0');
    expect(problemsOf({ estimated_duration_hours: 721 })[0].message).toBe('estimated_duration_hours must be at most 720 (30 days); split longer work into several orders (got 721)');
    expect(problemsOf({ estimated_duration_hours: 720 })).toEqual([]);
  });

  it('reports a wrong priority and over-long ids, every problem at once', () => {
    expect(problemsOf({ priority: 'urgent', bom_id: 'b'.repeat(129), assigned_technician: 7 }).map((p) => p.message)).toEqual([
      'bom_id must be at most 128 characters; got 129',
      'assigned_technician must be a string',
      'priority must be one of high, medium, low; got "urgent"',
    ]);
  });
});
