/**
 * Work orders, Act stage of the OODA loop (SPEC "Work order", 4.3 /terminal/order; ARCHITECTURE 7 and 9):
 * the status machine, the estimated completion and the validation of an order's creation fields.
 */
import { invalid, isProblem, missing, oneOf, PRIORITIES, requiredText, shown, type WorkPriority, type Problem, type Validation } from './schedules';
import { HOUR_MS } from '../time';

export const ORDER_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * ARCHITECTURE 9: `pending -> in_progress -> completed`, and `pending|in_progress -> cancelled`. Nothing
 * else: not the same state, not backward, nothing out of `completed` or `cancelled`.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['in_progress', 'cancelled'],
  in_progress: ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
};

/** The caller answers 409 with this message when `canTransition` refuses (ARCHITECTURE 9). */
export const INVALID_TRANSITION_MESSAGE = 'Invalid status transition';

export const isOrderStatus = (value: unknown): value is OrderStatus => typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);

/** Whether an order may move from `from` to `to`; false for any status outside ORDER_STATUSES. */
export const canTransition = (from: string, to: string): boolean => isOrderStatus(from) && isOrderStatus(to) && ORDER_TRANSITIONS[from].includes(to);

/**
 * Hours from an order's creation until work starts: the response time of its priority. High is an
 * emergency-style same-shift response; medium next day; low within the working week.
 */
export const START_DELAY_HOURS: Readonly<Record<WorkPriority, number>> = { high: 4, medium: 24, low: 72 };

/** Longest duration an order may estimate (30 days): longer jobs are split into several orders. */
export const MAX_ESTIMATED_DURATION_HOURS = 720;

/**
 * When the work should be done: `createdAt` + START_DELAY_HOURS[priority] + `estimatedDurationHours`, all in
 * wall-clock hours. Wall-clock, not working hours: an asset carries a free-text location and no time zone,
 * so a working-day calendar would be a guess, and plant crews and emergency call-outs work outside office hours.
 * Throws RangeError for a duration outside (0, MAX_ESTIMATED_DURATION_HOURS], an invalid date or priority.
 */
export function estimatedCompletion(createdAt: Date, estimatedDurationHours: number, priority: WorkPriority): Date {
  if (Number.isNaN(createdAt.getTime())) throw new RangeError('createdAt is not a valid date');
  if (!(estimatedDurationHours > 0 && estimatedDurationHours <= MAX_ESTIMATED_DURATION_HOURS)) {
    throw new RangeError(`estimatedDurationHours must be above 0 and at most ${MAX_ESTIMATED_DURATION_HOURS}`);
  }
  if (!PRIORITIES.includes(priority)) throw new RangeError(`priority must be one of ${PRIORITIES.join(', ')}`);
  return new Date(createdAt.getTime() + Math.round((START_DELAY_HOURS[priority] + estimatedDurationHours) * HOUR_MS));
}

export interface OrderCreation {
  schedule_id: string;
  bom_id: string;
  assigned_technician: string;
  estimated_duration_hours: number;
  priority: WorkPriority;
}

/** Characters of the ids (as caller-chosen ids elsewhere) and of the technician's name, after trimming. */
export const ORDER_ID_MAX_LENGTH = 128;
export const TECHNICIAN_MAX_LENGTH = 200;

function durationHours(value: unknown): number | Problem {
  const field = 'estimated_duration_hours';
  if (value === undefined || value === null) return missing(field);
  if (typeof value !== 'number' || !Number.isFinite(value)) return invalid(field, `must be a number of hours, e.g. 4; got ${shown(value)}`);
  if (value <= 0) return invalid(field, `must be above 0; got ${value}`);
  if (value > MAX_ESTIMATED_DURATION_HOURS) return invalid(field, `must be at most ${MAX_ESTIMATED_DURATION_HOURS} (30 days); split longer work into several orders (got ${value})`);
  return value;
}

/**
 * Checks the creation fields of a work order (SPEC 4.3 /terminal/order, action create) and normalises them:
 * `schedule_id`, `bom_id` (at most ORDER_ID_MAX_LENGTH) and `assigned_technician` (at most
 * TECHNICIAN_MAX_LENGTH) non-blank strings, trimmed; `estimated_duration_hours` a number in
 * (0, MAX_ESTIMATED_DURATION_HOURS]; `priority` one of PRIORITIES, case-insensitive. Whether the schedule
 * and the BOM exist is the service's question. Every problem is reported, in field order.
 */
export function validateOrderCreation(input: Record<string, unknown>): Validation<OrderCreation> {
  const schedule_id = requiredText('schedule_id', input.schedule_id, ORDER_ID_MAX_LENGTH);
  const bom_id = requiredText('bom_id', input.bom_id, ORDER_ID_MAX_LENGTH);
  const assigned_technician = requiredText('assigned_technician', input.assigned_technician, TECHNICIAN_MAX_LENGTH);
  const estimated_duration_hours = durationHours(input.estimated_duration_hours);
  const priority = oneOf('priority', input.priority, PRIORITIES);
  if (isProblem(schedule_id) || isProblem(bom_id) || isProblem(assigned_technician) || isProblem(estimated_duration_hours) || isProblem(priority)) {
    return { ok: false, problems: [schedule_id, bom_id, assigned_technician, estimated_duration_hours, priority].filter(isProblem) };
  }
  return { ok: true, value: { schedule_id, bom_id, assigned_technician, estimated_duration_hours, priority } };
}
