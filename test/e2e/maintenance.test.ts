/** Decide and Act over HTTP: schedules, BOMs, work orders and their status changes, tracking subscriptions. */
import { call, registerKey, useRuntime } from '../helpers/runtime';

const uid = () => Math.random().toString(36).slice(2, 10);

describe('the maintenance loop endpoints', () => {
  const runtime = useRuntime();
  let key: string;
  const post = (endpoint: string, json: unknown, k = key) => call(runtime(), 'POST', `/terminal/${endpoint}`, { key: k, json });

  beforeAll(async () => {
    key = (await registerKey(runtime())).key;
  });

  async function asset(extra: Record<string, unknown> = {}) {
    const asset_id = `inv-${uid()}`;
    expect((await post('assets', { action: 'add', asset_id, name: 'Roof inverter', type: 'inverter', capacity_kw: 100, location: 'Berlin', components: [{ oem: 'SMA', model: 'Sunny Tripower CORE1', serial: 'SN1' }], ...extra })).status).toBe(200);
    return asset_id;
  }

  async function order(asset_id: string) {
    const schedule = await post('schedule', { action: 'create', asset_id, maintenance_type: 'preventive', scheduled_date: '2027-03-01T09:00:00+01:00', priority: 'high', reason: 'Annual inspection' });
    const bom = await post('bom', { action: 'generate', asset_id, maintenance_type: 'preventive', schedule_id: schedule.body.schedule_id });
    return post('order', { action: 'create', asset_id, schedule_id: schedule.body.schedule_id, bom_id: bom.body.bom_id, assigned_technician: 'A. Tech', estimated_duration_hours: 4, priority: 'high' });
  }

  it('creates and lists schedules in UTC, pending', async () => {
    const asset_id = await asset();
    const created = await post('schedule', { action: 'create', asset_id, maintenance_type: 'preventive', scheduled_date: '2027-03-01T09:00:00+01:00', priority: 'medium', reason: 'Annual inspection' });
    expect(created.body).toMatchObject({ success: true, asset_id, scheduled_date: '2027-03-01T08:00:00Z' });
    const listed = await post('schedule', { action: 'list', asset_id });
    expect(listed.body).toMatchObject({ success: true, count: 1, schedules: [{ schedule_id: created.body.schedule_id, maintenance_type: 'preventive', priority: 'medium', status: 'pending' }] });
  });

  it('answers the spec errors of schedule, bom and order', async () => {
    const asset_id = await asset();
    expect(await post('schedule', { action: 'weekly', asset_id })).toMatchObject({ status: 400, body: { success: false, message: 'Invalid action' } });
    expect(await post('schedule', { action: 'create', asset_id, maintenance_type: 'preventive', scheduled_date: '2027-03-01T09:00:00Z', priority: 'low' })).toMatchObject({ status: 400, body: { message: 'Missing required field: reason' } });
    expect(await post('schedule', { action: 'create', asset_id: 'nope', maintenance_type: 'preventive', scheduled_date: '2027-03-01T09:00:00Z', priority: 'low', reason: 'x' })).toMatchObject({ status: 404, body: { message: 'Asset not found' } });
    expect(await post('bom', { action: 'generate', asset_id })).toMatchObject({ status: 400, body: { message: 'Missing required field: maintenance_type' } });
    expect(await post('bom', { action: 'explode', asset_id })).toMatchObject({ status: 400, body: { message: 'Invalid action' } });
    expect(await post('order', { action: 'create', asset_id, schedule_id: 's', bom_id: 'b', estimated_duration_hours: 4, priority: 'high' })).toMatchObject({ status: 400, body: { message: 'Missing required field: assigned_technician' } });
    expect(await post('order', { action: 'create', asset_id, schedule_id: 's', bom_id: 'b', assigned_technician: 'A', estimated_duration_hours: 4, priority: 'high' })).toMatchObject({ status: 404, body: { message: 'Schedule not found' } });
    // Another account's asset is reported as missing.
    const other = (await registerKey(runtime())).key;
    expect(await post('bom', { action: 'list', asset_id }, other)).toMatchObject({ status: 404, body: { message: 'Asset not found' } });
  });

  it('generates a BOM whose items add up to the cent and lists it as a summary', async () => {
    const asset_id = await asset();
    const bom = await post('bom', { action: 'generate', asset_id, maintenance_type: 'preventive' });
    expect(bom.body.items.length).toBeGreaterThan(0);
    const cents = bom.body.items.reduce((s: number, i: { quantity: number; unit_cost: number; total_cost: number }) => {
      expect(Math.round(i.quantity * i.unit_cost * 100)).toBe(Math.round(i.total_cost * 100));
      return s + Math.round(i.total_cost * 100);
    }, 0);
    expect(Math.round(bom.body.total_cost * 100)).toBe(cents);
    // A Sunny Tripower's preventive job: SMA's OEM group applies, the Highpower/Central filter does not.
    expect(bom.body.items.map((i: { part_number: string }) => i.part_number)).toEqual(['INV-PM-LAB', 'INV-IR-SCAN', 'INV-CLEAN-KIT', 'INV-TERM-KIT']);
    expect(bom.body).toMatchObject({ indicative: true, currency: 'USD', message: expect.stringMatching(/indicative/) });
    const listed = await post('bom', { action: 'list', asset_id });
    expect(listed.body).toMatchObject({ count: 1, boms: [{ bom_id: bom.body.bom_id, total_cost: bom.body.total_cost, item_count: bom.body.items.length, indicative: true, currency: 'USD' }] });
    expect(listed.body.boms[0].items).toBeUndefined();
  });

  it("gives a Sunny Boy the parts of its family, not a Sunny Tripower's fan kit", async () => {
    const boy = await asset({ capacity_kw: 5, components: [{ oem: 'SMA', model: 'Sunny Boy 5.0', serial: 'SN2' }] });
    const tripower = await asset();

    const parts = async (asset_id: string) => (await post('bom', { action: 'generate', asset_id, maintenance_type: 'corrective' })).body.items.map((i: { part_number: string }) => i.part_number);

    expect(await parts(boy)).toEqual(['INV-CM-LAB', 'INV-DC-FUSE', 'SMA-SUNCLIX-SB', 'SMA-COMM-MOD']);
    expect(await parts(tripower)).toContain('SMA-FANKIT-STP');
  });

  it('moves a work order pending -> in_progress -> completed and refuses other moves with 409', async () => {
    const asset_id = await asset();
    const created = await order(asset_id);
    expect(created.body).toMatchObject({ success: true, status: 'pending', asset_id });
    const order_id = created.body.order_id;
    const update = (status: string) => post('order', { action: 'update', asset_id, order_id, status, completion_notes: `now ${status}` });
    expect(await update('completed')).toMatchObject({ status: 409, body: { success: false, message: 'Invalid status transition' } });
    expect(await update('in_progress')).toMatchObject({ status: 200, body: { status: 'in_progress' } });
    expect(await update('in_progress')).toMatchObject({ status: 409 });
    expect(await update('completed')).toMatchObject({ status: 200, body: { status: 'completed' } });
    expect(await update('cancelled')).toMatchObject({ status: 409 });
    const listed = await post('order', { action: 'list', asset_id });
    expect(listed.body).toMatchObject({ count: 1, orders: [{ order_id, status: 'completed', completion_notes: 'now completed' }] });
    expect(await post('order', { action: 'update', asset_id, order_id: 'ord_nope', status: 'in_progress' })).toMatchObject({ status: 404, body: { message: 'Order not found' } });
  });

  it('subscribes to an order with a generated secret and lists the subscription without it', async () => {
    const asset_id = await asset();
    const { order_id } = (await order(asset_id)).body;
    const sub = await post('track', { action: 'subscribe', order_id, callback_url: 'https://ops.example.com/hooks/orders' });
    expect(sub.body).toMatchObject({ success: true, order_id, status: 'active', secret: expect.stringMatching(/^whsec_/) });
    const listed = await post('track', { action: 'list', order_id });
    expect(listed.body).toMatchObject({ count: 1, subscriptions: [{ subscription_id: sub.body.subscription_id, callback_url: 'https://ops.example.com/hooks/orders', status: 'active' }] });
    expect(listed.body.subscriptions[0].secret).toBeUndefined();
    expect(await post('track', { action: 'subscribe', order_id, callback_url: 'not a url' })).toMatchObject({ status: 400, body: { message: 'Invalid callback URL' } });
    expect(await post('track', { action: 'subscribe', order_id: 'ord_nope', callback_url: 'https://x.example.com' })).toMatchObject({ status: 404, body: { message: 'Order not found' } });
    expect(await post('track', { action: 'unsubscribe', order_id })).toMatchObject({ status: 400, body: { message: 'Invalid action' } });
  });
});
