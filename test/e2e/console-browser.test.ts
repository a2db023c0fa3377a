/**
 * The web console in a real browser (issue #23): Debian's Chromium drives /console/ on the local runtime through
 * the flows an operator runs: sign in; create a customer and upload a CSV, watching it process; forecast and see
 * the band; optimise dispatch and see the state of charge; read a device's MPC plan against its measured SOC; move
 * a work order through its states on the board; ask a policy question. Each flow saves a screenshot
 * (CONSOLE_SCREENSHOTS, default test-output/console), every page passes axe-core with no serious or critical
 * finding, and nothing is loaded from another origin.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchBrowser } from '../helpers/browser';
import { call, enterpriseKey, registerKey, useRuntime } from '../helpers/runtime';
import { until } from '../helpers/poll';

const ROOT = path.resolve(__dirname, '../..');
const SHOTS = path.resolve(ROOT, process.env.CONSOLE_SCREENSHOTS ?? 'test-output/console');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const RUN = Date.now().toString(36);
const CUSTOMER = `console-${RUN}`;

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it stands. */
async function seriousFindings(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol: the page's CSP (script-src 'self') rightly refuses an injected tag.
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => (await (globalThis as unknown as { axe: { run: () => Promise<{ violations: unknown[] }> } }).axe.run()).violations)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describeInBrowser('the web console in Chromium', () => {
  const runtime = useRuntime();
  let browser: Browser;
  let page: Page;
  let key: string;
  const external: string[] = [];
  const pageErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const open = async (hash: string) => {
    await page.goto(`${runtime().url}/console/#/${hash}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    key = await enterpriseKey(runtime());
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));
    page.on('request', (req) => {
      if (!req.url().startsWith(runtime().url)) external.push(req.url());
    });
  });
  afterAll(() => browser?.close());

  it('signs in with a key kept out of the URL, and shows the tier, usage bars and health', async () => {
    // Act
    await page.goto(`${runtime().url}/console`);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refused = await page.getByRole('alert').textContent();
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('tier').waitFor();

    // Assess
    expect(refused).toContain('Unauthorized');
    expect(await page.getByTestId('tier').textContent()).toBe('enterprise');
    expect(await page.getByRole('meter').count()).toBe(4);
    expect(await page.getByTestId('health').textContent()).toContain('operational');
    expect(page.url()).not.toContain(key);
    expect(await page.evaluate<string[]>('Object.keys(sessionStorage)')).toContain('energy-ops.api-key');
    expect(await seriousFindings(page)).toEqual([]);
    await shot('overview');
  }, 60_000);

  it('is keyboard navigable: the skip link first, then the pages by Tab and Enter', async () => {
    // Prepare
    await open('overview');

    // Act
    await page.keyboard.press('Tab');
    const first = await page.evaluate<string>('document.activeElement.textContent');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const second = await page.evaluate<string>('document.activeElement.textContent');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/sites$/);

    // Assess
    expect(first).toBe('Skip to content');
    expect(second).toBe('Sites and data');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sites and data');
  }, 30_000);

  it('says where the key\'s tier does not allow a page, and links to the upgrade information', async () => {
    // Prepare: a free key in a tab of its own
    const { key: free } = await registerKey(runtime());
    const tab = await browser.newPage();
    await tab.goto(`${runtime().url}/console/`);
    await tab.getByLabel('API key').fill(free);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByTestId('tier').waitFor();

    // Act
    await tab.getByRole('button', { name: 'Show platform status' }).click();
    const alert = tab.getByRole('alert');
    await alert.waitFor();

    // Assess
    expect(await tab.getByTestId('tier').textContent()).toBe('free');
    expect(await alert.textContent()).toContain('requires the enterprise tier');
    expect(await alert.getByRole('link', { name: 'How to upgrade' }).getAttribute('href')).toMatch(/^https:\/\//);
    await tab.close();
  }, 60_000);

  it('creates a customer, uploads a CSV and follows it to processed, then draws the stored series', async () => {
    // Prepare
    await open('sites');
    await page.getByLabel('Customer id').fill(CUSTOMER);
    await page.getByLabel('Site id').fill('pv');
    await page.getByText('New client and customer').click();
    await page.getByLabel('Client id').fill(`client-${RUN}`);
    await page.getByLabel('Client name').fill('Console tests');
    await page.getByLabel('Client e-mail').fill('ops@example.com');
    await page.getByLabel('Contact name').fill('Ann Otieno');
    await page.getByLabel('Customer e-mail').fill('ann@example.com');
    await page.getByLabel('Location (lat,lon)').first().fill('38.18,117.46');
    await page.getByRole('button', { name: 'Create client and customer' }).click();
    await page.getByText(`Customer ${CUSTOMER} created`).waitFor();

    // Act
    await page.getByLabel('Drop a CSV here, or choose one').setInputFiles(path.join(ROOT, 'examples/data/pv_hourly.csv'));
    await page.getByLabel('Location (lat,lon)').last().fill('38.18,117.46');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('upload-state').filter({ hasText: /processed|failed/ }).waitFor({ timeout: 60_000 });
    await page.getByTestId('series-chart').locator('canvas').waitFor({ timeout: 30_000 });

    // Assess
    expect(await page.getByTestId('upload-state').textContent()).toBe('processed');
    expect(await page.getByRole('status').filter({ hasText: 'Training' }).count()).toBeGreaterThan(0);
    expect(await seriousFindings(page)).toEqual([]);
    await shot('sites-upload');
  }, 120_000);

  it('runs a forecast from the trained model and draws it with its interval band', async () => {
    // Prepare: the upload queued the site's training; the forecast needs its model.
    await until(async () => Boolean((await call(runtime(), 'POST', '/terminal/ml-models', { key, json: { customer_id: CUSTOMER } })).body.model_metrics?.some((m: { status: string }) => m.status === 'production')), { what: 'the site\'s model', ms: 90_000, every: 500 });
    await open('forecasts');

    // Act
    await page.getByRole('button', { name: 'Forecast', exact: true }).click();
    await page.getByTestId('forecast-chart').locator('canvas').waitFor({ timeout: 30_000 });

    // Assess
    expect(await page.getByTestId('forecast-meta').textContent()).toMatch(/Model v\d+.*weather: /);
    expect(await page.getByTestId('forecast-chart').locator('.u-legend').textContent()).toContain('Upper');
    expect(await seriousFindings(page)).toEqual([]);
    await shot('forecast');
  }, 150_000);

  it('optimises a day of dispatch and draws the flows and the state of charge', async () => {
    // Prepare: a forecast file of 24 hours, loaded into the boxes
    await open('dispatch');
    const hours = Array.from({ length: 24 }, (_, h) => `2026-11-23T${String(h).padStart(2, '0')}:00:00Z,${Math.max(0, 5 * Math.sin(((h - 6) / 12) * Math.PI)).toFixed(2)},${(12 + 10 * Math.sin((h / 24) * Math.PI)).toFixed(1)},${(h >= 17 && h <= 20 ? 0.35 : 0.1).toFixed(2)}`);
    await page.getByLabel('Or load a forecast file').setInputFiles({ name: 'day.csv', mimeType: 'text/csv', buffer: Buffer.from(['timestamp,solar_kw,load_kw,price_per_kwh', ...hours].join('\n')) });
    await until(async () => (await page.getByLabel('Import price per kWh, per hour').inputValue()).includes('0.35'), { what: 'the file\'s prices in the box' });

    // Act
    await page.getByRole('button', { name: 'Optimise', exact: true }).click();
    await page.getByTestId('soc-chart').locator('canvas').waitFor({ timeout: 30_000 });

    // Assess
    expect(await page.getByTestId('soc-chart').locator('.u-legend').textContent()).toContain('State of charge');
    expect(await page.getByTestId('flows-chart').locator('.u-legend').textContent()).toContain('Battery discharge');
    expect(await page.getByTestId('economics').textContent()).toContain('Without battery');
    expect(await seriousFindings(page)).toEqual([]);
    await shot('dispatch');
  }, 60_000);

  it('shows a device\'s MPC plan against its measured SOC, and the API\'s refusal before it has one', async () => {
    // Prepare: a battery of a customer of its own, over HTTP
    const created = [
      await call(runtime(), 'POST', '/api/create-client', { key, json: { client_id: `mpc-${RUN}`, name: 'MPC', contact_email: 'ops@example.com', tier: 'free', services: ['optimization'] } }),
      await call(runtime(), 'POST', '/api/create-customer', { key, json: { client_id: `mpc-${RUN}`, customer_id: `mpc-${RUN}`, contact_name: 'A', email: 'a@example.com', location: 'Berlin', system_type: 'pv+storage' } }),
    ];
    const device = await call(runtime(), 'POST', '/api/create-device', {
      key,
      json: { customer_id: `mpc-${RUN}`, device_type: 'battery', serial_number: `SN-${RUN}`, manufacturer: 'BYD', capacity_kw: 5, installation_date: '2024-03-15', energy_capacity_kwh: 10, min_soc: 0.1, max_soc: 0.9 },
    });
    expect([...created, device].map((r) => r.status)).toEqual([200, 200, 200]);
    const deviceId = device.body.device_id as string;
    const hourly = (f: (h: number) => number) => Array.from({ length: 24 }, (_, h) => f(h));
    const plan = (hour: number, soc: number) => ({
      device_id: deviceId,
      current_soc: soc,
      forecasts: { solar_forecast: hourly((h) => Math.max(0, 5 * Math.sin(((h - 6) / 12) * Math.PI))), load_forecast: hourly(() => 2), price_forecast: hourly((h) => (h >= 17 && h <= 20 ? 0.35 : 0.1)) },
      optimization_config: { objective: 'cost', interval_minutes: 60, start_time: `2026-11-23T${String(hour).padStart(2, '0')}:00:00Z` },
    });
    await open('dispatch');
    const form = page.getByTestId('mpc-form');
    await form.getByLabel('Device id').fill(deviceId);
    await form.getByRole('button', { name: 'Show plan' }).click();
    const refusal = await form.getByRole('alert').textContent();
    const plans = [await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: plan(0, 0.5) }), await call(runtime(), 'POST', '/api/dispatch/mpc', { key, json: plan(1, 0.45) })];
    expect(plans.map((r) => r.status)).toEqual([200, 200]);

    // Act
    await form.getByRole('button', { name: 'Show plan' }).click();
    await page.getByTestId('mpc-chart').locator('canvas').waitFor({ timeout: 30_000 });

    // Assess
    expect(refusal).toContain(`No MPC plan for device ${deviceId}`);
    expect(await form.getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('mpc-tracking-count').textContent()).toBe('2');
    expect(await page.getByTestId('mpc-meta').textContent()).toContain(plans[1].body.plan_id);
    const legend = await page.getByTestId('mpc-chart').locator('.u-legend').textContent();
    for (const label of ['Planned SOC', 'Planned battery kW', 'Measured SOC', 'SOC the previous plan expected']) expect(legend).toContain(label);
    expect(await seriousFindings(page)).toEqual([]);
    await shot('dispatch-mpc');
  }, 60_000);

  it('adds an asset, creates a work order and moves it pending -> in progress -> completed on the board', async () => {
    // Prepare
    await open('operations');
    await page.getByText('Add an asset on the current site').click();
    await page.getByLabel('Asset id').fill(`inv-${RUN}`);
    await page.getByLabel('Name').fill('Roof inverter');
    await page.getByLabel('Location (lat,lon)').fill('38.18,117.46');
    await page.getByRole('button', { name: 'Add asset' }).click();
    await page.getByLabel('Technician').waitFor();
    const column = (status: string) => page.getByTestId('order-board').locator(`[data-status="${status}"] .card`);

    // Act
    await page.getByLabel('Technician').fill('Li Wei');
    await page.getByRole('button', { name: 'Schedule and create a work order' }).click();
    await column('pending').first().waitFor();
    const moves = await column('pending').first().getByRole('button').allTextContents();
    await column('pending').first().getByRole('button', { name: /in progress/ }).click();
    await column('in_progress').first().waitFor();
    await column('in_progress').first().getByRole('button', { name: /completed/ }).click();
    await column('completed').first().waitFor();

    // Assess
    expect(moves.map((m) => m.trim())).toEqual(['→ in progress', '→ cancelled']);
    expect(await column('completed').first().getByRole('button').count()).toBe(0);
    expect(await column('pending').count()).toBe(0);
    expect(await seriousFindings(page)).toEqual([]);
    await shot('work-orders');
  }, 60_000);

  it('asks a policy question and shows the answer with numbered, linked sources', async () => {
    // Act
    await open('policy');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByTestId('policy-answer').waitFor({ timeout: 30_000 });

    // Assess
    const links = await page.getByTestId('policy-sources').locator('a[href^="http"]').count();
    expect(links).toBeGreaterThan(0);
    expect(await page.getByRole('table', { name: 'Compliance checklist' }).count()).toBe(1);
    expect(await seriousFindings(page)).toEqual([]);
    await shot('policy');
  }, 60_000);

  it('loaded nothing from another origin and raised no script error', () => {
    expect(external).toEqual([]);
    // The API's refusals (the wrong key, the free tier, a site before its upload, a device without a plan) are
    // answers, not script errors.
    expect(pageErrors.filter((e) => !/status of 40[1349]/.test(e))).toEqual([]);
  });
});
