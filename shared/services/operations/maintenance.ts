/**
 * Decide and Act of the maintenance loop (SPEC 4.3): schedules, bills of materials, work orders with the
 * status changes of ARCHITECTURE 9, and the tracking subscriptions whose callbacks receive each change
 * (through the event bus and the webhook queue: `order.status_changed`).
 */
import { randomUUID } from 'node:crypto';
import { STANDARD_SECRET, newWebhookSecret } from '../../domain/webhooks/signing';
import { BadRequest, Conflict, NotFound } from '../../errors';
import { generateBom } from '../../domain/operations/bom';
import { MAINTENANCE_TYPES, validateScheduleCreation, type MaintenanceType, type WorkPriority, type Validation } from '../../domain/operations/schedules';
import { canTransition, estimatedCompletion, INVALID_TRANSITION_MESSAGE, isOrderStatus, validateOrderCreation, type OrderStatus } from '../../domain/operations/work-orders';
import { config } from '../../config';
import { callbackUrlProblem } from '../../domain/webhooks/callback-url';
import { publishEvent } from '../../events/event-bus';
import type { CreateOrderInput, CreateScheduleInput, GenerateBomInput, SubscribeInput, UpdateOrderInput } from '../../schemas/terminal';
import type { AssetRecord } from '../../store/assets-repo';
import { insertSubscription, listSubscriptions, operationsCollection, type TrackingSubscription } from '../../store/operations-repo';

const now = () => new Date().toISOString();
const publicRecord = <T extends { account_id: string }>({ account_id: _a, ...rest }: T) => rest;

/** The value, or the first problem as the 400 (the spec's "Missing required field: ..." where one is missing), all problems in details. */
function validated<T>(v: Validation<T>): T {
  if (v.ok) return v.value;
  throw new BadRequest(v.problems[0].message, { problems: v.problems });
}

interface ScheduleRecord {
  schedule_id: string;
  account_id: string;
  asset_id: string;
  maintenance_type: MaintenanceType;
  scheduled_date: string;
  priority: WorkPriority;
  reason: string;
  status: 'pending';
  created_at: string;
}

interface BomRecord {
  bom_id: string;
  account_id: string;
  asset_id: string;
  schedule_id?: string;
  maintenance_type: MaintenanceType;
  items: ReturnType<typeof generateBom>['items'];
  total_cost: number;
  total_cost_cents: number;
  /** Catalogue parts and prices, not a quote; absent on records stored before it was recorded. */
  indicative?: true;
  currency?: string;
  item_count: number;
  generated_at: string;
}

interface OrderRecord {
  order_id: string;
  account_id: string;
  asset_id: string;
  schedule_id: string;
  bom_id: string;
  assigned_technician: string;
  estimated_duration_hours: number;
  priority: WorkPriority;
  status: OrderStatus;
  created_at: string;
  updated_at: string;
  estimated_completion: string;
  completion_notes?: string;
  history: { status: OrderStatus; at: string; notes?: string }[];
}

const schedules = operationsCollection<ScheduleRecord>('SCHEDULE', (r) => r.schedule_id, 'created_at');
const boms = operationsCollection<BomRecord>('BOM', (r) => r.bom_id, 'generated_at');
const orders = operationsCollection<OrderRecord>('ORDER', (r) => r.order_id, 'created_at');

// Schedules

export async function createSchedule(asset: AssetRecord, body: CreateScheduleInput) {
  const input = validated(validateScheduleCreation(body));
  const record: ScheduleRecord = { schedule_id: `sch_${randomUUID()}`, account_id: asset.account_id, asset_id: asset.asset_id, ...input, status: 'pending', created_at: now() };
  await schedules.insert(record);
  return { success: true, message: `${input.maintenance_type} maintenance scheduled`, schedule_id: record.schedule_id, asset_id: asset.asset_id, scheduled_date: record.scheduled_date };
}

export async function listSchedules(asset: AssetRecord) {
  const items = (await schedules.list(asset.account_id, (s) => s.asset_id === asset.asset_id)).map(({ schedule_id, asset_id, maintenance_type, scheduled_date, priority, status, reason, created_at }) => ({ schedule_id, asset_id, maintenance_type, scheduled_date, priority, status, reason, created_at }));
  return { success: true, schedules: items, count: items.length };
}

// Bills of materials

export async function createBom(asset: AssetRecord, body: GenerateBomInput) {
  if (body.maintenance_type === undefined || body.maintenance_type === null || body.maintenance_type === '') throw new BadRequest('Missing required field: maintenance_type');
  if (!(MAINTENANCE_TYPES as readonly unknown[]).includes(body.maintenance_type)) throw new BadRequest(`maintenance_type must be one of ${MAINTENANCE_TYPES.join(', ')}`);
  const scheduleId = typeof body.schedule_id === 'string' && body.schedule_id.trim() ? body.schedule_id.trim() : undefined;
  if (scheduleId) {
    const schedule = await schedules.get(asset.account_id, scheduleId);
    if (!schedule || schedule.asset_id !== asset.asset_id) throw new NotFound('Schedule not found');
  }
  const bom = generateBom({ asset, maintenanceType: body.maintenance_type as MaintenanceType });
  const record: BomRecord = {
    bom_id: `bom_${randomUUID()}`,
    account_id: asset.account_id,
    asset_id: asset.asset_id,
    ...(scheduleId ? { schedule_id: scheduleId } : {}),
    maintenance_type: body.maintenance_type as MaintenanceType,
    items: bom.items,
    total_cost: bom.total_cost,
    total_cost_cents: bom.total_cost_cents,
    indicative: bom.indicative,
    currency: bom.currency,
    item_count: bom.items.length,
    generated_at: now(),
  };
  await boms.insert(record);
  return {
    success: true,
    message: `Bill of materials for ${record.maintenance_type} maintenance generated (indicative catalogue parts and ${bom.currency} prices, not a quote)`,
    bom_id: record.bom_id,
    asset_id: asset.asset_id,
    items: record.items,
    total_cost: record.total_cost,
    indicative: bom.indicative,
    currency: bom.currency,
  };
}

export async function listBoms(asset: AssetRecord) {
  const items = (await boms.list(asset.account_id, (b) => b.asset_id === asset.asset_id)).map(({ bom_id, asset_id, generated_at, total_cost, item_count, maintenance_type, schedule_id, currency }) => ({
    bom_id,
    asset_id,
    generated_at,
    total_cost,
    item_count,
    maintenance_type,
    ...(schedule_id ? { schedule_id } : {}),
    // Every stored BOM was priced from the catalogue, in its currency.
    indicative: true,
    currency: currency ?? 'USD',
  }));
  return { success: true, boms: items, count: items.length };
}

// Work orders

export async function createOrder(asset: AssetRecord, body: CreateOrderInput) {
  const input = validated(validateOrderCreation(body));
  const [schedule, bom] = await Promise.all([schedules.get(asset.account_id, input.schedule_id), boms.get(asset.account_id, input.bom_id)]);
  if (!schedule || schedule.asset_id !== asset.asset_id) throw new NotFound('Schedule not found');
  if (!bom || bom.asset_id !== asset.asset_id) throw new NotFound('BOM not found');
  const created = new Date();
  const record: OrderRecord = {
    order_id: `ord_${randomUUID()}`,
    account_id: asset.account_id,
    asset_id: asset.asset_id,
    ...input,
    status: 'pending',
    created_at: created.toISOString(),
    updated_at: created.toISOString(),
    estimated_completion: estimatedCompletion(created, input.estimated_duration_hours, input.priority).toISOString(),
    history: [{ status: 'pending', at: created.toISOString() }],
  };
  await orders.insert(record);
  return { success: true, message: 'Work order created', order_id: record.order_id, asset_id: asset.asset_id, status: record.status, estimated_completion: record.estimated_completion };
}

const orderView = ({ history: _h, ...order }: OrderRecord) => publicRecord(order);

export async function listOrders(asset: AssetRecord) {
  const items = (await orders.list(asset.account_id, (o) => o.asset_id === asset.asset_id)).map(orderView);
  return { success: true, orders: items, count: items.length };
}

async function ownedOrder(accountId: string, orderId: string): Promise<OrderRecord> {
  const order = await orders.get(accountId, orderId);
  if (!order) throw new NotFound('Order not found');
  return order;
}

/** ARCHITECTURE 9: action `update` (order_id and status present, trimmed); the change is conditional on the status read, so two updates cannot both apply. */
export async function updateOrder(accountId: string, body: UpdateOrderInput) {
  const order = await ownedOrder(accountId, body.order_id);
  if (body.asset_id && body.asset_id !== order.asset_id) throw new NotFound('Order not found');
  const status = body.status;
  if (!isOrderStatus(status)) throw new BadRequest(`status must be one of in_progress, completed, cancelled`);
  if (!canTransition(order.status, status)) throw new Conflict(INVALID_TRANSITION_MESSAGE);
  const notes = typeof body.completion_notes === 'string' ? body.completion_notes.slice(0, 2000) : '';
  const at = now();
  const applied = await orders.update(accountId, order.order_id, { status, updated_at: at, completion_notes: notes, history: [...order.history, { status, at, ...(notes ? { notes } : {}) }] }, { field: 'status', equals: order.status });
  if (!applied) throw new Conflict(INVALID_TRANSITION_MESSAGE);
  await publishEvent('order.status_changed', accountId, { order_id: order.order_id, status, updated_at: at, completion_notes: notes });
  return { success: true, message: `Work order ${status.replace('_', ' ')}`, order_id: order.order_id, asset_id: order.asset_id, status, updated_at: at };
}

// Tracking subscriptions


export async function subscribe(accountId: string, body: SubscribeInput) {
  const order = await ownedOrder(accountId, body.order_id);
  if (typeof body.callback_url !== 'string' || !body.callback_url.trim()) throw new BadRequest('Missing required field: callback_url');
  const problem = callbackUrlProblem(body.callback_url.trim(), config().CALLBACK_HOSTS);
  if (problem) throw new BadRequest('Invalid callback URL', { reason: problem });
  if (body.secret !== undefined && (typeof body.secret !== 'string' || !STANDARD_SECRET.test(body.secret))) throw new BadRequest('secret must be whsec_ followed by base64 (Standard Webhooks)');
  const generated = body.secret === undefined;
  const record: TrackingSubscription = {
    subscription_id: `sub_${randomUUID()}`,
    account_id: accountId,
    order_id: order.order_id,
    callback_url: body.callback_url.trim(),
    secret: generated ? newWebhookSecret() : (body.secret as string),
    status: 'active',
    created_at: now(),
  };
  await insertSubscription(record);
  return {
    success: true,
    message: 'Subscribed to work order status changes',
    subscription_id: record.subscription_id,
    order_id: order.order_id,
    status: record.status,
    // Shown once: deliveries to this callback are signed with it (ARCHITECTURE 9).
    ...(generated ? { secret: record.secret } : {}),
  };
}

export async function listTracking(accountId: string, orderId: string) {
  const order = await ownedOrder(accountId, orderId);
  const items = (await listSubscriptions(accountId, order.order_id)).map(({ secret: _s, recent_deliveries = [], recent_deliveries_version: _v, ...s }) => ({ ...publicRecord(s), recent_deliveries }));
  return { success: true, subscriptions: items, count: items.length };
}
