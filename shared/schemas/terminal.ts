/**
 * Bodies of the asset-operations endpoints (SPEC 4.3), one schema per action: each route's body is a
 * union on `action`, and an action the route does not have is the spec's 400 "Invalid action". Missing
 * fields get the spec's "Missing required field: <name>". Fields the services check only after the asset
 * or order is found (so an unknown asset is a 404 before any 400, with the domain's own messages) are
 * declared here for the document and the types, and left unchecked: `checkedLater`.
 */
import * as z from 'zod';
import type { oas31 } from 'zod-openapi';
import { MAINTENANCE_TYPES, PRIORITIES } from '../domain/operations/schedules';
import { exact } from '../validation';
import { AddAssetRequest } from './assets';
import { idSchema } from './accounts';

const INVALID_ACTION = exact('Invalid action');
const missingField = (name: string) => exact(`Missing required field: ${name}`);
const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * `schema` first (a null or a number gets its message), then absent or blank is "Missing required field:
 * <name>". A pipe, not a refinement: zod skips the refinements of an optional field that is absent.
 */
function present<T extends z.ZodType<string | undefined>>(name: string, schema: T) {
  const message = missingField(name);
  const presentText = z.string({ error: message }).refine((s) => s.trim() !== '', { error: message }) as unknown as z.ZodType<string, z.output<T>>;
  return schema.pipe(presentText);
}

/** Absent, null or blank is "Missing required field: <name>" first; then `schema`. */
function required<T extends z.ZodType>(name: string, schema: T) {
  const message = missingField(name);
  return z.preprocess((value, ctx) => {
    if (isBlank(value)) ctx.addIssue({ code: 'custom', message, input: value });
    return value;
  }, schema);
}

/** A field a service validates after its lookup; `doc` is what the API document shows. */
const checkedLater = (doc: oas31.SchemaObject) => z.unknown().optional().meta({ override: doc });

/** A route body dispatched on `action`; a missing, non-string or unknown action is "Invalid action". */
const byAction = <const O extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]>(options: O) => z.discriminatedUnion('action', options, { error: INVALID_ACTION });

const action = <A extends string>(name: A) => z.literal(name);
/** The asset an action works on (ownership is checked by the service: 404 "Asset not found"). */
const assetId = () => present('asset_id', z.string().max(128).optional());
const optionalAssetId = () => z.string().max(128).optional();
/** The work order an action works on; any value but absent, null or blank is looked up as its text. */
const orderId = () =>
  required('order_id', z.unknown())
    .transform((v) => String(v).trim())
    .meta({ override: { type: 'string', description: 'Required: the work order.' } }) as unknown as z.ZodType<string, string>;

const maintenanceType: oas31.SchemaObject = { type: 'string', enum: [...MAINTENANCE_TYPES], description: 'Required.' };
const priority: oas31.SchemaObject = { type: 'string', enum: [...PRIORITIES], description: 'Required.' };

// /terminal/assets: `add` has no lookup before it, so its fields are all checked here.
const assetRef = () => present('asset_id', idSchema().optional());
const ADD_REQUIRED = ['name', 'type', 'capacity_kw', 'location'] as const;
export const AddAsset = AddAssetRequest.extend({ action: action('add'), asset_id: assetRef() });
export const ListAssets = z.object({ action: action('list'), asset_id: idSchema().optional() }).loose();
export const GetAsset = z.object({ action: action('get'), asset_id: assetRef() }).loose();
/** The spec lists the missing field first: once asset_id is there, an absent, null or blank field of `add` is named before any other problem. */
export const AssetsRequest = z.preprocess((body, ctx) => {
  const fields = body as Record<string, unknown>;
  if (fields.action === 'add' && assetRef().safeParse(fields.asset_id).success) {
    const missing = ADD_REQUIRED.find((name) => isBlank(fields[name]));
    if (missing) ctx.addIssue({ code: 'custom', message: missingField(missing), path: [missing], input: fields[missing] });
  }
  return body;
}, byAction([AddAsset, ListAssets, GetAsset]));

// /terminal/schedule (Decide): the creation fields are validated by the domain (shared/domain/operations/schedules.ts).
export const CreateSchedule = z
  .object({
    action: action('create'),
    asset_id: assetId(),
    maintenance_type: checkedLater(maintenanceType),
    scheduled_date: checkedLater({ type: 'string', description: 'Required. ISO 8601 date or date-time with an offset, from one day ago to five years ahead.' }),
    priority: checkedLater(priority),
    reason: checkedLater({ type: 'string', maxLength: 1000, description: 'Required.' }),
  })
  .loose();
export const ListSchedules = z.object({ action: action('list'), asset_id: assetId() }).loose();
export const ScheduleRequest = byAction([CreateSchedule, ListSchedules]);

// /terminal/bom (Decide)
export const GenerateBom = z
  .object({
    action: action('generate'),
    asset_id: assetId(),
    maintenance_type: checkedLater(maintenanceType),
    schedule_id: checkedLater({ type: 'string', description: 'Optional: the schedule the bill is for (404 when it is not this asset\'s).' }),
  })
  .loose();
export const ListBoms = z.object({ action: action('list'), asset_id: assetId() }).loose();
export const BomRequest = byAction([GenerateBom, ListBoms]);

// /terminal/order (Act); `update` is ours (ARCHITECTURE 9): the spec names create and list only.
export const CreateOrder = z
  .object({
    action: action('create'),
    asset_id: assetId(),
    schedule_id: checkedLater({ type: 'string', description: 'Required.' }),
    bom_id: checkedLater({ type: 'string', description: 'Required.' }),
    assigned_technician: checkedLater({ type: 'string', description: 'Required.' }),
    estimated_duration_hours: checkedLater({ type: 'number', exclusiveMinimum: 0, description: 'Required.' }),
    priority: checkedLater(priority),
  })
  .loose();
export const ListOrders = z.object({ action: action('list'), asset_id: assetId() }).loose();
/** Anything but a non-blank string is missing here: the order id and status are text. */
const requiredText = (name: string) => {
  const message = missingField(name);
  return z.string({ error: message }).refine((s) => s.trim() !== '', { error: message, abort: true }).transform((s) => s.trim());
};
export const UpdateOrder = z
  .object({
    action: action('update'),
    asset_id: optionalAssetId(),
    order_id: requiredText('order_id'),
    status: requiredText('status').meta({ description: 'in_progress, completed or cancelled (409 `Invalid status transition` where the current status does not allow it).' }),
    completion_notes: checkedLater({ type: 'string', maxLength: 2000, description: 'Optional; kept to its first 2000 characters.' }),
  })
  .loose();
export const OrderRequest = byAction([CreateOrder, ListOrders, UpdateOrder]);

// /terminal/track: the order is looked up before the callback is checked.
export const Subscribe = z
  .object({
    action: action('subscribe'),
    order_id: orderId(),
    callback_url: checkedLater({ type: 'string', format: 'uri', description: 'Required: an https URL the status changes are POSTed to.' }),
    secret: checkedLater({ type: 'string', description: 'Optional: `whsec_` and base64 (Standard Webhooks); generated and shown once when absent.' }),
  })
  .loose();
export const ListSubscriptions = z.object({ action: action('list'), order_id: orderId() }).loose();
export const TrackRequest = byAction([Subscribe, ListSubscriptions]);

// /terminal/detect (Observe) and /terminal/diagnose (Orient): `list` filters by asset when one is given.
export const RunOnAsset = z.object({ action: action('run'), asset_id: assetId() }).loose();
export const ListForAsset = z.object({ action: action('list'), asset_id: optionalAssetId() }).loose();
export const DetectRequest = byAction([RunOnAsset, ListForAsset]);
export const DiagnoseRequest = byAction([RunOnAsset, ListForAsset]);

// The stored-results endpoints: a customer_id, required or optional per endpoint; trimmed.
export const TerminalCustomerRequest = z.object({ customer_id: present('customer_id', z.string().max(128).optional()).transform((s) => s.trim()) }).loose();
export const TerminalCustomerFilter = z.object({ customer_id: z.string().max(128).optional().transform((s) => s?.trim() || undefined) }).loose();

export type CreateScheduleInput = z.infer<typeof CreateSchedule>;
export type GenerateBomInput = z.infer<typeof GenerateBom>;
export type CreateOrderInput = z.infer<typeof CreateOrder>;
export type UpdateOrderInput = z.infer<typeof UpdateOrder>;
export type SubscribeInput = z.infer<typeof Subscribe>;
