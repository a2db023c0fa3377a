/**
 * The MPC plans kept per device (operations table, one record per device): the latest plan, compact, and
 * how the measured SOC followed the plans; and the command that carries out the plan now.
 */
import { socHeadroom, type DeviceProfile } from '../../domain/dispatch/command-checks';
import { gridFollowingBatteryKw, plannedSetpoint, type StoredPlan } from '../../domain/dispatch/receding-horizon';
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

/** How a command carried out the plan: its battery power, or its grid power at the site's measured flows. */
export interface MpcSetpointUse {
  control: 'battery_power' | 'grid_power';
  planned_battery_kw: number;
  planned_grid_kw: number;
  measured_load_kw?: number;
  measured_solar_kw?: number;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * The command that carries out the device's plan now (POST /api/realtime-dispatch with use_mpc_setpoint):
 * the plan's battery power, or, given the site's measured load and solar, the battery power that holds the
 * meter at the plan's grid power within what the battery's power and SOC allow until the interval's end.
 */
export async function mpcSetpointCommand(caller: Caller, device: DeviceRecord, profile: DeviceProfile, measured?: { load_kw: number; solar_kw: number }, now = Date.now()) {
  const record = await mpcPlans.get(caller.accountId, device.device_id);
  const setpoint = record && plannedSetpoint(record.plan, now);
  if (!setpoint) throw new Conflict(`No MPC plan of device ${device.device_id} covers ${new Date(now).toISOString()}: POST /api/dispatch/mpc with its device_id first`);
  const hours = Math.max(1 / 3600, (setpoint.endMs - now) / 3_600_000);
  const batteryKw = measured
    ? gridFollowingBatteryKw(setpoint.gridKw, { loadKw: measured.load_kw, solarKw: measured.solar_kw }, {
        powerKw: profile.capacityKw,
        behindTheMeter: record.plan.behindTheMeter ?? false,
        ...socHeadroom(profile, record.plan.capacityKwh),
        hours,
      })
    : setpoint.batteryKw;
  const kw = Math.abs(batteryKw);
  const use: MpcSetpointUse = {
    control: measured ? 'grid_power' : 'battery_power',
    planned_battery_kw: round6(setpoint.batteryKw),
    planned_grid_kw: round6(setpoint.gridKw),
    ...(measured ? { measured_load_kw: measured.load_kw, measured_solar_kw: measured.solar_kw } : {}),
  };
  return {
    planId: record.plan_id,
    use,
    command: {
      action: kw < 1e-4 ? ('idle' as const) : batteryKw > 0 ? ('discharge' as const) : ('charge' as const),
      power_kw: round6(kw),
      // Until the plan's interval ends; the next MPC call sets the one after.
      duration_minutes: hours * 60,
      priority: 'normal' as const,
    },
  };
}
