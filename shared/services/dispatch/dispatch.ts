/**
 * Dispatch: the optimised schedule of a site's solar, battery and grid (POST /api/dispatch-optimization),
 * and immediate commands to one device, checked, recorded and announced (POST /api/realtime-dispatch).
 */
import { randomUUID } from 'node:crypto';
import { assessCommand, type DeviceProfile } from '../../domain/dispatch/command-checks';
import { DispatchSolveError, optimiseDispatch, type DispatchStart } from '../../domain/dispatch/optimise';
import { DispatchInputError } from '../../domain/dispatch/problem';
import { dispatchProblem, nextIntervalStart, type RequestProblem } from './problem-of-request';
import { dispatchReport } from '../../domain/dispatch/report';
import { BadRequest, Unprocessable } from '../../errors';
import { publishEvent } from '../../events/event-bus';
import type { DispatchOptimizationRequest, RealtimeDispatchRequest } from '../../schemas/dispatch';
import { operationsCollection } from '../../store/operations-repo';
import { saveDeviceState, type DeviceRecord, type DeviceState } from '../../store/tenants-repo';
import type { Caller } from '../../access/authentication';
import { ownedDevice } from '../accounts/tenants';
import { mpcSetpointCommand, type MpcSetpointUse } from './mpc-plans';

/** Solves a request's problem and answers as POST /api/dispatch-optimization does (the MPC's plan too). */
export async function dispatchResult(body: DispatchOptimizationRequest, request: RequestProblem, startMs: number, start?: DispatchStart) {
  const opt = body.optimization_config;
  const outcome = await optimiseDispatch(request.problem, start);
  const report = dispatchReport(outcome, startMs);
  const periods = request.tariffPeriods;
  return {
    outcome,
    result: {
      objective: opt.objective,
      time_horizon: (request.problem.loadKw.length * opt.interval_minutes) / 60,
      interval_minutes: opt.interval_minutes,
      ...report,
      dispatch_schedule: periods ? report.dispatch_schedule.map((row, t) => ({ ...row, tariff_period: periods[t] })) : report.dispatch_schedule,
      economic_summary: {
        ...report.economic_summary,
        ...(body.tariff?.currency ? { currency: body.tariff.currency } : {}),
        demand_charge_basis: request.charge.basis,
        demand_charge_note: request.charge.note,
      },
    },
  };
}

/** The domain's refusals as HTTP errors; `scales` names the inputs whose magnitudes can defeat the solver. */
export async function withDispatchErrors<T>(run: () => Promise<T>, scales = 'capacity, power and prices'): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof DispatchInputError) throw new BadRequest(err.message);
    // Inputs within their bounds can still span too many orders of magnitude for the solver's tolerances.
    if (err instanceof DispatchSolveError) throw new Unprocessable(err.reason === 'time' ? err.message : `${err.message}: the inputs may span too many orders of magnitude (${scales}) to solve reliably`);
    throw err;
  }
}

export function optimizeDispatch(body: DispatchOptimizationRequest) {
  const opt = body.optimization_config;
  return withDispatchErrors(async () => {
    const start = opt.start_time ? Date.parse(opt.start_time) : nextIntervalStart(opt.interval_minutes);
    const { result } = await dispatchResult(body, dispatchProblem(body, start), start);
    return { status: 'success', optimization_result: result };
  });
}

export interface DispatchCommandRecord {
  command_id: string;
  account_id: string;
  device_id: string;
  customer_id: string;
  command: NonNullable<RealtimeDispatchRequest['command']>;
  /** The MPC plan whose set-point the command carries out (use_mpc_setpoint). */
  mpc_plan_id?: string;
  /** How it carried it out: the plan's battery power, or its grid power at the measured site flows. */
  mpc_setpoint?: MpcSetpointUse;
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
  const profile = profileOf({ ...device, state });
  const fromPlan = body.use_mpc_setpoint ? await mpcSetpointCommand(caller, device, profile, body.measured_site, issued.getTime()) : undefined;
  const requested = body.command ?? fromPlan!.command;
  if (body.device_state && state) await saveDeviceState(device.device_id, state);

  const command = { action: requested.action, powerKw: requested.power_kw, durationMinutes: requested.duration_minutes, priority: requested.priority };
  const assessment = assessCommand(profile, command, body.safety_checks, issued);
  const accepted = assessment.accepted;
  const record: DispatchCommandRecord = {
    command_id: `cmd_${randomUUID()}`,
    account_id: caller.accountId,
    device_id: device.device_id,
    customer_id: device.customer_id,
    command: requested,
    ...(fromPlan ? { mpc_plan_id: fromPlan.planId, mpc_setpoint: fromPlan.use } : {}),
    safety_checks: body.safety_checks,
    command_status: accepted ? 'accepted' : 'rejected',
    checks: assessment.checks,
    failed_checks: assessment.checks.filter((c) => !c.passed).map((c) => c.check),
    projected_soc: assessment.projectedSoc === undefined ? null : Number(assessment.projectedSoc.toFixed(6)),
    issued_at: issuedAt,
    expected_completion: accepted ? new Date(issued.getTime() + requested.duration_minutes * 60_000).toISOString() : null,
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
      action: requested.action,
      power_kw: requested.power_kw,
      duration_minutes: requested.duration_minutes,
      priority: requested.priority,
      executed_at: issuedAt,
      expected_completion: record.expected_completion,
      projected_soc: record.projected_soc,
    });
  }
  const { account_id: _owner, ...view } = record;
  return { status: 'success', accepted, ...view };
}

