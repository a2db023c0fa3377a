/**
 * The MPC plans kept per device (operations table, one record per device): the latest plan, compact, and
 * how the measured SOC followed the plans; and the command that carries out the plan now.
 */
import { plannedSetpoint, type StoredPlan } from '../../domain/dispatch/receding-horizon';
import { Conflict } from '../../errors';
import type { Caller } from '../../access/authentication';
import { operationsCollection } from '../../store/operations-repo';
import type { DeviceRecord } from '../../store/tenants-repo';

/** Plan-against-actual points kept per device, newest first. */
export const MPC_TRACKING_POINTS = 500;

export interface MpcTrackingPoint {
  timestamp: string;
  measured_soc: number;
  /** What the previous plan expected at this instant (null when it did not reach it). */
  planned_soc: number | null;
  plan_id: string | null;
}

export interface MpcPlanRecord {
  account_id: string;
  device_id: string;
  plan_id: string;
  created_at: string;
  plan: StoredPlan;
  tracking?: MpcTrackingPoint[];
}

export const mpcPlans = operationsCollection<MpcPlanRecord>('MPC_PLAN', (r) => r.device_id, 'created_at');

/** The command that carries out the device's plan now (POST /api/realtime-dispatch with use_mpc_setpoint). */
export async function mpcSetpointCommand(caller: Caller, device: DeviceRecord, now = Date.now()) {
  const record = await mpcPlans.get(caller.accountId, device.device_id);
  const setpoint = record && plannedSetpoint(record.plan, now);
  if (!setpoint) throw new Conflict(`No MPC plan of device ${device.device_id} covers ${new Date(now).toISOString()}: POST /api/dispatch/mpc with its device_id first`);
  const kw = Math.abs(setpoint.batteryKw);
  return {
    plan_id: record.plan_id,
    command: {
      action: kw < 1e-4 ? ('idle' as const) : setpoint.batteryKw > 0 ? ('discharge' as const) : ('charge' as const),
      power_kw: Math.round(kw * 1e6) / 1e6,
      // Until the plan's interval ends; the next MPC call sets the one after.
      duration_minutes: Math.max(1 / 60, (setpoint.endMs - now) / 60_000),
      priority: 'normal' as const,
    },
  };
}
