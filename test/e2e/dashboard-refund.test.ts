import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { subscribed } from '../support/graphql-client';
import { liveTenant, testRouting } from '../support/live-rails';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';

/** Debian's chromium (.ci/run installs it with apt when missing); never a browser downloaded by playwright. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) process.stderr.write(`dashboard refund browser test SKIPPED: ${CHROMIUM} does not exist (apt-get install -y chromium)\n`);

/**
 * The console's payment detail shows the payment's onchain refund (docs/api.md § Refunds): its
 * status and, once known, its transaction. The console is the issuer's (no operator surface), so
 * the failed-refunds queue and retry stay in the admin API.
 */
(available ? describe : describe.skip)('/dashboard payment detail: the refund', () => {
  let service: TestService;
  let browser: Browser;
  let admin: string;
  const live = new ScriptedProvider('scripted_live');

  beforeAll(async () => {
    const sandbox = new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 });
    service = await startTestService({
      RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
    }, { routing: testRouting(sandbox, () => live) });
    admin = await service.newAdminKey();
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  async function until(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await page.evaluate(expression))) {
      if (Date.now() > deadline) throw new Error(`page condition not met in time: ${expression}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('shows a failed live payout\'s refund pending with no transaction, then sent with its transaction', async () => {
    const { apiKey } = await liveTenant(service, admin);
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ reference: `console-${randomUUID()}` }), headers: { 'idempotency-key': randomUUID() } });
    const id: string = created.body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    live.answer(id, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });
    const refund = await eventually(async () => (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.refund ?? undefined);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // Errors of the page and of every answer it got (not the console's: Chromium logs its own favicon request there).
    page.on('response', (response) => void (response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`)));
    await page.goto(`${service.baseUrl}/dashboard/`);
    await page.fill('#api-key', apiKey);
    await page.click('#connect');
    await page.waitForSelector('#connection[data-state="live"]');
    await subscribed(service, 1);

    await page.click(`tr[data-payment-id="${id}"] button.link`);
    await page.waitForSelector('#detail[open] .refund-status[data-refund-status="pending"]');
    expect(await page.textContent('#detail-facts .refund')).toBe(`pending ${refund.amount} USDC on SOLANA to ${refund.refundAddress}`);
    expect(await page.$$eval('#detail-facts dt', (dts) => dts.map((dt) => dt.textContent))).toContain('Refund transaction');
    expect(await page.$('#detail-facts .refund-tx')).toBeNull(); // no transaction yet: an em dash
    // The timeline: the payment's events, then the refund owed since it was written.
    expect(await page.$$eval('#timeline li.refund-step', (lis) => lis.map((li) => li.getAttribute('data-refund-status')))).toEqual(['pending']);
    expect(await page.textContent('#timeline li.refund-step:last-child .sub')).toBe(`${refund.amount} USDC on SOLANA`);

    const txHash = solanaTxHash();
    expect((await service.call('POST', `/v1/admin/refunds/${refund.id}/sent`, { apiKey: admin, body: { txHash } })).status).toBe(200);
    await page.click('#detail-close');
    await page.click(`tr[data-payment-id="${id}"] button.link`);
    await page.waitForSelector('#detail[open] .refund-status[data-refund-status="sent"]');
    expect(await page.textContent('#detail-facts .refund-tx')).toBe(txHash);
    expect(await page.$$eval('#timeline li.refund-step', (lis) => lis.map((li) => li.getAttribute('data-refund-status')))).toEqual(['pending', 'sent']);
    expect(await page.textContent('#timeline li.refund-step:last-child .refund-tx')).toBe(txHash);
    expect(await page.textContent('#timeline li.refund-step:last-child .refund-status')).toBe('refund sent');
    await until(page, `document.getElementById('detail').scrollWidth <= document.getElementById('detail').clientWidth`);
    expect(problems).toEqual([]);
  });
});
