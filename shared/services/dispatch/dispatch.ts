/**
 * Dispatch: the optimised schedule of a site's solar, battery and grid (POST /api/dispatch-optimization),
 * and immediate commands to one device, checked, recorded and announced (POST /api/realtime-dispatch).
 */
import { randomUUID } from 'node:crypto';
import { assessCommand, type DeviceProfile } from '../../domain/dispatch/command-checks';
import { DispatchSolveError, optimiseDispatch } from '../../domain/dispatch/optimise';
import { DispatchInputError, type DispatchProblem } from '../../domain/dispatch/problem';
import { monthlyDemandPeriods } from '../../domain/dispatch/billing';
import { dispatchReport } from '../../domain/dispatch/report';
import { BadRequest, Unprocessable } from '../../errors';
import { publishEvent } from '../../events/event-bus';
import { DEFAULT_MONTHLY_DEMAND_CHARGE_PER_KW, type DispatchOptimizationRequest, type RealtimeDispatchRequest } from '../../schemas/dispatch';
import { operationsCollection } from '../../store/operations-repo';
import { saveDeviceState, type DeviceRecord, type DeviceState } from '../../store/tenants-repo';
import type { Caller } from '../../access/authentication';
import { ownedDevice } from '../accounts/tenants';

/** How the demand charge was priced, as the answer states it. */
export type DemandChargeBasis = 'none' | 'per_horizon' | 'monthly_prorated';

/**
 * The demand charge of a request: the caller's charge for this horizon (`demand_charge_per_kw`), or a
 * monthly tariff (`monthly_demand_charge_per_kw`, default DEFAULT_MONTHLY_DEMAND_CHARGE_PER_KW) per calendar
 * month of the horizon, prorated to the share of the month it covers.
 */
function demandCharge(opt: DispatchOptimizationRequest['optimization_config'], intervals: number, startMs: number): { basis: DemandChargeBasis; note: string; problem: Pick<DispatchProblem, 'demandChargePerKw' | 'demandPeriods'> } {
  if (!opt.demand_charges) return { basis: 'none', note: 'no demand charge (demand_charges is false)', problem: { demandChargePerKw: 0 } };
  if (opt.demand_charge_per_kw !== undefined) {
    return { basis: 'per_horizon', note: `demand_charge_per_kw ${opt.demand_charge_per_kw} as given, charged once on the horizon's peak import`, problem: { demandChargePerKw: opt.demand_charge_per_kw } };
  }
  const monthly = opt.monthly_demand_charge_per_kw ?? DEFAULT_MONTHLY_DEMAND_CHARGE_PER_KW;
  return {
    basis: 'monthly_prorated',
    note:
      `a monthly tariff of ${monthly} per kW of each calendar month's (UTC) peak import${opt.monthly_demand_charge_per_kw === undefined ? ' (the default: give monthly_demand_charge_per_kw)' : ''}, ` +
      "prorated to the share of the month the horizon covers; give demand_charge_per_kw to charge the horizon's peak at your own rate instead",
    problem: { demandChargePerKw: 0, demandPeriods: monthlyDemandPeriods(startMs, opt.interval_minutes, intervals, monthly) },
  };
}

export function dispatchProblem(body: DispatchOptimizationRequest, startMs = nextIntervalStart(body.optimization_config.interval_minutes)): DispatchProblem {
  const { forecasts: f, system_config: sys, optimization_config: opt } = body;
  const intervals = f.load_forecast.length;
  if (opt.time_horizon !== undefined) {
    const needed = (opt.time_horizon * 60) / opt.interval_minutes;
    if (!Number.isInteger(needed)) throw new DispatchInputError(`optimization_config.time_horizon ${opt.time_horizon} h is not a whole number of ${opt.interval_minutes}-minute intervals`);
    if (needed !== intervals) {
      throw new DispatchInputError(
        `optimization_config.time_horizon ${opt.time_horizon} h at ${opt.interval_minutes}-minute intervals needs ${needed} values per forecast; load_forecast has ${intervals}`,
      );
    }
  }
  return {
    solarKw: f.solar_forecast,
    loadKw: f.load_forecast,
    importPrice: f.price_forecast,
    exportPrice: f.export_price_forecast ?? f.price_forecast,
    battery: {
      capacityKwh: sys.battery_capacity_kwh,
      powerKw: sys.battery_power_kw,
      minSoc: sys.battery_min_soc,
      maxSoc: sys.battery_max_soc,
      initialSoc: sys.initial_soc,
      roundtripEfficiency: sys.roundtrip_efficiency,
    },
    objective: opt.objective,
    intervalMinutes: opt.interval_minutes,
    exportLimitKw: opt.grid_export_limit ?? Infinity,
    importLimitKw: opt.grid_import_limit ?? Infinity,
    ...demandCharge(opt, intervals, startMs).problem,
    terminalSoc: opt.terminal_soc,
  };
}

/** The next whole interval from now (UTC), where a schedule without `start_time` begins. */
export function nextIntervalStart(intervalMinutes: number, now = Date.now()): number {
  const step = intervalMinutes * 60_000;
  return Math.ceil(now / step) * step;
}

export async function optimizeDispatch(body: DispatchOptimizationRequest) {
  const opt = body.optimization_config;
  try {
    const start = opt.start_time ? Date.parse(opt.start_time) : nextIntervalStart(opt.interval_minutes);
    const problem = dispatchProblem(body, start);
    const report = dispatchReport(await optimiseDispatch(problem), start);
    const charge = demandCharge(opt, problem.loadKw.length, start);
    return {
      status: 'success',
      optimization_result: {
        objective: opt.objective,
        time_horizon: (problem.loadKw.length * opt.interval_minutes) / 60,
        interval_minutes: opt.interval_minutes,
        ...report,
        economic_summary: { ...report.economic_summary, demand_charge_basis: charge.basis, demand_charge_note: charge.note },
      },
    };
  } catch (err) {
    if (err instanceof DispatchInputError) throw new BadRequest(err.message);
    // Inputs within their bounds can still span too many orders of magnitude for the solver's tolerances.
    if (err instanceof DispatchSolveError) throw new Unprocessable(`${err.message}: the inputs may span too many orders of magnitude (capacity, power and prices) to solve reliably`);
    throw err;
  }
}

export interface DispatchCommandRecord {
  command_id: string;
  account_id: string;
  device_id: string;
  customer_id: string;
  command: RealtimeDispatchRequest['command'];
  safety_checks: RealtimeDispatchRequest['safety_checks'];
  command_status: 'accepted' | 'rejected';
  checks: ReturnType<typeof assessCommand>['checks'];
  failed_checks: string[];
  projected_soc: number | null;
  issued_at: string;
  expected_completion: string | null;
}

export const dispatchCommands = operationsCollection<DispatchCommandRecord>('DISPATCH_COMMAND', (r) => `${r.issued_at}#${r.command_id}`, 'issued_at');

const profileOf = (d: DeviceRecord): DeviceProfile => ({
  deviceType: d.device_type,
  capacityKw: d.capacity_kw,
  energyCapacityKwh: d.energy_capacity_kwh,
  minSoc: d.min_soc,
  maxSoc: d.max_soc,
  roundtripEfficiency: d.roundtrip_efficiency,
  gridExportLimitKw: d.grid_export_limit_kw,
  gridImportLimitKw: d.grid_import_limit_kw,
  minTemperatureC: d.min_temperature_c,
  maxTemperatureC: d.max_temperature_c,
  soc: d.state?.soc,
  temperatureC: d.state?.temperature_c,
  stateMeasuredAt: d.state?.measured_at,
});

/** A newer report replaces what it states and keeps what it does not (undefined fields are not stored). */
function reportedState(previous: DeviceState | undefined, reported: RealtimeDispatchRequest['device_state'], at: string): DeviceState | undefined {
  if (!reported) return previous;
  const measured = reported.measured_at ? new Date(reported.measured_at).toISOString() : at;
  return { ...previous, ...Object.fromEntries(Object.entries(reported).filter(([, v]) => v !== undefined)), measured_at: measured, source: 'reported', command_id: undefined };
}

export async function sendRealtimeCommand(caller: Caller, body: RealtimeDispatchRequest) {
  const device = await ownedDevice(caller, body.device_id);
  const issued = new Date();
  const issuedAt = issued.toISOString();
  const state = reportedState(device.state, body.device_state, issuedAt);
  if (body.device_state && state) await saveDeviceState(device.device_id, state);

  const command = { action: body.command.action, powerKw: body.command.power_kw, durationMinutes: body.command.duration_minutes, priority: body.command.priority };
  const assessment = assessCommand(profileOf({ ...device, state }), command, body.safety_checks, issued);
  const accepted = assessment.accepted;
  const record: DispatchCommandRecord = {
    command_id: `cmd_${randomUUID()}`,
    account_id: caller.accountId,
    device_id: device.device_id,
    customer_id: device.customer_id,
    command: body.command,
    safety_checks: body.safety_checks,
    command_status: accepted ? 'accepted' : 'rejected',
    checks: assessment.checks,
    failed_checks: assessment.checks.filter((c) => !c.passed).map((c) => c.check),
    projected_soc: assessment.projectedSoc === undefined ? null : Number(assessment.projectedSoc.toFixed(6)),
    issued_at: issuedAt,
    expected_completion: accepted ? new Date(issued.getTime() + body.command.duration_minutes * 60_000).toISOString() : null,
  };
  await dispatchCommands.insert(record);
  if (accepted) {
    if (record.projected_soc !== null) {
      await saveDeviceState(device.device_id, { ...state, soc: record.projected_soc, measured_at: record.expected_completion!, source: 'projected', command_id: record.command_id });
    }
    await publishEvent('dispatch_executed', caller.accountId, {
      command_id: record.command_id,
      device_id: record.device_id,
      customer_id: record.customer_id,
      action: body.command.action,
      power_kw: body.command.power_kw,
      duration_minutes: body.command.duration_minutes,
      priority: body.command.priority,
      executed_at: issuedAt,
      expected_completion: record.expected_completion,
      projected_soc: record.projected_soc,
    });
  }
  const { account_id: _owner, ...view } = record;
  return { status: 'success', accepted, ...view };
}

