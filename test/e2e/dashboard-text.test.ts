import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../src/core/payments/payout-provider';
import { subscribed } from '../support/graphql-client';
import { liveTenant, testRouting } from '../support/live-rails';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/** Debian's chromium (.ci/run installs it with apt when missing); never a browser downloaded by playwright. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) process.stderr.write(`dashboard text test SKIPPED: ${CHROMIUM} does not exist (apt-get install -y chromium)\n`);

/** Payment fields an issuer chooses, written as markup: the console must show them as these very characters. */
const MARKUP_REFERENCE = '<img src=x onerror=alert(1)>';
const SCRIPT_REFERENCE = '<script>window.__owned = 1</script>';
/** A paybill account reference ending in markup: the masked recipient shows its last four characters. */
const MARKUP_ACCOUNT = 'AC<i>b</i>';
/** What a provider chooses, written as markup: its own reference and the words of its refusal. */
const MARKUP_PROVIDER_REF = '<b id=ref>prv-1</b>';
const MARKUP_FAILURE_REASON = '<img src=y onerror="window.__owned = 2">Declined by <i>bank</i>';

/** A live rail at the core's edge that takes every payout under a markup reference, then fails it with a markup reason. */
class MarkupProvider implements PayoutProvider {
  readonly name = 'markup';
  async submit(): Promise<SubmitOutcome> {
    return { kind: 'accepted', providerRef: MARKUP_PROVIDER_REF };
  }
  async status(): Promise<StatusOutcome> {
    return { kind: 'failed', reason: MARKUP_FAILURE_REASON, code: 'declined' };
  }
}

/**
 * The operations console (docs/decisions.md § Operations console) writes every payment field as
 * text, never as markup: references, recipients, failure codes and reasons an issuer or a
 * provider chose show literally in the table and the detail panel, and nothing in them runs.
 */
(available ? describe : describe.skip)('/dashboard shows payment fields as text', () => {
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    // Sandbox tenants pay through the sandbox; live tenants through MarkupProvider.
    const sandbox = new SandboxPayoutProvider(systemClock, { acceptDelayMs: 0, resultDelayMs: 0 });
    const markup = new MarkupProvider();
    service = await startTestService({}, { routing: testRouting(sandbox, () => markup) });
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  async function pay(apiKey: string, overrides: Record<string, unknown>): Promise<string> {
    const created = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, body: moneyOutBody(overrides), headers: { 'idempotency-key': randomUUID() },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await eventually(async () => {
      const res = await service.call('GET', `/v1/payments/${id}`, { apiKey });
      return ['succeeded', 'failed', 'refunded'].includes(res.body.status) ? true : undefined;
    }, 15_000);
    return id;
  }

  /** Waits until the page expression is true (page.evaluate: the console's CSP refuses eval, so no waitForFunction). */
  async function until(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await page.evaluate(expression))) {
      if (Date.now() > deadline) throw new Error(`page condition not met in time: ${expression}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A console page connected with `apiKey`, recording page errors, dialogs and the paths it asks for. */
  async function consolePage(apiKey: string): Promise<{ page: Page; problems: string[]; requested: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    // Every request stays on this origin: an <img src=x> that became an element would ask for /dashboard/x.
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${service.baseUrl}/dashboard/`);
    await page.fill('#api-key', apiKey);
    await page.click('#connect');
    await page.waitForSelector('#connection[data-state="live"]');
    return { page, problems, requested };
  }
  const row = (id: string) => `tr[data-payment-id="${id}"]`;
  const facts = async (page: Page) => page.$$eval('#detail-facts dt', (terms) => terms.map((dt) => [dt.textContent, (dt.nextElementSibling as any).textContent]));
  /** No payment value became an element in the table or the panel. */
  const elementsFromValues = (page: Page) =>
    page.evaluate(`document.querySelectorAll('#payment-rows img, #payment-rows script, #payment-rows i, #payment-rows b, #detail img, #detail script, #detail i, #detail b').length`);

  it('a reference, a recipient, a failure code and reason written as markup show literally and run nothing', async () => {
    const { apiKey } = await service.newTenant();
    const paybill = await pay(apiKey, {
      reference: MARKUP_REFERENCE, paymentMethod: 'PAYBILL', businessNumber: '888880', accountNumber: MARKUP_ACCOUNT,
    });
    const failed = await pay(apiKey, { reference: SCRIPT_REFERENCE, accountNumber: '254712341111' });

    const { page, problems, requested } = await consolePage(apiKey);
    await subscribed(service, 1);
    await until(page, `document.querySelectorAll('#payment-rows tr').length === 2`);

    expect(await page.textContent(`${row(paybill)} .ref`)).toBe(MARKUP_REFERENCE);
    expect(await page.textContent(`${row(failed)} .ref`)).toBe(SCRIPT_REFERENCE);
    expect(await page.textContent(`${row(paybill)} td[data-label="Recipient"]`)).toBe('••••</i>');
    expect(await page.getAttribute(`${row(paybill)} button.link`, 'aria-label')).toBe(`Details of payment ${paybill}, reference ${MARKUP_REFERENCE}`);
    expect(await page.textContent(`${row(failed)} td[data-label="Failure reason"] .failure-code`)).toBe('declined');
    expect(await page.textContent(`${row(failed)} td[data-label="Failure reason"] .failure-reason`)).toBe('Payout failed at the recipient institution');

    await page.click(`${row(paybill)} button.link`);
    await page.waitForSelector('#detail[open] #timeline li[data-status="succeeded"]');
    expect(await facts(page)).toEqual(expect.arrayContaining([['Reference', MARKUP_REFERENCE], ['Recipient', 'KE · PAYBILL · ••••</i>']]));
    await page.keyboard.press('Escape');
    await page.waitForSelector('#detail', { state: 'hidden' });

    await page.click(`${row(failed)} button.link`);
    await page.waitForSelector('#detail[open] #timeline li[data-status="failed"]');
    expect(await facts(page)).toEqual(expect.arrayContaining([
      ['Reference', SCRIPT_REFERENCE], ['Failure reason', 'Payout failed at the recipient institution'], ['Failure code', 'declined'],
    ]));
    expect(await page.textContent('#timeline li[data-status="failed"] .failure-code')).toBe('declined');

    // None of the values became an element, and none ran.
    expect(await elementsFromValues(page)).toBe(0);
    expect(await page.evaluate('window.__owned')).toBeUndefined();
    expect(requested.filter((p) => p.endsWith('/x'))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a provider's reference and failure reason written as markup show literally in the table, the facts and the history", async () => {
    const { apiKey } = await liveTenant(service, await service.newAdminKey());
    const id = await pay(apiKey, { reference: 'order-from-a-markup-rail' });
    const payment = (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body;
    expect(payment).toMatchObject({ status: 'failed', providerRef: MARKUP_PROVIDER_REF, failureReason: MARKUP_FAILURE_REASON, failureCode: 'declined' });

    const { page, problems, requested } = await consolePage(apiKey);
    await until(page, `document.querySelectorAll('#payment-rows tr').length === 1`);
    expect(await page.textContent(`${row(id)} td[data-label="Failure reason"] .failure-reason`)).toBe(MARKUP_FAILURE_REASON);

    await page.click(`${row(id)} button.link`);
    await page.waitForSelector('#detail[open] #timeline li[data-status="failed"]');
    expect(await facts(page)).toEqual(expect.arrayContaining([
      ['Provider reference', MARKUP_PROVIDER_REF], ['Failure reason', MARKUP_FAILURE_REASON], ['Failure code', 'declined'],
    ]));
    expect(await page.textContent('#timeline li[data-status="failed"] .reason')).toBe(MARKUP_FAILURE_REASON);

    expect(await elementsFromValues(page)).toBe(0);
    expect(await page.evaluate('window.__owned')).toBeUndefined();
    expect(requested.filter((p) => p.endsWith('/y'))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
