import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { liveTenant, testRouting } from '../support/live-rails';
import { newOperator, type TestOperator } from '../support/operator-session';
import { chromiumAvailable, consoleSignedIn, launchChromium, until } from '../support/console-page';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';

const available = chromiumAvailable('operator console refunds');
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');

jest.setTimeout(90_000);

/**
 * The operator console's refunds page (docs/decisions.md § Refunds: reads and operators) in
 * Chromium: a failed refund with its reason, retried by an operator back to pending, then
 * recorded as sent by hand; a viewer sees the list without actions.
 */
(available ? describe : describe.skip)('/console: the refunds queue', () => {
  let service: TestService;
  let browser: Browser;
  let admin: string;
  const live = new ScriptedProvider('scripted_live');

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const sandbox = new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 });
    service = await startTestService({
      RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
    }, { routing: testRouting(sandbox, () => live) });
    admin = await service.newAdminKey();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  async function refundsPage(operator: TestOperator): Promise<{ page: Page; problems: string[] }> {
    const signedIn = await consoleSignedIn(browser, service.baseUrl, operator);
    await signedIn.page.click('#nav-refunds');
    await until(signedIn.page, "!document.getElementById('refunds').hidden");
    return signedIn;
  }

  /** A live payment failed after acceptance, its refund failed with `invalid_address` (as the hot wallet's sender refuses one). */
  async function failedRefund(): Promise<{ refundId: string; amount: string }> {
    const { apiKey } = await liveTenant(service, admin);
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    const id: string = created.body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    live.answer(id, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });
    const refund = await eventually(async () => (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.refund ?? undefined);
    // No hot wallet in this test: the refusal a sender would make is written as the worker writes it.
    await service.database.orm.em.fork().getConnection().execute(
      "update onchain_refunds set status = 'failed', failure_reason = 'invalid_address' where id = ? and status = 'pending'", [refund.id],
    );
    return { refundId: refund.id, amount: refund.amount };
  }

  it('shows a failed refund with its reason; an operator retries it, then records the transaction that sent it', async () => {
    const { refundId, amount } = await failedRefund();
    const operator = await newOperator(service, 'operator');
    const { page, problems } = await refundsPage(operator);
    const row = `#refund-rows tr[data-refund-id="${refundId}"]`;
    await page.waitForSelector(row);
    expect(await page.getAttribute(row, 'data-status')).toBe('failed');
    expect(await page.textContent(`${row} td.reason`)).toBe('invalid_address');
    expect(await page.textContent(`${row} td:nth-child(4)`)).toBe(`${amount} USDC`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'operator-console-refunds-1280.png'), fullPage: true });

    await page.click(`${row} button:has-text("Retry")`);
    await until(page, `!document.querySelector('${row}')`);
    expect(await page.textContent('#status')).toBe(`${refundId}: pending.`);
    await page.selectOption('#refunds-status', 'pending');
    await page.click('#refunds-filter button[type=submit]');
    await page.waitForSelector(row);
    expect(await page.getAttribute(row, 'data-status')).toBe('pending');
    expect(await page.textContent(`${row} td.reason`)).toBe('');

    const txHash = solanaTxHash();
    await page.fill(`${row} input.tx-input`, txHash);
    await page.click(`${row} button:has-text("Record sent")`);
    await until(page, `!document.querySelector('${row}')`);
    expect(await page.textContent('#status')).toBe(`${refundId}: sent.`);
    const audit = (await service.call('GET', `/v1/admin/audit-log?targetId=${refundId}`, { apiKey: admin })).body.data as { action: string; actorId: string }[];
    expect(audit.map((a) => a.action).sort()).toEqual(['markRefundSent', 'retryRefund']);
    expect(audit.every((a) => a.actorId.startsWith('opr_'))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a viewer sees the failed refunds without any action', async () => {
    const { refundId } = await failedRefund();
    const viewer = await newOperator(service, 'viewer');
    const { page, problems } = await refundsPage(viewer);
    const row = `#refund-rows tr[data-refund-id="${refundId}"]`;
    await page.waitForSelector(row);
    expect(await page.$$(`${row} button`)).toHaveLength(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
