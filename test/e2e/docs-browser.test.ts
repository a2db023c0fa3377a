/**
 * The docs page in a real browser: Debian's Chromium driven by playwright-core loads GET /docs from the local
 * runtime (its script and style served by the service, nothing from a CDN) and lists every route of the table.
 * Where Chromium is missing the test is skipped, unless REQUIRE_BROWSER=1 (set by .ci/run, which installs it).
 */
import type { Browser } from 'playwright-core';
import { ROUTES } from '../../shared/routes';
import { describeInBrowser, launchBrowser } from '../helpers/browser';
import { useRuntime } from '../helpers/runtime';

describeInBrowser('GET /docs in Chromium', () => {
  const runtime = useRuntime();
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('renders the reference from local assets only and lists every route', async () => {
    // Prepare
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(runtime().url)) external.push(req.url());
    });

    // Act
    const response = await page.goto(`${runtime().url}/docs`);
    await page.waitForSelector('.opblock-summary', { timeout: 20_000 });
    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );

    // Assess
    expect(response?.status()).toBe(200);
    expect(external).toEqual([]);
    expect(new Set(listed)).toEqual(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)));
    await page.close();
  }, 60_000);

  it('shows the real shape of a success and the route\'s own error messages, never additionalProp1', async () => {
    // Prepare
    const page = await browser.newPage();
    await page.goto(`${runtime().url}/docs`);
    await page.waitForSelector('.opblock-summary', { timeout: 20_000 });
    /** Expands an operation and returns the example body Swagger UI shows for `status`. */
    const exampleOf = async (method: string, path: string, status: string) => {
      const block = page.locator(`.opblock-${method}`).filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
      if (!(await block.getAttribute('class'))?.includes('is-open')) await block.locator('.opblock-summary').first().click();
      const row = block.locator(`tr.response[data-code="${status}"]`);
      await row.waitFor({ timeout: 20_000 });
      return (await row.locator('.microlight, .highlight-code').first().textContent()) ?? '';
    };

    // Act
    const economics = await exampleOf('post', '/api/project-economics', '200');
    const track404 = await exampleOf('post', '/terminal/track', '404');
    const track401 = await exampleOf('post', '/terminal/track', '401');

    // Assess
    expect(economics).toContain('"financial_metrics"');
    expect(economics).toContain('"npv"');
    expect(economics).toContain('"cash_flow_projection"');
    expect(economics).not.toContain('additionalProp');
    expect(track404).toContain('Order not found');
    expect(track401).toContain('"Unauthorized"');
    expect(track401).not.toContain('success');
    await page.close();
  }, 60_000);
});
