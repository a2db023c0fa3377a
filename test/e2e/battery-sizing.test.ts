/** Battery sizing over HTTP: the size, its comparison and economics; PV modelled from a pv_system; input errors named. */
import { call, registerKey, useRuntime } from '../helpers/runtime';

const runtime = useRuntime();

const DAYS = 14;
const hours = (f: (h: number) => number) => Array.from({ length: 24 * DAYS }, (_, t) => f(t % 24));

/** A site with a 17:00-21:00 weekday peak price, solar at midday and a monthly demand charge. */
const request = (over: Record<string, unknown> = {}) => ({
  load_kw: hours((h) => (h >= 7 && h <= 21 ? 40 : 20)),
  pv_kw: hours((h) => Math.round(Math.max(0, 50 * Math.sin((Math.PI * (h - 6)) / 12)) * 10) / 10),
  start_time: '2026-06-01T00:00:00+02:00',
  interval_minutes: 60,
  tariff: {
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    import_price: 0.2,
    export_price: 0.05,
    periods: [{ name: 'peak', weekdays: [1, 2, 3, 4, 5], hours: [17, 18, 19, 20, 21], import_price: 0.45 }],
    monthly_demand_charge_per_kw: 10,
  },
  battery_cost_per_kwh: 200,
  battery_cost_per_kw: 60,
  project_config: { project_lifetime: 12, discount_rate: 0.06, degradation_rate: 0.01, annual_expenses: 0 },
  max_energy_kwh: 500,
  max_power_kw: 100,
  ...over,
});

describe('POST /api/battery-sizing', () => {
  it('answers the size with the highest NPV, compared with no battery and its neighbours, and its economics', async () => {
    // Prepare
    const { key } = await registerKey(runtime());

    // Act
    const r = await call(runtime(), 'POST', '/api/battery-sizing', { key, json: request() });

    // Assess
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b.energy_capacity_kwh).toBeGreaterThan(0);
    expect(b.power_capacity_kw).toBeGreaterThan(0);
    expect(b.npv).toBeGreaterThan(0);
    const roles = b.compared_sizes.map((c: { role: string }) => c.role);
    expect(roles).toEqual(['no_battery', 'smaller', 'chosen', 'larger']);
    for (const c of b.compared_sizes) expect(b.npv).toBeGreaterThanOrEqual(c.npv - 0.01);
    const chosen = b.compared_sizes.find((c: { role: string }) => c.role === 'chosen');
    expect(chosen).toMatchObject({ energy_capacity_kwh: b.energy_capacity_kwh, npv: b.npv, capital_cost: expect.closeTo(200 * b.energy_capacity_kwh + 60 * b.power_capacity_kw, 0) });
    // The economics are the project-economics module's on the chosen size's year-1 savings.
    expect(b.economics.financial_metrics.npv).toBe(b.npv);
    expect(b.economics.cash_flow_projection[1].revenue).toBeCloseTo(chosen.annual_savings, 2);
    expect(b.dispatch_summary.net_benefit).toBeGreaterThan(0);
    expect(b.dispatch_summary.demand_charge_periods).toHaveLength(1);
    expect(b.dispatch_schedule).toBeUndefined();
    expect(b.method).toMatch(/One LP over the horizon/);
    expect(b.solve_ms).toBeGreaterThan(0);
  });

  it('models the PV of a pv_system under a derated clear sky, and answers the schedule when asked', async () => {
    const { key } = await registerKey(runtime());
    const body = { ...request({ pv_system: { latitude: 52.5, longitude: 13.4, elevation_m: 40, capacity_kwp: 60, tilt_deg: 30, azimuth_deg: 180 }, include_schedule: true }), pv_kw: undefined };
    const r = await call(runtime(), 'POST', '/api/battery-sizing', { key, json: body });
    expect(r.status).toBe(200);
    const schedule = r.body.dispatch_schedule as { solar_kw: number; timestamp: string }[];
    expect(schedule).toHaveLength(24 * DAYS);
    // Berlin in June: nothing at midnight UTC, most near solar noon (about 11:00 UTC), within the inverter's 50 kW.
    expect(schedule[0].solar_kw).toBe(0);
    expect(schedule[11].solar_kw).toBeGreaterThan(20);
    expect(Math.max(...schedule.map((s) => s.solar_kw))).toBeLessThanOrEqual(50 * 0.75);
  });

  it('names the cause of unusable input with a 400', async () => {
    const { key } = await registerKey(runtime());
    const post = (json: unknown) => call(runtime(), 'POST', '/api/battery-sizing', { key, json });
    expect(await post(request({ pv_kw: [1, 2, 3] }))).toMatchObject({ status: 400, body: { error: `pv_kw has 3 values; load_kw has ${24 * DAYS}: give one per interval` } });
    expect(await post(request({ load_kw: [10, 10], pv_kw: [0, 0] }))).toMatchObject({ status: 400, body: { error: expect.stringMatching(/sizing needs at least a day/) } });
    const both = await post(request({ pv_system: { latitude: 52.5, longitude: 13.4, capacity_kwp: 60, tilt_deg: 30, azimuth_deg: 180 } }));
    expect(both).toMatchObject({ status: 400, body: { error: expect.stringMatching(/pv_system/) } });
    expect(await post(request({ tariff: { currency: 'EUR', periods: [{ hours: [17], import_price: 0.4 }] } }))).toMatchObject({ status: 400, body: { error: expect.stringMatching(/no flat import_price/) } });
  });
});
