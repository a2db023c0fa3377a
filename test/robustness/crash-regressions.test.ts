/**
 * The single requests that stopped the process or answered 500 (issue 17), pinned over HTTP against the
 * local runtime. After each group the runtime must still answer /health: a crash would end the test run.
 */
import net from 'node:net';
import { call, registerKey, useRuntime } from '../helpers/runtime';

const runtime = useRuntime();

/** Sends raw bytes and returns the status line, or with `whole` the whole answer ('closed' when the socket ended without one). */
function rawRequest(port: number, bytes: string, whole = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve((whole ? answer : answer.split('\r\n')[0]) || 'closed'));
  });
}

async function expectAlive() {
  const r = await call(runtime(), 'GET', '/health');
  expect(r.status).toBe(200);
}

describe('malformed percent-escapes in path parameters', () => {
  it.each([
    ['GET', '/api/batch/%ZZ', 'batch_id'],
    ['GET', '/api/uploads/%ZZ', 'upload_id'],
    ['GET', '/api/training-status/%E0%A4%A', 'job_id'],
    ['DELETE', '/api/webhooks/%C0', 'webhook_id'],
  ])('%s %s answers 400 naming %s, with or without a key', async (method, path, name) => {
    const { key } = await registerKey(runtime());
    for (const options of [{}, { key }]) {
      const r = await call(runtime(), method, path, options);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ status: 'error', error: `Invalid path parameter: ${name} is not valid percent-encoding` });
    }
    await expectAlive();
  });

  it('keeps a well-formed escape working (decoded, then looked up)', async () => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'GET', '/api/uploads/upl_%41bc', { key });
    expect(r.status).toBe(404);
  });
});

describe('raw requests the HTTP parser or URL parser would choke on', () => {
  it.each([
    ['a path of two slashes', 'GET // HTTP/1.1\r\nHost: x\r\n\r\n', /^HTTP\/1\.1 404/],
    ['a scheme-relative path', 'GET //evil.example/api/usage HTTP/1.1\r\nHost: x\r\n\r\n', /^HTTP\/1\.1 404/],
    ['a malformed request line', 'NOT A REQUEST\r\n\r\n', /^HTTP\/1\.1 400/],
    ['a header without a colon', 'GET /health HTTP/1.1\r\nHost x\r\n\r\n', /^HTTP\/1\.1 400/],
  ])('answers %s and keeps serving', async (_what, bytes, status) => {
    expect(await rawRequest(runtime().port, bytes)).toMatch(status);
    await expectAlive();
  });

  it.each([
    // A HEAD answered with a body broke the client's parser ("Data after Connection: close"): the fuzzer found it.
    ['HEAD with headers past the limit', `HEAD /api/dispatch/mpc?customer_id=${'c'.repeat(18_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, /^HTTP\/1\.1 431 [^]*\r\n\r\n$/],
    ['GET with headers past the limit, with its JSON reason', `GET /api/usage?x=${'c'.repeat(18_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, /^HTTP\/1\.1 431 [^]*\r\n\r\n\{"status":"error","error":"Request line and headers are too large"\}$/],
    ['POST with 100 kB of query', `POST /upload_historical?${'x'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, /^HTTP\/1\.1 431 [^]*\r\n\r\n\{"status":"error","error":"Request line and headers are too large"\}$/],
    ['a malformed HEAD', 'HEAD /health HTTP/1.1\r\nHost x\r\n\r\n', /^HTTP\/1\.1 400 [^]*content-length: 0\r\n[^]*\r\n\r\n$/],
    ['a malformed GET, with its JSON reason', 'GET /health HTTP/1.1\r\nHost x\r\n\r\n', /^HTTP\/1\.1 400 [^]*\r\n\r\n\{"status":"error","error":"Malformed HTTP request"\}$/],
  ])('answers %s with a response a client can parse', async (_what, bytes, whole) => {
    expect(await rawRequest(runtime().port, bytes, true)).toMatch(whole);
    await expectAlive();
  });
});

describe('multipart bodies cut off or without names', () => {
  const boundary = 'cut0ff';
  const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="customer_id"\r\n\r\nc1\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="d.csv"\r\nContent-Type: text/csv\r\n\r\ntimestamp,power_kw\n2026-01-01T00:00:00Z,1\n`;
  const unnamed = `--${boundary}\r\nContent-Disposition: form-data; filename="d.csv"\r\nContent-Type: text/csv\r\n\r\ntimestamp,power_kw\n2026-01-01T00:00:00Z,1\n\r\n--${boundary}--\r\n`;

  it.each(['/upload_train', '/upload_nowcast', '/v1/freemium-forecast', '/api/v1/freemium-forecast'])('POST %s with a truncated body answers 400', async (path) => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'POST', path, { key, body: truncated, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^Malformed multipart\/form-data body: unexpected end of form/);
    await expectAlive();
  });

  it.each(['/upload_train', '/v1/freemium-forecast'])('POST %s with a part that has no name answers 400', async (path) => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'POST', path, { key, body: unnamed, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Malformed multipart/form-data body: a part has no name');
  });
});

describe('ids beyond the key limits', () => {
  it('GET /forecast with an 8,000-character customer_id answers 400 naming it', async () => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'GET', `/forecast?customer_id=${'c'.repeat(8000)}`, { key });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Invalid request: customer_id must be 1-128 printable ASCII characters without "/"');
  });

  it('/terminal/track with a 100,000-character order_id answers 400 in the terminal envelope', async () => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'POST', '/terminal/track', { key, json: { action: 'list', order_id: 'o'.repeat(100_000) } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, message: 'Invalid request: order_id must be 1-128 printable ASCII characters without "/"' });
  });

  it('refuses an id with a slash or a control character wherever it appears', async () => {
    const { key } = await registerKey(runtime());
    const slash = await call(runtime(), 'POST', '/terminal/assets', { key, json: { action: 'list', customer_id: 'a/b' } });
    expect(slash.status).toBe(400);
    expect(slash.body.message).toBe('Invalid request: customer_id must be 1-128 printable ASCII characters without "/"');
    const control = await call(runtime(), 'GET', '/api/uploads/upl%0Aone', { key });
    expect(control.status).toBe(400);
  });

  it('refuses a body nested deeper than any request needs', async () => {
    const { key } = await registerKey(runtime());
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const r = await call(runtime(), 'POST', '/api/project-economics', { key, body: deep, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    await expectAlive();
  });
});

describe('text too long for the store', () => {
  /** An asset, a schedule, a BOM and a pending work order, as the maintenance loop makes them. */
  async function pendingOrder(key: string): Promise<string> {
    const asset_id = `asset-${Date.now()}-${Math.round(Math.random() * 1e6)}`;
    const post = async (name: string, json: object) => (await call(runtime(), 'POST', `/terminal/${name}`, { key, json })).body;
    await post('assets', { action: 'add', asset_id, name: 'Inverter 1', type: 'inverter', capacity_kw: 50, location: 'Berlin' });
    const schedule = await post('schedule', { action: 'create', asset_id, maintenance_type: 'preventive', scheduled_date: '2026-12-01', priority: 'medium', reason: 'inspection' });
    const bom = await post('bom', { action: 'generate', asset_id, schedule_id: schedule.schedule_id, maintenance_type: 'preventive' });
    const order = await post('order', { action: 'create', asset_id, schedule_id: schedule.schedule_id, bom_id: bom.bom_id, assigned_technician: 'T', estimated_duration_hours: 4, priority: 'high' });
    return order.order_id;
  }

  it('refuses a tracking callback URL of half a megabyte (it answered 500: the item outgrew DynamoDB)', async () => {
    const { key } = await registerKey(runtime());
    const order_id = await pendingOrder(key);
    const r = await call(runtime(), 'POST', '/terminal/track', { key, json: { action: 'subscribe', order_id, callback_url: `http://127.0.0.1:9/${'u'.repeat(450_000)}` } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, message: 'Invalid callback URL', reason: 'longer than 2048 characters' });
  });

  it('refuses a tracking secret of half a megabyte', async () => {
    const { key } = await registerKey(runtime());
    const order_id = await pendingOrder(key);
    const r = await call(runtime(), 'POST', '/terminal/track', { key, json: { action: 'subscribe', order_id, callback_url: 'http://127.0.0.1:9/a', secret: `whsec_${'A'.repeat(450_000)}` } });
    expect(r.status).toBe(400);
  });
});

describe('numbers too small for the store', () => {
  it('refuses a non-zero magnitude below 1e-100 (DynamoDB cannot store it) naming the field', async () => {
    const { key } = await registerKey(runtime());
    const customer = `c-${Date.now()}`;
    await call(runtime(), 'POST', '/api/create-client', { key, json: { client_id: `cl-${customer}`, name: 'N', contact_email: 'n@example.com' } });
    await call(runtime(), 'POST', '/api/create-customer', { key, json: { client_id: `cl-${customer}`, customer_id: customer, contact_name: 'N', email: 'n@example.com', location: 'Berlin', system_type: 'solar' } });
    const r = await call(runtime(), 'POST', '/api/create-device', {
      key,
      json: { customer_id: customer, device_type: 'battery', serial_number: 'S1', manufacturer: 'M', capacity_kw: 5e-324, installation_date: '2024-01-01' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Invalid request: capacity_kw must be 0 or a finite number of magnitude 1e-100 to 1000000000000000');
    const asset = await call(runtime(), 'POST', '/terminal/assets', { key, json: { action: 'add', asset_id: 'a1', name: 'A', type: 'inverter', capacity_kw: 1e-200 } });
    expect(asset.status).toBe(400);
  });
});

describe('numbers beyond physical bounds in dispatch', () => {
  const base = () => ({
    forecasts: { solar_forecast: [0, 5, 10, 5], load_forecast: [4, 4, 4, 4], price_forecast: [0.1, 0.2, 0.3, 0.1] },
    system_config: { battery_capacity_kwh: 20, battery_power_kw: 5 },
    optimization_config: { interval_minutes: 60 },
  });

  it.each([
    ['forecasts.solar_forecast.1', (b: ReturnType<typeof base>) => (b.forecasts.solar_forecast[1] = 1e308)],
    ['forecasts.load_forecast.2', (b: ReturnType<typeof base>) => (b.forecasts.load_forecast[2] = 1e308)],
    ['forecasts.price_forecast.0', (b: ReturnType<typeof base>) => (b.forecasts.price_forecast[0] = -1e308)],
    ['forecasts.price_forecast.3', (b: ReturnType<typeof base>) => (b.forecasts.price_forecast[3] = 1e308)],
    ['system_config.battery_capacity_kwh', (b: ReturnType<typeof base>) => (b.system_config.battery_capacity_kwh = 1e308)],
  ])('answers 400 naming %s', async (field, spoil) => {
    const { key } = await registerKey(runtime());
    const body = base();
    spoil(body);
    const r = await call(runtime(), 'POST', '/api/dispatch-optimization', { key, json: body });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(new RegExp(`^Invalid request: ${field.replace(/\./g, '\\.')} must be`));
  });

  it('refuses a round-trip efficiency no store has (the solver failed on 1e-40)', async () => {
    const { key } = await registerKey(runtime());
    const body = { ...base(), system_config: { battery_capacity_kwh: 20, battery_power_kw: 5, roundtrip_efficiency: 1e-40 } };
    const r = await call(runtime(), 'POST', '/api/dispatch-optimization', { key, json: body });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^Invalid request: system_config\.roundtrip_efficiency must be at least 0\.01/);
  });

  it('answers inputs too far apart in scale for the solver with 422, not 500', async () => {
    const { key } = await registerKey(runtime());
    const body = base();
    body.forecasts.price_forecast = [-1e5, 1e5, -1e5, 1];
    body.system_config.battery_capacity_kwh = 1e11;
    body.system_config.battery_power_kw = 1e-3;
    const r = await call(runtime(), 'POST', '/api/dispatch-optimization', { key, json: body });
    expect([200, 422]).toContain(r.status);
  });

  it('answers a bounded large system as a solved schedule', async () => {
    const { key } = await registerKey(runtime());
    const body = base();
    body.system_config.battery_capacity_kwh = 1e6;
    body.system_config.battery_power_kw = 1e5;
    const r = await call(runtime(), 'POST', '/api/dispatch-optimization', { key, json: body });
    expect(r.status).toBe(200);
  });
});
