import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { FakeChain, TestDeriver } from '../support/deposit-fakes';
import { subscribed } from '../support/graphql-client';
import { startTestService, type TestService } from '../support/test-service';

/** Debian's chromium (.ci/run installs it with apt when missing); never a browser downloaded by playwright. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) process.stderr.write(`dashboard deposits test SKIPPED: ${CHROMIUM} does not exist (apt-get install -y chromium)\n`);

const USDT = '0x55d398326f99059ff775485246999027b3197955';
/** A sender written as markup (a scripted chain may say anything): the console shows it as these characters. */
const MARKUP_SENDER = '<img src=x onerror="window.__owned = 1">';

/**
 * The console's deposits panel (docs/decisions.md § Operations console) over the real service,
 * PostgreSQL and the chain watcher reading a scripted chain: the tenant's deposit addresses, a
 * deposit shown live as detected then credited, and the chain watcher's lag from GET /health.
 */
(available ? describe : describe.skip)('/dashboard deposits panel', () => {
  const chain = new FakeChain('BSC');
  const deriver = new TestDeriver(randomUUID());
  const supply = { chain: 'BSC' as const, reader: chain, deriver, keyId: `test-${randomUUID()}`, developmentKey: false };
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    service = await startTestService({ CHAIN_WATCH_INTERVAL_MS: '50', CHAIN_WATCH_LEASE_MS: '1000' }, { chains: [supply] });
    await service.database.orm.em.fork().getConnection().execute("delete from chain_watchers where blockchain = 'BSC'");
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  /** Waits until the page expression is true (the console's CSP refuses eval, so no waitForFunction). */
  async function until(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await page.evaluate(expression))) {
      if (Date.now() > deadline) throw new Error(`page condition not met in time: ${expression}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('shows the addresses, a deposit going live from detected to credited, and the watcher; values as text', async () => {
    const { apiKey } = await service.newTenant('0');
    const addresses = (await service.call('GET', '/v1/deposit-addresses', { apiKey })).body as Array<{ blockchain: string; currency: string; address: string }>;
    const bsc = addresses.find((a) => a.blockchain === 'BSC' && a.currency === 'USDT')!;
    expect(bsc.address.toLowerCase()).toMatch(/^0x[0-9a-f]{40}$/);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${service.baseUrl}/dashboard/`);
    await page.fill('#api-key', apiKey);
    await page.click('#connect');
    await page.waitForSelector('#connection[data-state="live"]');

    // Every address the API gives is on the page, under its chain and coin.
    const shown = await page.$$eval('#deposit-addresses li', (items) => items.map((li) => [li.querySelector('.chain')?.textContent, li.querySelector('.address')?.textContent]));
    expect(shown).toEqual(addresses.map((a) => [`${a.blockchain} · ${a.currency}`, a.address]));
    expect(await page.textContent('#deposits-empty')).toBe('No deposits yet.');
    expect(await page.isVisible('#deposits-empty')).toBe(true);

    // Wait until the deposit subscription is open, then pay the address: the row appears detected, live.
    await subscribed(service, 2);
    chain.mine({ to: bsc.address, token: USDT, units: 25n * 10n ** 18n, from: MARKUP_SENDER });
    await until(page, `document.querySelector('#deposit-rows tr.status-detected') !== null`);
    const detected = await page.$$eval('#deposit-rows tr td', (cells) => cells.map((td) => td.textContent));
    expect(detected.slice(1, 4)).toEqual(['BSC', '25.000000 USDT', 'detected']);
    expect(detected[6]).toBe(`${MARKUP_SENDER.slice(0, 8)}…${MARKUP_SENDER.slice(-6)}`); // shortened, as text
    expect(await page.getAttribute('#deposit-rows tr td.sender', 'title')).toBe(MARKUP_SENDER);
    expect(await page.isVisible('#deposits-empty')).toBe(false);

    // Final: the same row turns credited (still one row), and the watcher shows the chain.
    chain.mine();
    chain.finalize();
    await until(page, `document.querySelector('#deposit-rows tr.status-credited') !== null`);
    expect(await page.$$eval('#deposit-rows tr', (rows) => rows.length)).toBe(1);
    await until(page, `document.querySelector('#chain-watchers li[data-chain="BSC"]') !== null`, 20_000);
    expect(await page.textContent('#chain-watchers li[data-chain="BSC"] .health-state')).toBe('BSC');
    expect(await page.textContent('#chain-watchers li[data-chain="BSC"] .sub')).toMatch(/^head \d+ · finalized \d+ · \d+ behind · (\d+ s since it reached the head|never reached the head)$/);

    expect(await page.evaluate(`document.querySelectorAll('#deposits img').length`)).toBe(0);
    expect(await page.evaluate('window.__owned')).toBeUndefined();
    expect(problems).toEqual([]);
  });
});
