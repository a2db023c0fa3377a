/**
 * Receding-horizon dispatch over HTTP: a plan from the measured SOC with its next set-point, flexible loads and
 * a tariff in the plan, the device's plan kept and warm-started, read back against what was measured, and
 * carried out by /api/realtime-dispatch; refusals named.
 */
import { randomBytes } from 'node:crypto';
import { call, registerKey, useRuntime } from '../helpers/runtime';

const runtime = useRuntime();

const STEPS = 192; // 48 h at 15 minutes
const START = Date.parse('2026-07-01T00:00:00Z');
const at = (k: number) => new Date(START + k * 15 * 60_000).toISOString();
const steps = (f: (hour: number) => number) => Array.from({ length: STEPS }, (_, k) => Math.round(f((k / 4) % 24) * 1000) / 1000);

const request = (over: Record<string, unknown> = {}) => ({
  forecasts: {
    solar_forecast: steps((h) => Math.max(0, 8 * Math.sin((Math.PI * (h - 6)) / 12))),
    load_forecast: steps((h) => (h >= 7 && h < 22 ? 3 : 1.5)),
    price_forecast: steps((h) => (h >= 17 && h < 21 ? 0.4 : h < 6 ? 0.1 : 0.2)),
  },
  system_config: { battery_capacity_kwh: 10, battery_power_kw: 5, battery_min_soc: 0.1, battery_max_soc: 0.9, roundtrip_efficiency: 0.9 },
  current_soc: 0.3,
  optimization_config: { objective: 'cost', interval_minutes: 15, start_time: at(0) },
  ...over,
});

async function deviceOf(key: string, extra: object = {}) {
  const suffix = randomBytes(4).toString('hex');
  await call(runtime(), 'POST', '/api/create-client', { key, json: { client_id: `cl-${suffix}`, name: 'Ops', contact_email: 'ops@example.com', tier: 'free', services: ['optimization'] } });
  await call(runtime(), 'POST', '/api/create-customer', {
    key,
    json: { client_id: `cl-${suffix}`, customer_id: `cu-${suffix}`, contact_name: 'A', email: 'a@example.com', location: 'Berlin', system_type: 'pv+storage' },
  });
  const device = await call(runtime(), 'POST', '/api/create-device', {
    key,
    json: { customer_id: `cu-${suffix}`, device_type: 'battery', serial_number: `SN-${suffix}`, manufacturer: 'BYD', capacity_kw: 5, installation_date: '2024-03-15', energy_capacity_kwh: 10, min_soc: 0.1, max_soc: 0.9, ...extra },
  });
  expect(device.status).toBe(200);
  return device.body.device_id as string;
}

describe('POST /api/dispatch/mpc', () => {
  it('plans 48 h at 15 minutes from the measured SOC and answers the first set-point', async () => {
    // Prepare
    const { key } = await registerKey(runtime());

    // Act
    const r = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: request() });

    // Assess
    expect(r.status).toBe(200);
    const schedule = r.body.plan.dispatch_schedule;
    expect(schedule).toHaveLength(STEPS);
    expect(schedule[0].timestamp).toBe(at(0));
    expect(r.body.next_setpoint).toEqual({
      timestamp: at(0),
      valid_until: at(1),
      battery_power_kw: schedule[0].battery_power,
      grid_power_kw: schedule[0].grid_power,
      soc_target: schedule[0].soc,
      action: schedule[0].action,
    });
    expect(r.body.soc_source).toBe('request');
    expect(r.body.warm_start).toBe(false);
    // The end is valued (median price 0.2 after the discharge loss), so the battery is not simply emptied at 48 h.
    expect(r.body.terminal_value_per_kwh).toBeCloseTo(0.2 * Math.sqrt(0.9), 9);
    // The first interval starts from 0.3: at most 5 kW for 15 minutes moves the SOC by 0.125 of 10 kWh.
    expect(Math.abs(schedule[0].soc - 0.3)).toBeLessThanOrEqual(0.125 * Math.sqrt(0.9) + 1e-6);
  });

  it('meets an SOC target and schedules an EV and a pump under a tariff, each as its own series', async () => {
    // Prepare
    const { key } = await registerKey(runtime());
    const json = request({
      forecasts: { solar_forecast: request().forecasts.solar_forecast, load_forecast: request().forecasts.load_forecast },
      tariff: { currency: 'EUR', import_price: 0.25, export_price: 0.05, periods: [{ name: 'night', hours: [1, 2, 3, 4], import_price: 0.08 }] },
      soc_targets: [{ timestamp: at(68), soc: 0.85 }],
      ev: { arrival: at(0), departure: at(28), energy_kwh: 20, charger_kw: 7 },
      deferrable_loads: [{ id: 'pump', energy_kwh: 3, power_kw: 1.5, window_start: at(32), window_end: at(80), single_block: true }],
    });

    // Act
    const r = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json });

    // Assess
    expect(r.status).toBe(200);
    const schedule = r.body.plan.dispatch_schedule;
    expect(schedule[67].soc).toBeGreaterThanOrEqual(0.85 - 1e-6);
    const ev = schedule.reduce((a: number, row: { ev_kw: number }) => a + row.ev_kw / 4, 0);
    expect(ev).toBeCloseTo(20, 4);
    // The EV charges in the night period (01:00-05:00, 16 steps at up to 7 kW = 28 kWh): nothing at 0.25.
    schedule.forEach((row: { ev_kw: number; tariff_period: string }) => row.ev_kw > 1e-6 && expect(row.tariff_period).toBe('night'));
    const pump = schedule.map((row: { deferrable_kw: Record<string, number> }) => row.deferrable_kw.pump);
    const on = pump.flatMap((kw: number, k: number) => (kw > 1e-6 ? [k] : []));
    expect(on).toHaveLength(8); // 3 kWh at 1.5 kW is 2 h
    expect(on[7] - on[0]).toBe(7); // one block
    const flexible = r.body.plan.economic_summary.flexible_loads;
    expect(flexible.map((f: { id: string }) => f.id)).toEqual(['ev', 'pump']);
    expect(flexible[0].average_price).toBeCloseTo(0.08, 9);
    expect(r.body.plan.economic_summary.currency).toBe('EUR');
  });

  it('keeps the device plan: the next call warm-starts from it, and the plan reads back against the measured SOC', async () => {
    // Prepare
    const { key } = await registerKey(runtime());
    const deviceId = await deviceOf(key);
    const deferrable = [{ id: 'pump', energy_kwh: 3, power_kw: 1.5, window_start: at(0), window_end: at(96), single_block: true }];
    const first = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: { ...request({ device_id: deviceId, system_config: undefined }), deferrable_loads: deferrable } });
    expect(first.status).toBe(200);

    // Act: 15 minutes on, from the device's state (the SOC the first call reported)
    const second = await call(runtime(), 'POST', '/api/dispatch/mpc', {
      key,
      json: { ...request({ device_id: deviceId, current_soc: undefined, system_config: undefined }), deferrable_loads: deferrable, optimization_config: { objective: 'cost', interval_minutes: 15, start_time: at(1) } },
    });
    const plan = await call(runtime(), 'GET', `/api/dispatch/mpc/${deviceId}`, { key });

    // Assess
    expect(second.status).toBe(200);
    expect(second.body.soc_source).toBe('device_state');
    expect(second.body.current_soc).toBe(0.3);
    expect(second.body.warm_start).toBe(true);
    expect(plan.status).toBe(200);
    expect(plan.body.plan_id).toBe(second.body.plan_id);
    expect(plan.body.plan[0]).toMatchObject({ timestamp: at(1), soc: expect.closeTo(second.body.plan.dispatch_schedule[0].soc, 6) });
    expect(plan.body.tracking).toHaveLength(2);
    expect(plan.body.tracking[0]).toMatchObject({ timestamp: at(1), measured_soc: 0.3, plan_id: first.body.plan_id, planned_soc: expect.closeTo(first.body.plan.dispatch_schedule[0].soc, 6) });
    expect(plan.body.tracking[1]).toMatchObject({ timestamp: at(0), planned_soc: null, plan_id: null });
  });

  it('plans with solar scenarios: one programme per scenario, the first interval shared, the schedule the forecast own', async () => {
    // Prepare: the forecast's sun, and a dull and a bright day as likely
    const { key } = await registerKey(runtime());
    const base = request();
    const sun = base.forecasts.solar_forecast;
    const scenarios = [sun.map((v) => Math.round(v * 40) / 100), sun.map((v) => Math.round(v * 160) / 100)];

    // Act
    const plain = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: base });
    const r = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: { ...base, forecasts: { ...base.forecasts, solar_forecast_scenarios: scenarios } } });
    const short = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: { ...base, forecasts: { ...base.forecasts, solar_forecast_scenarios: [sun.slice(1)] } } });

    // Assess
    expect(r.status).toBe(200);
    expect(r.body.solar_scenarios).toBe(2);
    expect(r.body.plan.solver.variables).toBe(3 * plain.body.plan.solver.variables);
    expect(r.body.plan.dispatch_schedule.map((row: { solar_kw: number }) => row.solar_kw)).toEqual(sun);
    expect(r.body.next_setpoint.grid_power_kw).toBe(r.body.plan.dispatch_schedule[0].grid_power);
    expect(short.status).toBe(400);
    expect(short.body.error).toMatch(/forecasts\.solar_forecast_scenarios\[0\] has 191 values; solar_forecast has 192/);
  });

  it('warm-starts from a kept plan that no longer fits the new forecasts', async () => {
    // Prepare: a plan charging an EV at 7 kW by night beside a pump; then the EV has left and the sun is dull,
    // so the kept plan's imports exceed what the new programme allows (load + battery power)
    const { key } = await registerKey(runtime());
    const deviceId = await deviceOf(key);
    const pump = [{ id: 'pump', energy_kwh: 3, power_kw: 1.5, window_start: at(32), window_end: at(80), single_block: true }];
    const first = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: request({ device_id: deviceId, deferrable_loads: pump, ev: { arrival: at(0), departure: at(28), energy_kwh: 20, charger_kw: 7 } }) });
    const dull = request().forecasts.solar_forecast.map((v) => Math.round(v * 30) / 100);

    // Act
    const r = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: request({ device_id: deviceId, deferrable_loads: pump, forecasts: { ...request().forecasts, solar_forecast: dull } }) });

    // Assess
    expect(first.status).toBe(200);
    expect(Math.max(...first.body.plan.dispatch_schedule.map((row: { grid_power: number }) => row.grid_power))).toBeGreaterThan(1.5 + 5);
    expect(r.status).toBe(200);
    expect(r.body.warm_start).toBe(true);
  });

  it('sends the plan set-point through /api/realtime-dispatch with the same safety checks', async () => {
    // Prepare: a plan for the interval in progress (no start_time)
    const { key } = await registerKey(runtime());
    const deviceId = await deviceOf(key);
    const { start_time: _now, ...config } = request().optimization_config;
    const mpc = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: { ...request({ device_id: deviceId }), optimization_config: config } });
    expect(mpc.status).toBe(200);

    // Act
    const r = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, use_mpc_setpoint: true, safety_checks: { soc_limits: true, temperature_check: false, grid_constraints: true } } });

    // Assess
    expect(r.status).toBe(200);
    const set = mpc.body.next_setpoint;
    expect(r.body.mpc_plan_id).toBe(mpc.body.plan_id);
    expect(r.body.command.action).toBe(Math.abs(set.battery_power_kw) < 1e-4 ? 'idle' : set.battery_power_kw > 0 ? 'discharge' : 'charge');
    expect(r.body.command.power_kw).toBeCloseTo(Math.abs(set.battery_power_kw), 5);
    expect(r.body.command.duration_minutes).toBeLessThanOrEqual(15);
    expect(r.body.checks.map((c: { check: string }) => c.check)).toContain('grid_constraints');
    expect(r.body.accepted).toBe(r.body.failed_checks.length === 0);
  });

  it('given the measured load and solar, holds the meter at the plan grid power and lets the battery take the error', async () => {
    // Prepare: a plan for the interval in progress, the device at 50%
    const { key } = await registerKey(runtime());
    const deviceId = await deviceOf(key);
    const { start_time: _now, ...config } = request().optimization_config;
    const mpc = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: { ...request({ device_id: deviceId, current_soc: 0.5 }), optimization_config: config } });
    expect(mpc.status).toBe(200);
    const planned = mpc.body.next_setpoint.grid_power_kw;
    const load = Math.max(0, planned) + 2.5;

    // Act: the site draws 2.5 kW more than the plan imports, with no sun
    const r = await call(runtime(), 'POST', '/api/realtime-dispatch', {
      key,
      json: { device_id: deviceId, use_mpc_setpoint: true, measured_site: { load_kw: load, solar_kw: 0 }, device_state: { soc: 0.5 }, safety_checks: { soc_limits: true, temperature_check: false, grid_constraints: true } },
    });
    const stray = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, command: { action: 'idle', power_kw: 0, duration_minutes: 5 }, measured_site: { load_kw: 1, solar_kw: 0 } } });

    // Assess: the battery discharges what holds the meter at the plan (within its 5 kW)
    expect(r.status).toBe(200);
    expect(r.body.mpc_setpoint).toEqual({ control: 'grid_power', planned_battery_kw: expect.closeTo(mpc.body.next_setpoint.battery_power_kw, 5), planned_grid_kw: expect.closeTo(planned, 5), measured_load_kw: load, measured_solar_kw: 0 });
    expect(r.body.command.action).toBe('discharge');
    expect(r.body.command.power_kw).toBeCloseTo(Math.min(5, load - planned), 5);
    expect(stray.status).toBe(400);
    expect(stray.body.error).toMatch(/measured_site is read only with use_mpc_setpoint/);
  });

  it.each([
    ['no SOC and no device', { current_soc: undefined }, /current_soc is required/],
    ['an SOC outside the battery limits', { current_soc: 0.95 }, /current_soc \(0\.95\) is outside \[battery_min_soc 0\.1, battery_max_soc 0\.9\]/],
    ['a target beyond the horizon', { soc_targets: [{ timestamp: at(500), soc: 0.5 }] }, /soc_targets\[0\]\.timestamp is outside the horizon/],
    ['a price series and a tariff both pricing energy', { tariff: { import_price: 0.2 } }, /Give the energy prices once/],
    ['an EV that cannot be charged in time', { ev: { arrival: at(0), departure: at(4), energy_kwh: 30, charger_kw: 7 } }, /ev: 30 kWh cannot be delivered/],
    ['no battery and no device', { system_config: undefined }, /system_config is required unless device_id/],
  ])('answers 400 for %s', async (_case, over, message) => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: request(over) });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it('answers 409 for the plan of a device that has none, and 400 for a command beside use_mpc_setpoint', async () => {
    const { key } = await registerKey(runtime());
    const deviceId = await deviceOf(key);
    const plan = await call(runtime(), 'GET', `/api/dispatch/mpc/${deviceId}`, { key });
    expect(plan.status).toBe(409);
    expect(plan.body.error).toMatch(/No MPC plan for device/);
    const send = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, use_mpc_setpoint: true } });
    expect(send.status).toBe(409);
    const both = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, use_mpc_setpoint: true, command: { action: 'idle', power_kw: 0, duration_minutes: 5 } } });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/use_mpc_setpoint/);
  });
});
