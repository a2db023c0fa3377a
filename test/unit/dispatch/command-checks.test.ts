/** Safety checks of real-time commands: each check passes and fails on its own data, and names what it lacks. */
import { assessCommand, type DeviceProfile, type DispatchCommand } from '../../../shared/domain/dispatch/command-checks';

const NOW = new Date('2026-06-01T12:00:00Z');
const ALL = { soc_limits: true, temperature_check: true, grid_constraints: true };
const NONE = { soc_limits: false, temperature_check: false, grid_constraints: false };

const battery = (over: Partial<DeviceProfile> = {}): DeviceProfile => ({
  deviceType: 'battery',
  capacityKw: 10,
  energyCapacityKwh: 20,
  soc: 0.5,
  temperatureC: 25,
  stateMeasuredAt: '2026-06-01T11:55:00Z',
  roundtripEfficiency: 0.81,
  ...over,
});
const command = (over: Partial<DispatchCommand> = {}): DispatchCommand => ({ action: 'charge', powerKw: 5, durationMinutes: 60, priority: 'normal', ...over });
const failed = (a: ReturnType<typeof assessCommand>) => a.checks.filter((c) => !c.passed).map((c) => c.check);

describe('real-time command checks', () => {
  it('accepts a command within every limit and projects the SOC with the one-way efficiency', () => {
    // 5 kW for 1 h into 20 kWh at sqrt(0.81) = 0.9: 0.5 + 4.5 / 20 = 0.725.
    const a = assessCommand(battery(), command(), ALL, NOW);
    expect(a.accepted).toBe(true);
    expect(a.projectedSoc).toBeCloseTo(0.725, 12);
    expect(a.checks.map((c) => c.check)).toEqual(['capability', 'capacity', 'soc_limits', 'temperature', 'grid_constraints']);
    expect(a.checks.find((c) => c.check === 'soc_limits')!.detail).toBe('SOC goes from 0.5 (state of 5 min ago) to 0.725, within [0.1, 0.9]');
  });

  it('rejects power above the rating whatever checks are asked for', () => {
    const a = assessCommand(battery(), command({ powerKw: 12 }), NONE, NOW);
    expect(a.accepted).toBe(false);
    expect(failed(a)).toEqual(['capacity']);
  });

  it('rejects a charge that would pass max_soc and says how long it could run', () => {
    // From 0.8 at 10 kW: 0.8 + 0.9 * 10 / 20 = 1.25 > 0.9; room 0.1 * 20 = 2 kWh / (0.9 * 10 kW) = 13.3 min.
    const a = assessCommand(battery({ soc: 0.8 }), command({ powerKw: 10 }), ALL, NOW);
    expect(failed(a)).toEqual(['soc_limits']);
    expect(a.checks.find((c) => c.check === 'soc_limits')!.detail).toMatch(/would reach 1\.25, above max_soc 0\.9: at 10 kW at most 13\.3 minutes/);
  });

  it('rejects a discharge that would pass min_soc, with the device\'s own window', () => {
    // From 0.3 at 10 kW for 30 min: 0.3 - 5 / 0.9 / 20 = 0.0222 < 0.2.
    const a = assessCommand(battery({ soc: 0.3, minSoc: 0.2 }), command({ action: 'discharge', powerKw: 10, durationMinutes: 30 }), ALL, NOW);
    expect(failed(a)).toEqual(['soc_limits']);
    expect(a.projectedSoc).toBeCloseTo(0.3 - 5 / 0.9 / 20, 12);
  });

  it('fails the SOC check when the state of charge or the energy capacity is unknown', () => {
    expect(failed(assessCommand(battery({ soc: undefined }), command(), ALL, NOW))).toEqual(['soc_limits']);
    expect(assessCommand(battery({ energyCapacityKwh: undefined }), command(), ALL, NOW).checks.find((c) => c.check === 'soc_limits')!.detail).toMatch(/no energy_capacity_kwh/);
    expect(assessCommand(battery({ soc: undefined }), command(), { ...ALL, soc_limits: false }, NOW).accepted).toBe(true);
  });

  it('checks the temperature window of the action: charging below 0 deg C is refused, discharging is not', () => {
    expect(failed(assessCommand(battery({ temperatureC: -5 }), command(), ALL, NOW))).toEqual(['temperature']);
    expect(assessCommand(battery({ temperatureC: -5 }), command({ action: 'discharge' }), ALL, NOW).accepted).toBe(true);
    expect(failed(assessCommand(battery({ temperatureC: 30, maxTemperatureC: 28 }), command(), ALL, NOW))).toEqual(['temperature']);
    expect(failed(assessCommand(battery({ temperatureC: undefined }), command(), ALL, NOW))).toEqual(['temperature']);
  });

  it('checks the grid limits recorded for the device', () => {
    expect(failed(assessCommand(battery({ gridImportLimitKw: 4 }), command(), ALL, NOW))).toEqual(['grid_constraints']);
    expect(failed(assessCommand(battery({ gridExportLimitKw: 4 }), command({ action: 'discharge' }), ALL, NOW))).toEqual(['grid_constraints']);
    expect(assessCommand(battery({ gridExportLimitKw: 4 }), command(), ALL, NOW).accepted).toBe(true);
  });

  it('only storage charges and discharges; only generation curtails; idle takes 0 kW', () => {
    expect(failed(assessCommand(battery({ deviceType: 'solar_inverter' }), command(), NONE, NOW))).toEqual(['capability']);
    expect(assessCommand(battery({ deviceType: 'solar_inverter' }), command({ action: 'curtail', powerKw: 3 }), ALL, NOW).accepted).toBe(true);
    expect(failed(assessCommand(battery(), command({ action: 'curtail', powerKw: 3 }), NONE, NOW))).toEqual(['capability']);
    expect(failed(assessCommand(battery(), command({ action: 'idle', powerKw: 2 }), NONE, NOW))).toEqual(['capacity']);
    expect(assessCommand(battery(), command({ action: 'idle', powerKw: 0 }), ALL, NOW).accepted).toBe(true);
  });
});
