import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { subscribed } from '../support/graphql-client';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

/** Debian's chromium (.ci/run installs it with apt when missing); never a browser downloaded by playwright. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');
const available = existsSync(CHROMIUM);
if (!available) {
  // Only when the browser truly is not installed; a browser that is there but fails makes the test fail.
  process.stderr.write(`dashboard browser test SKIPPED: ${CHROMIUM} does not exist (apt-get install -y chromium)\n`);
}

(available ? describe : describe.skip)('/dashboard in headless Chromium', () => {
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    // Slower sandbox than other tests, so each state is on screen for a moment.
    service = await startTestService({ SANDBOX_ACCEPT_DELAY_MS: '300', SANDBOX_RESULT_DELAY_MS: '600', WEBHOOK_WORKER_ENABLED: 'false' });
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('shows a payment created through REST appear and reach succeeded live, using only this origin', async () => {
    const { apiKey } = await service.newTenant();
    const page = await browser.newPage({ viewport: { width: 1280, height: 640 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => void (message.type() === 'error' && problems.push(`console: ${message.text()}`)));
    // Works offline: anything not served by the service itself is refused and reported.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(service.baseUrl)) return route.continue();
      problems.push(`external request: ${url}`);
      return route.abort();
    });

    await page.goto(`${service.baseUrl}/dashboard/`);
    await page.fill('#api-key', apiKey);
    await page.click('#connect');
    await page.waitForSelector('#connection[data-state="live"]');
    await subscribed(service, 1);
    // Records every row the page puts in the table (page code as a string: tsc here has no DOM types).
    await page.evaluate(`(() => {
      window.seen = [];
      new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach((node) => {
        if (node.dataset && node.dataset.paymentId) window.seen.push(node.dataset.paymentId + ':' + node.dataset.status);
      }))).observe(document.getElementById('payment-rows'), { childList: true });
    })()`);

    const created = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, body: moneyOutBody({ reference: `dashboard-${randomUUID()}` }), headers: { 'idempotency-key': randomUUID() },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const row = page.locator(`tr[data-payment-id="${id}"]`);
    await row.waitFor();
    await page.waitForSelector(`tr[data-payment-id="${id}"][data-status="succeeded"]`, { timeout: 15_000 });

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-succeeded.png'), fullPage: true });
    expect(await row.locator('.status').textContent()).toBe('succeeded');
    expect(await row.locator('td').nth(2).textContent()).toBe(created.body.reference);
    const seen = await page.evaluate('window.seen');
    expect(seen).toEqual([`${id}:initiated`, `${id}:provider_accepted`, `${id}:succeeded`]);
    expect(problems).toEqual([]);
  });

  it('says so when the key is refused', async () => {
    const page = await browser.newPage();
    await page.goto(`${service.baseUrl}/dashboard/`);
    await page.fill('#api-key', 'sk_sandbox_000000000000000000000000000000000000');
    await page.click('#connect');
    await page.waitForSelector('#connection[data-state="error"]');
    expect(await page.textContent('#connection')).toContain('refused');
  });
});
