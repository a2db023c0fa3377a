/**
 * Receding-horizon dispatch (POST /api/dispatch/mpc, GET /api/dispatch/mpc/{device_id}): a plan from the
 * measured state of charge to the horizon and the set-point of its first interval. With a device the plan is
 * kept, so the next call warm-starts from it, /api/realtime-dispatch can send its set-point, and the plan can
 * be read back beside what was measured.
 */
import { randomUUID } from 'node:crypto';
import { defaultTerminalValue, plannedSocAt, shiftedStart, storedPlan } from '../../domain/dispatch/receding-horizon';
import { BadRequest, Conflict } from '../../errors';
import type { Caller } from '../../access/authentication';
import type { DispatchOptimizationRequest, MpcRequest } from '../../schemas/dispatch';
import { BATTERY_DEFAULTS } from '../../schemas/dispatch';
import { saveDeviceState, type DeviceRecord } from '../../store/tenants-repo';
import { ownedDevice } from '../accounts/tenants';
import { dispatchResult, withDispatchErrors } from './dispatch';
import { MPC_TRACKING_POINTS, mpcPlans, type MpcTrackingPoint } from './mpc-plans';
import { dispatchProblem, socTargetsOf } from './problem-of-request';

/** The interval the MPC plans from when no start_time is given: the one now in progress. */
const currentIntervalStart = (intervalMinutes: number, now = Date.now()) => Math.floor(now / (intervalMinutes * 60_000)) * intervalMinutes * 60_000;

/** The battery as the request gives it, or as the device was registered. */
function systemConfigOf(body: MpcRequest, device: DeviceRecord | undefined): Omit<DispatchOptimizationRequest['system_config'], 'initial_soc'> {
  if (body.system_config) return body.system_config;
  if (!device?.energy_capacity_kwh) throw new BadRequest('system_config is required unless device_id names a device registered with energy_capacity_kwh');
  return {
    battery_capacity_kwh: device.energy_capacity_kwh,
    battery_power_kw: device.capacity_kw,
    battery_min_soc: device.min_soc ?? BATTERY_DEFAULTS.battery_min_soc,
    battery_max_soc: device.max_soc ?? BATTERY_DEFAULTS.battery_max_soc,
    roundtrip_efficiency: device.roundtrip_efficiency ?? BATTERY_DEFAULTS.roundtrip_efficiency,
  };
}

export async function runMpc(caller: Caller, body: MpcRequest) {
  const device = body.device_id === undefined ? undefined : await ownedDevice(caller, body.device_id);
  const soc = body.current_soc ?? device?.state?.soc;
  if (soc === undefined) throw new BadRequest('current_soc is required: give the measured state of charge, or a device_id whose last reported state has one');
  const system = systemConfigOf(body, device);
  if (soc < system.battery_min_soc - 1e-9 || soc > system.battery_max_soc + 1e-9) {
    throw new BadRequest(`current_soc (${soc}) is outside [battery_min_soc ${system.battery_min_soc}, battery_max_soc ${system.battery_max_soc}]`);
  }
  const opt = body.optimization_config;
  const startMs = opt.start_time ? Date.parse(opt.start_time) : currentIntervalStart(opt.interval_minutes);
  const previous = device && (await mpcPlans.get(caller.accountId, device.device_id));

  const request: DispatchOptimizationRequest = { ...body, system_config: { ...system, initial_soc: soc } };
  const answer = await withDispatchErrors(async () => {
    const built = dispatchProblem(request, startMs);
    const problem = {
      ...built.problem,
      socTargets: socTargetsOf(body.soc_targets, startMs, opt.interval_minutes),
      ...(body.forecasts.solar_forecast_scenarios?.length ? { solarScenarios: body.forecasts.solar_forecast_scenarios } : {}),
      ...(opt.terminal_soc === 'free' && opt.terminal_value_per_kwh === undefined ? { terminalValuePerKwh: defaultTerminalValue(built.problem) } : {}),
    };
    const warm = previous && shiftedStart(previous.plan, problem, startMs);
    const solved = await dispatchResult(request, { ...built, problem }, startMs, warm);
    return { ...solved, warm: !!warm, terminalValue: problem.terminalValuePerKwh };
  });

  const first = answer.result.dispatch_schedule[0];
  const stepMs = opt.interval_minutes * 60_000;
  const nextSetpoint = {
    timestamp: first.timestamp,
    valid_until: new Date(startMs + stepMs).toISOString(),
    battery_power_kw: first.battery_power,
    grid_power_kw: first.grid_power,
    soc_target: first.soc,
    action: first.action,
  };
  const planId = `mpc_${randomUUID()}`;
  const now = new Date().toISOString();
  if (device) {
    const planned = previous ? plannedSocAt(previous.plan, startMs) : undefined;
    const point: MpcTrackingPoint = { timestamp: new Date(startMs).toISOString(), measured_soc: soc, planned_soc: planned ?? null, plan_id: previous?.plan_id ?? null };
    const tracking = [point, ...(previous?.tracking ?? [])].slice(0, MPC_TRACKING_POINTS);
    await mpcPlans.put({ account_id: caller.accountId, device_id: device.device_id, plan_id: planId, created_at: now, plan: storedPlan(answer.outcome.optimised, startMs), tracking });
    if (body.current_soc !== undefined) await saveDeviceState(device.device_id, { ...device.state, soc, measured_at: now, source: 'reported', command_id: undefined });
  }
  return {
    status: 'success',
    plan_id: planId,
    ...(device ? { device_id: device.device_id } : {}),
    current_soc: soc,
    soc_source: body.current_soc !== undefined ? 'request' : 'device_state',
    terminal_value_per_kwh: answer.terminalValue ?? null,
    solar_scenarios: body.forecasts.solar_forecast_scenarios?.length ?? 0,
    warm_start: answer.warm,
    next_setpoint: nextSetpoint,
    plan: answer.result,
  };
}

/** The device's latest plan (per interval) and how measured SOC followed the plans, newest first. */
export async function mpcPlanOf(caller: Caller, deviceId: string) {
  const device = await ownedDevice(caller, deviceId);
  const record = await mpcPlans.get(caller.accountId, device.device_id);
  if (!record) throw new Conflict(`No MPC plan for device ${device.device_id}: POST /api/dispatch/mpc with its device_id first`);
  const p = record.plan;
  const stepMs = p.intervalMinutes * 60_000;
  return {
    status: 'success',
    device_id: device.device_id,
    plan_id: record.plan_id,
    created_at: record.created_at,
    interval_minutes: p.intervalMinutes,
    plan: p.socKwh.map((s, t) => ({
      timestamp: new Date(p.startMs + t * stepMs).toISOString(),
      battery_power_kw: p.discharge[t] - p.charge[t],
      grid_power_kw: p.import[t] - p.export[t],
      soc: s / p.capacityKwh,
    })),
    tracking: record.tracking ?? [],
  };
}

