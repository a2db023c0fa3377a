/** Success bodies of the asset-operations endpoints (SPEC 2 resources, 4.3): one schema per action, a union per route. */
import * as z from 'zod';
import { terminalAnswer, terminalList, timestamp } from './common';
import { RecentDeliveries } from './webhooks';

const PRIORITY = z.enum(['high', 'medium', 'low']);
const MAINTENANCE_TYPE = z.enum(['preventive', 'corrective', 'emergency']);

export const Asset = z
  .looseObject({
    asset_id: z.string(),
    name: z.string(),
    type: z.string(),
    capacity_kw: z.number(),
    location: z.string(),
    components: z.array(z.looseObject({ oem: z.string(), model: z.string(), serial: z.string() })).optional(),
    created_at: timestamp(),
  })
  .meta({ id: 'Asset' });

export const TerminalAssetsResponse = z
  .union([
    terminalAnswer({ message: z.string(), asset_id: z.string() }).meta({ title: 'add' }),
    terminalList('assets', Asset).meta({ title: 'list' }),
    terminalAnswer({ asset: Asset }).meta({ title: 'get' }),
  ])
  .meta({ id: 'TerminalAssetsResponse' });

const Schedule = z
  .looseObject({ schedule_id: z.string(), asset_id: z.string(), maintenance_type: MAINTENANCE_TYPE, scheduled_date: timestamp(), priority: PRIORITY, status: z.string(), reason: z.string() })
  .meta({ id: 'MaintenanceSchedule' });

export const TerminalScheduleResponse = z
  .union([
    terminalAnswer({ message: z.string(), schedule_id: z.string(), asset_id: z.string(), scheduled_date: timestamp() }).meta({ title: 'create' }),
    terminalList('schedules', Schedule).meta({ title: 'list' }),
  ])
  .meta({ id: 'TerminalScheduleResponse' });

const BomItem = z.looseObject({ part_number: z.string(), description: z.string(), quantity: z.number().int(), unit_cost: z.number(), total_cost: z.number() });

export const TerminalBomResponse = z
  .union([
    terminalAnswer({
      message: z.string(),
      bom_id: z.string(),
      asset_id: z.string(),
      items: z.array(BomItem),
      total_cost: z.number(),
      indicative: z.boolean().optional().meta({ description: 'Parts and prices are catalogue values, not a quote.' }),
      currency: z.string().optional(),
    }).meta({ title: 'generate' }),
    terminalList('boms', z.looseObject({ bom_id: z.string(), asset_id: z.string(), generated_at: timestamp(), total_cost: z.number(), item_count: z.number().int() })).meta({ title: 'list' }),
  ])
  .meta({ id: 'TerminalBomResponse' });

const WorkOrder = z.looseObject({ order_id: z.string(), asset_id: z.string(), status: z.string(), created_at: timestamp(), estimated_completion: timestamp() }).meta({ id: 'WorkOrder' });

export const TerminalOrderResponse = z
  .union([
    terminalAnswer({ message: z.string(), order_id: z.string(), asset_id: z.string(), status: z.literal('pending'), estimated_completion: timestamp() }).meta({ title: 'create' }),
    terminalList('orders', WorkOrder).meta({ title: 'list' }),
    terminalAnswer({ message: z.string(), order_id: z.string(), asset_id: z.string(), status: z.enum(['in_progress', 'completed', 'cancelled']), updated_at: timestamp() }).meta({ title: 'update' }),
  ])
  .meta({ id: 'TerminalOrderResponse' });

export const TerminalTrackResponse = z
  .union([
    terminalAnswer({
      message: z.string(),
      subscription_id: z.string(),
      order_id: z.string(),
      status: z.literal('active'),
      secret: z.string().optional().meta({ description: 'The signing secret, shown once when the service generated it.' }),
    }).meta({ title: 'subscribe' }),
    terminalList('subscriptions', z.looseObject({ subscription_id: z.string(), order_id: z.string(), callback_url: z.url(), status: z.string(), created_at: timestamp(), recent_deliveries: RecentDeliveries })).meta({ title: 'list' }),
  ])
  .meta({ id: 'TerminalTrackResponse' });

export const TerminalDetectResponse = z
  .union([
    terminalAnswer({ message: z.string(), detection_id: z.string(), asset_id: z.string(), anomalies_detected: z.number().int(), status: z.literal('completed') }).meta({ title: 'run' }),
    terminalList('detections', z.looseObject({ detection_id: z.string(), asset_id: z.string(), detected_at: timestamp(), anomalies_detected: z.number().int(), severity: z.string() })).meta({ title: 'list' }),
  ])
  .meta({ id: 'TerminalDetectResponse' });

export const TerminalDiagnoseResponse = z
  .union([
    terminalAnswer({
      message: z.string(),
      diagnostic_id: z.string(),
      asset_id: z.string(),
      root_cause: z.string(),
      confidence: z.number(),
      status: z.literal('completed'),
      energy_at_risk_kw: z.number().optional().meta({ description: 'Over all diagnosed faults, shared hours counted once.' }),
      energy_lost_kwh: z.number().optional(),
      faults: z.array(z.looseObject({ family: z.string(), confidence: z.number(), energy_at_risk_kw: z.number(), energy_lost_kwh: z.number() })).optional(),
    }).meta({ title: 'run' }),
    terminalList(
      'diagnostics',
      z.looseObject({ diagnostic_id: z.string(), asset_id: z.string(), diagnosed_at: timestamp(), root_cause: z.string(), confidence: z.number(), severity: z.string() }),
    ).meta({ title: 'list' }),
  ])
  .meta({ id: 'TerminalDiagnoseResponse' });

/** SPEC section 2 "OODA summary". */
const OodaSummary = z
  .looseObject({
    summary_id: z.string(),
    asset_id: z.string(),
    created_at: timestamp(),
    last_detection_at: timestamp(),
    model_version: z.string(),
    fault_family: z.string(),
    severity_label: z.string(),
    confidence: z.number().min(0).max(1),
    energy_at_risk_kw: z.number(),
    root_cause: z.string(),
    recommended_actions: z.array(z.looseObject({ priority: PRIORITY, action: z.string() })),
    detections: z.array(z.string()),
  })
  .meta({ id: 'OodaSummary' });

export const TerminalOodaResponse = terminalAnswer({ customer_id: z.string(), ml_enhanced_activities: z.array(OodaSummary), count: z.number().int() }).meta({ id: 'TerminalOodaResponse' });

/** SPEC section 2 "Stored interpolation result"; weather means are null where no weather was used. */
const StoredInterpolationResult = z
  .looseObject({
    result_id: z.string(),
    site_id: z.string().nullable(),
    processed_at: timestamp(),
    method: z.string(),
    asset_ids: z.array(z.string()),
    data_window: z.looseObject({ start: timestamp(), end: timestamp() }),
    gap_statistics: z.looseObject({ total_gaps: z.number().int(), average_gap_minutes: z.number(), largest_gap_minutes: z.number(), coverage_improvement_percent: z.number() }),
    performance_metrics: z.looseObject({ rmse_kw: z.number().nullable(), mae_kw: z.number().nullable(), r2_score: z.number().nullable(), nrmse_percent: z.number().nullable() }),
    weather_features: z.looseObject({ mean_temperature_c: z.number().nullable(), mean_irradiance_wm2: z.number().nullable() }),
  })
  .meta({ id: 'StoredInterpolationResult' });

export const TerminalInterpolationResponse = terminalAnswer({ customer_id: z.string(), interpolation_results: z.array(StoredInterpolationResult), count: z.number().int() }).meta({
  id: 'TerminalInterpolationResponse',
});
