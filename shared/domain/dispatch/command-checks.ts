/**
 * Safety checks of a real-time dispatch command against the device's ratings and its last known state.
 * A check that lacks the data it needs fails and says what is missing: a command is never accepted on a
 * guess about a battery's state of charge or temperature.
 */

export const COMMAND_ACTIONS = ['charge', 'discharge', 'idle', 'curtail'] as const;
export type CommandAction = (typeof COMMAND_ACTIONS)[number];
export const COMMAND_PRIORITIES = ['low', 'normal', 'high', 'emergency'] as const;
export type CommandPriority = (typeof COMMAND_PRIORITIES)[number];

export type CheckName = 'capability' | 'capacity' | 'soc_limits' | 'temperature' | 'grid_constraints';

/** Operating window when the device states none: SOC fractions and a round trip typical of lithium-ion storage. */
export const DEVICE_DEFAULTS = { minSoc: 0.1, maxSoc: 0.9, roundtripEfficiency: 0.9 } as const;
/**
 * Cell temperature windows (deg C) typical of lithium-ion datasheets: charging is the narrower one
 * (lithium plating below 0 deg C). A device's own limits replace them.
 */
export const TEMPERATURE_WINDOWS = { charge: [0, 45], discharge: [-20, 60] } as const;

export interface DeviceProfile {
  deviceType: string;
  capacityKw: number;
  energyCapacityKwh?: number;
  minSoc?: number;
  maxSoc?: number;
  roundtripEfficiency?: number;
  gridExportLimitKw?: number;
  gridImportLimitKw?: number;
  minTemperatureC?: number;
  maxTemperatureC?: number;
  /** Last known state. */
  soc?: number;
  temperatureC?: number;
  stateMeasuredAt?: string;
}

export interface DispatchCommand {
  action: CommandAction;
  powerKw: number;
  durationMinutes: number;
  priority: CommandPriority;
}

export interface RequestedChecks {
  soc_limits: boolean;
  temperature_check: boolean;
  grid_constraints: boolean;
}

export interface CheckResult {
  check: CheckName;
  passed: boolean;
  detail: string;
}

export interface CommandAssessment {
  accepted: boolean;
  checks: CheckResult[];
  /** SOC the command leaves the battery at, when it moves energy and the state is known. */
  projectedSoc?: number;
}

const STORAGE = /batter|storage|bess|ess\b|hybrid/i;
const GENERATION = /inverter|solar|pv|hybrid|wind|generat/i;

const fmt = (v: number, digits = 3) => Number(v.toFixed(digits)).toString();

export function assessCommand(device: DeviceProfile, command: DispatchCommand, requested: RequestedChecks, now = new Date()): CommandAssessment {
  const checks: CheckResult[] = [capability(device, command), capacity(device, command)];
  const moves = command.action === 'charge' || command.action === 'discharge';
  let projectedSoc: number | undefined;
  if (requested.soc_limits && moves) {
    const result = socLimits(device, command, now);
    checks.push(result.check);
    projectedSoc = result.projected;
  } else if (moves && device.soc !== undefined && device.energyCapacityKwh) {
    projectedSoc = socAfter(device, command);
  }
  if (requested.temperature_check && command.action !== 'idle') checks.push(temperature(device, command));
  if (requested.grid_constraints) checks.push(gridConstraints(device, command));
  return { accepted: checks.every((c) => c.passed), checks, projectedSoc };
}

function capability(device: DeviceProfile, command: DispatchCommand): CheckResult {
  const needs = command.action === 'curtail' ? GENERATION : command.action === 'idle' ? /./ : STORAGE;
  const passed = needs.test(device.deviceType);
  return {
    check: 'capability',
    passed,
    detail: passed ? `A ${device.deviceType} device can ${command.action}` : `A ${device.deviceType} device cannot ${command.action}: ${command.action === 'curtail' ? 'curtailment needs an inverter or generator' : 'charging and discharging need a battery or storage device'}`,
  };
}

function capacity(device: DeviceProfile, command: DispatchCommand): CheckResult {
  if (command.action === 'idle') {
    return command.powerKw === 0
      ? { check: 'capacity', passed: true, detail: 'Idle holds the device at 0 kW' }
      : { check: 'capacity', passed: false, detail: `Idle takes power_kw 0, got ${fmt(command.powerKw)}` };
  }
  if (command.action !== 'curtail' && command.powerKw <= 0) return { check: 'capacity', passed: false, detail: `${command.action} needs power_kw above 0` };
  const passed = command.powerKw <= device.capacityKw;
  return {
    check: 'capacity',
    passed,
    detail: passed ? `${fmt(command.powerKw)} kW is within the rated ${fmt(device.capacityKw)} kW` : `${fmt(command.powerKw)} kW exceeds the rated ${fmt(device.capacityKw)} kW`,
  };
}

/** One-way efficiency: the round trip's losses split evenly between charging and discharging. */
const oneWayEfficiencyOf = (device: DeviceProfile) => Math.sqrt(device.roundtripEfficiency ?? DEVICE_DEFAULTS.roundtripEfficiency);

/**
 * The energy (kWh) the device may still give down to its min_soc and take up to its max_soc from its known state,
 * and its one-way efficiency; unbounded where the state or the capacity (`energyCapacityKwh`, else `fallbackKwh`)
 * is unknown.
 */
export function socHeadroom(device: DeviceProfile, fallbackKwh?: number): { dischargeableKwh: number; chargeableKwh: number; oneWayEfficiency: number } {
  const capacity = device.energyCapacityKwh ?? fallbackKwh;
  const oneWayEfficiency = oneWayEfficiencyOf(device);
  if (device.soc === undefined || capacity === undefined) return { dischargeableKwh: Infinity, chargeableKwh: Infinity, oneWayEfficiency };
  return {
    dischargeableKwh: Math.max(0, (device.soc - (device.minSoc ?? DEVICE_DEFAULTS.minSoc)) * capacity),
    chargeableKwh: Math.max(0, ((device.maxSoc ?? DEVICE_DEFAULTS.maxSoc) - device.soc) * capacity),
    oneWayEfficiency,
  };
}

/** SOC after the command. */
function socAfter(device: DeviceProfile, command: DispatchCommand): number {
  const eta = oneWayEfficiencyOf(device);
  const energy = (command.powerKw * command.durationMinutes) / 60;
  const delta = command.action === 'charge' ? eta * energy : -energy / eta;
  return device.soc! + delta / device.energyCapacityKwh!;
}

function socLimits(device: DeviceProfile, command: DispatchCommand, now: Date): { check: CheckResult; projected?: number } {
  if (device.soc === undefined) return { check: { check: 'soc_limits', passed: false, detail: 'The device has no known state of charge: send device_state.soc with the command or record it on the device' } };
  if (!device.energyCapacityKwh) return { check: { check: 'soc_limits', passed: false, detail: 'The device has no energy_capacity_kwh, so the state of charge after the command cannot be projected' } };
  const min = device.minSoc ?? DEVICE_DEFAULTS.minSoc;
  const max = device.maxSoc ?? DEVICE_DEFAULTS.maxSoc;
  const projected = socAfter(device, command);
  const minutes = device.stateMeasuredAt ? Math.round((now.getTime() - Date.parse(device.stateMeasuredAt)) / 60_000) : undefined;
  // A state in the future is the projection of an accepted command still running: checked from where it ends.
  const age = minutes === undefined ? '' : minutes >= 0 ? ` (state of ${minutes} min ago)` : ` (projected for ${device.stateMeasuredAt}, when the running command ends)`;
  const from = `from ${fmt(device.soc)}${age}`;
  if (command.action === 'charge' && projected > max + 1e-9) {
    const eta = Math.sqrt(device.roundtripEfficiency ?? DEVICE_DEFAULTS.roundtripEfficiency);
    const minutes = Math.max(0, ((max - device.soc) * device.energyCapacityKwh * 60) / (eta * command.powerKw));
    return { check: { check: 'soc_limits', passed: false, detail: `Charging ${from} would reach ${fmt(projected)}, above max_soc ${fmt(max)}: at ${fmt(command.powerKw)} kW at most ${fmt(minutes, 1)} minutes` }, projected };
  }
  if (command.action === 'discharge' && projected < min - 1e-9) {
    const eta = Math.sqrt(device.roundtripEfficiency ?? DEVICE_DEFAULTS.roundtripEfficiency);
    const minutes = Math.max(0, ((device.soc - min) * device.energyCapacityKwh * eta * 60) / command.powerKw);
    return { check: { check: 'soc_limits', passed: false, detail: `Discharging ${from} would reach ${fmt(projected)}, below min_soc ${fmt(min)}: at ${fmt(command.powerKw)} kW at most ${fmt(minutes, 1)} minutes` }, projected };
  }
  return { check: { check: 'soc_limits', passed: true, detail: `SOC goes ${from} to ${fmt(projected)}, within [${fmt(min)}, ${fmt(max)}]` }, projected };
}

function temperature(device: DeviceProfile, command: DispatchCommand): CheckResult {
  if (device.temperatureC === undefined) return { check: 'temperature', passed: false, detail: 'The device has no known temperature: send device_state.temperature_c with the command or record it on the device' };
  const window = command.action === 'charge' ? TEMPERATURE_WINDOWS.charge : TEMPERATURE_WINDOWS.discharge;
  const low = device.minTemperatureC ?? window[0];
  const high = device.maxTemperatureC ?? window[1];
  const passed = device.temperatureC >= low && device.temperatureC <= high;
  return {
    check: 'temperature',
    passed,
    detail: `${fmt(device.temperatureC, 1)} deg C is ${passed ? 'within' : 'outside'} the ${command.action} window [${low}, ${high}] deg C`,
  };
}

function gridConstraints(device: DeviceProfile, command: DispatchCommand): CheckResult {
  const limit = command.action === 'charge' ? device.gridImportLimitKw : command.action === 'discharge' ? device.gridExportLimitKw : undefined;
  const name = command.action === 'charge' ? 'grid_import_limit_kw' : 'grid_export_limit_kw';
  if (command.action === 'idle' || command.action === 'curtail') return { check: 'grid_constraints', passed: true, detail: `${command.action} does not add to the grid flow` };
  if (limit === undefined) return { check: 'grid_constraints', passed: true, detail: `No ${name} is recorded for the device, so only its rating limits the grid flow` };
  const passed = command.powerKw <= limit;
  return { check: 'grid_constraints', passed, detail: `${fmt(command.powerKw)} kW is ${passed ? 'within' : 'above'} the ${name} of ${fmt(limit)} kW` };
}
