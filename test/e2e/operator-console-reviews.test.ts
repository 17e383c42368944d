import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { newOperator, type TestOperator } from '../support/operator-session';
import { chromiumAvailable, consoleSignedIn, launchChromium, until } from '../support/console-page';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const available = chromiumAvailable('operator console reviews');
const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/screening', name), 'utf8');

jest.setTimeout(90_000);

/**
 * The operator console's screening reviews page (docs/decisions.md § Screening) in Chromium: a
 * money-out held for a listed name, cleared by an operator with a reason (the payment goes on);
 * one held for a listed refund address offers no Clear and is rejected.
 */
(available ? describe : describe.skip)('/console: the screening reviews queue', () => {
  let service: TestService;
  let browser: Browser;
  let apiKey: string;

  beforeAll(async () => {
    service = await startTestService();
    ({ apiKey } = await service.newTenant());
    const adminKey = await service.newAdminKey();
    const loaded = await service.call('POST', '/v1/admin/screening/lists', { apiKey: adminKey, body: { source: 'ofac-sdn', document: fixture('ofac-sdn.xml') } });
    expect(loaded.status).toBe(201);
    await eventually(async () => (service.container.screening.screen.loaded().length === 1 ? true : undefined));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    // The lists are global rows: later suites of this jest worker start without them.
    await service?.database.orm.em.getConnection().execute('delete from screening_lists');
    await service?.close();
  });

  async function reviewsPage(operator: TestOperator): Promise<{ page: Page; problems: string[] }> {
    const signedIn = await consoleSignedIn(browser, service.baseUrl, operator);
    await signedIn.page.click('#nav-reviews');
    await until(signedIn.page, "!document.getElementById('reviews').hidden");
    return signedIn;
  }

  const held = async (overrides: Record<string, unknown>) => {
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(overrides), headers: { 'idempotency-key': randomUUID() } });
    expect([created.status, created.body.status]).toEqual([201, 'initiated']);
    return created.body.id as string;
  };

  it('an operator clears a name hit with a reason, and the payment goes on; an address hit offers only Reject', async () => {
    const byName = await held({ accountName: 'Vladimir Petrovsky' });
    const byAddress = await held({ blockchain: 'BSC', refundAddress: '0x7f367cc41522ce07553e823bf3be79a889debe1b' });
    const { page, problems } = await reviewsPage(await newOperator(service, 'operator'));
    const nameRow = `#review-rows tr[data-subject-id="${byName}"]`;
    const addressRow = `#review-rows tr[data-subject-id="${byAddress}"]`;
    await page.waitForSelector(nameRow);
    expect(await page.textContent(`${nameRow} td.hits`)).toMatch(/^ofac-sdn #90001: name like ".+" \([01](\.\d+)?\)$/);
    expect(await page.$$eval(`${addressRow} button`, (bs) => bs.map((b) => b.textContent))).toEqual(['Reject']);

    // No reason: refused in the page, nothing sent.
    await page.click(`${nameRow} button:has-text("Clear")`);
    expect(await page.textContent('#status')).toBe(`${byName}: a reason is required.`);
    await page.fill(`${nameRow} input.reason-input`, 'Different date of birth than the listed person');
    await page.click(`${nameRow} button:has-text("Clear")`);
    await until(page, `!document.querySelector('${nameRow}')`);
    expect(await page.textContent('#status')).toBe(`${byName}: cleared.`);
    const paid = await eventually(async () => {
      const status = (await service.call('GET', `/v1/payments/${byName}`, { apiKey })).body.status as string;
      return status === 'succeeded' ? status : undefined;
    });
    expect(paid).toBe('succeeded');

    await page.fill(`${addressRow} input.reason-input`, 'Listed address: funds stay returned');
    await page.click(`${addressRow} button:has-text("Reject")`);
    await until(page, `!document.querySelector('${addressRow}')`);
    expect((await service.call('GET', `/v1/payments/${byAddress}`, { apiKey })).body).toMatchObject({ status: 'failed', failureCode: 'compliance_rejected' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a viewer sees the pending reviews without any action', async () => {
    const id = await held({ accountName: 'Northwind Exchange' });
    const { page, problems } = await reviewsPage(await newOperator(service, 'viewer'));
    const row = `#review-rows tr[data-subject-id="${id}"]`;
    await page.waitForSelector(row);
    expect(await page.$$(`${row} button`)).toHaveLength(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
