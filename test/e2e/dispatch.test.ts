/** Dispatch over HTTP: the optimised schedule and its errors; real-time commands, recorded and announced. */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { call, registerKey, useRuntime } from '../helpers/runtime';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

const runtime = useRuntime();

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const hours = (f: (h: number) => number) => Array.from({ length: 24 }, (_, h) => Math.round(f(h) * 1000) / 1000);
const SYSTEM = { battery_capacity_kwh: 100, battery_power_kw: 25, battery_min_soc: 0.1, battery_max_soc: 0.9, initial_soc: 0.5, roundtrip_efficiency: 0.9 };
const request = (over: { solar?: number[]; load?: number[]; price?: number[]; system?: object; optimization?: object } = {}) => ({
  forecasts: {
    solar_forecast: over.solar ?? hours((h) => (h >= 6 && h <= 18 ? 60 * Math.sin((Math.PI * (h - 6)) / 12) : 0)),
    load_forecast: over.load ?? hours((h) => 20 + 10 * Math.sin((Math.PI * (h - 8)) / 12)),
    price_forecast: over.price ?? hours((h) => (h < 6 ? 0.1 : h < 17 ? 0.15 : h < 22 ? 0.3 : 0.12)),
  },
  system_config: { ...SYSTEM, ...over.system },
  optimization_config: { objective: 'revenue', time_horizon: 24, interval_minutes: 60, grid_export_limit: 20, demand_charges: true, start_time: '2026-07-01T00:00:00+02:00', ...over.optimization },
});

describe('POST /api/dispatch-optimization', () => {
  it('answers an optimised schedule that balances every interval within every limit', async () => {
    // Prepare
    const { key } = await registerKey(runtime());
    const body = request();

    // Act
    const r = await call(runtime(), 'POST', '/api/dispatch-optimization', { key, json: body });

    // Assess
    expect(r.status).toBe(200);
    const result = r.body.optimization_result;
    expect(result.dispatch_schedule).toHaveLength(24);
    expect(result.dispatch_schedule[0].timestamp).toBe('2026-06-30T22:00:00.000Z');
    let soc = SYSTEM.initial_soc;
    result.dispatch_schedule.forEach((row: Record<string, number & string>, t: number) => {
      const solar = body.forecasts.solar_forecast[t];
      expect(row.load_served).toBe(body.forecasts.load_forecast[t]);
      expect(solar - row.curtailed_kw + row.battery_power + row.grid_power).toBeCloseTo(row.load_served, 5);
      expect(row.grid_power).toBeGreaterThanOrEqual(-20 - 1e-6);
      expect(Math.abs(row.battery_power)).toBeLessThanOrEqual(25 + 1e-6);
      expect(row.soc).toBeGreaterThanOrEqual(0.1 - 1e-6);
      expect(row.soc).toBeLessThanOrEqual(0.9 + 1e-6);
      // SOC moves by the energy stored or drawn, losses split evenly (sqrt 0.9 each way).
      const eta = Math.sqrt(0.9);
      const stored = row.battery_power < 0 ? -row.battery_power * eta : -row.battery_power / eta;
      expect(row.soc).toBeCloseTo(soc + stored / 100, 4);
      soc = row.soc;
      expect(row.action).toBe(row.battery_power < -1e-4 ? 'charge' : row.battery_power > 1e-4 ? 'discharge' : 'idle');
    });
    expect(soc).toBeGreaterThanOrEqual(0.5 - 1e-6);
    const summary = result.economic_summary;
    const exported = result.dispatch_schedule.reduce((a: number, row: { grid_power: number }, t: number) => a + Math.max(0, -row.grid_power) * body.forecasts.price_forecast[t], 0);
    expect(summary.total_revenue).toBeCloseTo(exported, 4);
    expect(summary.net_benefit).toBeGreaterThan(0);
    expect(summary.net_benefit).toBeCloseTo(summary.baseline_without_battery.net_cost - summary.net_cost, 6);
    // The default monthly tariff of 15/kW, prorated: 2 h of June and 22 h of July (start 2026-07-01T00:00+02:00).
    expect(summary.demand_charge_basis).toBe('monthly_prorated');
    const periods = summary.demand_charge_periods as { charge_per_kw: number; peak_import_kw: number; baseline_peak_import_kw: number }[];
    expect(periods.map((x) => x.charge_per_kw)).toEqual([expect.closeTo((15 * 2) / 720, 6), expect.closeTo((15 * 22) / 744, 6)]);
    expect(summary.peak_shaving_savings).toBeCloseTo(periods.reduce((a, x) => a + x.charge_per_kw * (x.baseline_peak_import_kw - x.peak_import_kw), 0), 4);
    expect(result.operational_insights.join('\n')).toMatch(/equivalent full cycles[\s\S]*Solved to optimality by HiGHS/);
  });

  it('names the cause of inconsistent input with a 400', async () => {
    const { key } = await registerKey(runtime());
    const post = (json: unknown) => call(runtime(), 'POST', '/api/dispatch-optimization', { key, json });
    const short = request();
    short.forecasts.price_forecast = short.forecasts.price_forecast.slice(0, 23);
    expect(await post(short)).toMatchObject({
      status: 400,
      body: { status: 'error', error: 'The forecasts must have the same length: solar_forecast has 24, load_forecast has 24, price_forecast has 23, export_price_forecast has 23' },
    });
    expect(await post(request({ system: { battery_min_soc: 0.9, battery_max_soc: 0.1 } }))).toMatchObject({
      status: 400,
      body: { error: 'system_config.battery_min_soc (0.9) must be below battery_max_soc (0.1)' },
    });
    expect(await post(request({ system: { initial_soc: 0.95 } }))).toMatchObject({ status: 400, body: { error: 'system_config.initial_soc (0.95) is outside [battery_min_soc 0.1, battery_max_soc 0.9]' } });
    expect(await post(request({ optimization: { time_horizon: 48 } }))).toMatchObject({
      status: 400,
      body: { error: 'optimization_config.time_horizon 48 h at 60-minute intervals needs 48 values per forecast; load_forecast has 24' },
    });
    expect(await post(request({ optimization: { objective: 'profit' } }))).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^Invalid request: optimization_config\.objective/) } });
    expect(await post({ forecasts: request().forecasts })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/system_config/) } });
  });
});

describe('POST /api/dispatch-optimization demand charges', () => {
  const post = async (json: unknown) => call(runtime(), 'POST', '/api/dispatch-optimization', { key: (await registerKey(runtime())).key, json });
  const day = (optimization: object, price?: number[]) => request({ optimization: { start_time: '2026-07-01T00:00:00Z', ...optimization }, ...(price ? { price } : {}) });

  it("prorates the default monthly tariff to a day's share of its month, so the saving follows the battery, not a constant", async () => {
    const r = await post(day({}));
    expect(r.status).toBe(200);
    const summary = r.body.optimization_result.economic_summary;
    expect(summary.demand_charge_basis).toBe('monthly_prorated');
    expect(summary.demand_charge_note).toMatch(/monthly tariff of 15 per kW .* prorated/);
    expect(summary.demand_charge_periods).toEqual([
      { start: '2026-07-01T00:00:00.000Z', end: '2026-07-02T00:00:00.000Z', charge_per_kw: expect.closeTo(15 / 31, 6), peak_import_kw: summary.peak_import_kw, baseline_peak_import_kw: summary.baseline_without_battery.peak_import_kw, demand_charge: expect.closeTo((15 / 31) * summary.peak_import_kw, 4) },
    ]);
    expect(summary.demand_charge).toBeCloseTo((15 / 31) * summary.peak_import_kw, 4);
    expect(summary.peak_shaving_savings).toBeCloseTo((15 / 31) * (summary.baseline_without_battery.peak_import_kw - summary.peak_import_kw), 4);
    // A full month of the same tariff would have cost 31 times as much per kW: the day is not billed a month.
    expect(summary.peak_shaving_savings).toBeLessThan(15 * (summary.baseline_without_battery.peak_import_kw - summary.peak_import_kw));
  });

  it('charges the horizon at demand_charge_per_kw as given, and says so', async () => {
    const r = await post(day({ demand_charge_per_kw: 12 }));
    const summary = r.body.optimization_result.economic_summary;
    expect(summary.demand_charge_basis).toBe('per_horizon');
    expect(summary.demand_charge_periods).toHaveLength(1);
    expect(summary.demand_charge_periods[0].charge_per_kw).toBe(12);
    expect(summary.peak_shaving_savings).toBeCloseTo(12 * (summary.baseline_without_battery.peak_import_kw - summary.peak_import_kw), 4);
  });

  it("charges each calendar month's own peak once over a horizon spanning two months", async () => {
    // 48 hours from 31 January: a flat 10 kW load in January, 30 kW in February, no solar, flat prices.
    const load = Array.from({ length: 48 }, (_, t) => (t < 24 ? 10 : 30));
    const json = {
      forecasts: { solar_forecast: load.map(() => 0), load_forecast: load, price_forecast: load.map(() => 0.1) },
      system_config: { ...SYSTEM, battery_capacity_kwh: 10, battery_power_kw: 2 },
      optimization_config: { objective: 'cost', interval_minutes: 60, demand_charges: true, monthly_demand_charge_per_kw: 100, start_time: '2027-01-31T00:00:00Z' },
    };
    const r = await post(json);
    expect(r.status).toBe(200);
    const summary = r.body.optimization_result.economic_summary;
    const periods = summary.demand_charge_periods as { start: string; charge_per_kw: number; peak_import_kw: number; demand_charge: number }[];
    expect(periods.map((x) => [x.start, x.charge_per_kw])).toEqual([
      ['2027-01-31T00:00:00.000Z', expect.closeTo(100 / 31, 6)],
      ['2027-02-01T00:00:00.000Z', expect.closeTo(100 / 28, 6)],
    ]);
    // Each month's peak is its own: January's is not raised to February's.
    expect(periods[0].peak_import_kw).toBeLessThanOrEqual(10 + 1e-6);
    expect(periods[1].peak_import_kw).toBeGreaterThan(25);
    expect(summary.demand_charge).toBeCloseTo(periods.reduce((a, x) => a + x.charge_per_kw * x.peak_import_kw, 0), 4);
  });

  it('refuses a rate without demand_charges, and both rates at once', async () => {
    expect(await post(day({ demand_charges: false, demand_charge_per_kw: 12 }))).toMatchObject({ status: 400, body: { error: 'Invalid request: optimization_config.demand_charges must be true when a demand charge rate is given' } });
    expect(await post(day({ demand_charge_per_kw: 12, monthly_demand_charge_per_kw: 15 }))).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^Invalid request: optimization_config\.demand_charge_per_kw and monthly_demand_charge_per_kw are alternatives/) },
    });
    const off = await post(day({ demand_charges: false }));
    expect(off.body.optimization_result.economic_summary).toMatchObject({ demand_charge_basis: 'none', demand_charge: 0, peak_shaving_savings: 0 });
    expect(off.body.optimization_result.economic_summary.demand_charge_periods).toBeUndefined();
  });
});

describe('POST /api/realtime-dispatch', () => {
  async function deviceOf(key: string, extra: object = {}) {
    const suffix = randomBytes(4).toString('hex');
    const client = await call(runtime(), 'POST', '/api/create-client', { key, json: { client_id: `cl-${suffix}`, name: 'Ops', contact_email: 'ops@example.com', tier: 'free', services: ['optimization'] } });
    expect(client.status).toBe(200);
    const customer = await call(runtime(), 'POST', '/api/create-customer', {
      key,
      json: { client_id: `cl-${suffix}`, customer_id: `cu-${suffix}`, contact_name: 'A', email: 'a@example.com', location: 'Berlin', system_type: 'pv+storage' },
    });
    expect(customer.status).toBe(200);
    const device = await call(runtime(), 'POST', '/api/create-device', {
      key,
      json: { customer_id: `cu-${suffix}`, device_type: 'battery', serial_number: `SN-${suffix}`, manufacturer: 'BYD', capacity_kw: 10, installation_date: '2024-03-15', energy_capacity_kwh: 20, ...extra },
    });
    expect(device.status).toBe(200);
    return device.body.device_id as string;
  }
  const command = { action: 'charge', power_kw: 8, duration_minutes: 60, priority: 'high' };
  const checks = { soc_limits: true, temperature_check: true, grid_constraints: true };

  it('accepts a safe command, records the projected state, and announces dispatch_executed to registered webhooks', async () => {
    // Prepare
    const { key } = await registerKey(runtime());
    const deviceId = await deviceOf(key, { state: { soc: 0.5, temperature_c: 25 } });
    const hook = receiver.endpoint();
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    expect((await call(runtime(), 'POST', '/api/webhooks', { key, json: { webhook_url: hook.url, events: ['dispatch_executed'], secret } })).status).toBe(201);

    // Act
    const r = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, command, safety_checks: checks } });

    // Assess: 8 kW for 1 h into 20 kWh at sqrt(0.9): 0.5 + 0.9487 * 8 / 20 = 0.8795.
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'success', accepted: true, command_status: 'accepted', device_id: deviceId, failed_checks: [], command });
    expect(r.body.command_id).toMatch(/^cmd_/);
    expect(r.body.projected_soc).toBeCloseTo(0.5 + (Math.sqrt(0.9) * 8) / 20, 6);
    const [hit] = await receiver.waitFor(hook.url, 1, 5_000);
    const delivered = new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
    expect(delivered).toMatchObject({ type: 'dispatch_executed', data: { command_id: r.body.command_id, device_id: deviceId, action: 'charge', power_kw: 8, projected_soc: r.body.projected_soc } });

    // The next command starts from the projected state: another hour at 8 kW would overfill the battery.
    const again = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, command, safety_checks: checks } });
    expect(again.body).toMatchObject({ accepted: false, command_status: 'rejected', failed_checks: ['soc_limits'], expected_completion: null });
  });

  it('rejects with the failed checks, and takes a newer state reported with the command', async () => {
    const { key } = await registerKey(runtime());
    const deviceId = await deviceOf(key);
    const unknown = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, command, safety_checks: checks } });
    expect(unknown.body).toMatchObject({ accepted: false, failed_checks: ['soc_limits', 'temperature'] });

    const cold = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, command, safety_checks: checks, device_state: { soc: 0.3, temperature_c: -4 } } });
    expect(cold.body).toMatchObject({ accepted: false, failed_checks: ['temperature'] });
    expect(cold.body.checks.find((c: { check: string }) => c.check === 'temperature').detail).toBe('-4 deg C is outside the charge window [0, 45] deg C');

    const unchecked = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, command, safety_checks: { ...checks, temperature_check: false } } });
    expect(unchecked.body).toMatchObject({ accepted: true, failed_checks: [] });
    const tooStrong = await call(runtime(), 'POST', '/api/realtime-dispatch', { key, json: { device_id: deviceId, command: { ...command, power_kw: 11 }, safety_checks: checks } });
    expect(tooStrong.body).toMatchObject({ accepted: false, failed_checks: expect.arrayContaining(['capacity']) });
  });

  it('answers 404 for a device of another account, and 400 for a malformed command', async () => {
    const [a, b] = [await registerKey(runtime()), await registerKey(runtime())];
    const deviceId = await deviceOf(a.key, { state: { soc: 0.5, temperature_c: 20 } });
    expect(await call(runtime(), 'POST', '/api/realtime-dispatch', { key: b.key, json: { device_id: deviceId, command, safety_checks: checks } })).toMatchObject({
      status: 404,
      body: { status: 'error', error: 'Device not found' },
    });
    expect(await call(runtime(), 'POST', '/api/realtime-dispatch', { key: a.key, json: { device_id: deviceId, command: { ...command, action: 'explode' } } })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^Invalid request: command\.action/) },
    });
  });
});
