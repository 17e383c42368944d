import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { DepositAddressRepository } from '../../src/adapters/persistence/deposit-address.repository';
import { assignAddress } from '../../src/core/deposits/deposit-addresses';
import { FakeChain, TestDeriver } from '../support/deposit-fakes';
import { subscribed } from '../support/graphql-client';
import { startTestService, type TestService } from '../support/test-service';

/** Debian's chromium (.ci/run installs it with apt when missing); never a browser downloaded by playwright. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) process.stderr.write(`dashboard deposits browser test SKIPPED: ${CHROMIUM} does not exist (apt-get install -y chromium)\n`);
const USDT = '0x55d398326f99059ff775485246999027b3197955';

/**
 * The console's deposits panel in headless Chromium: each watched chain's watcher (head,
 * finalized, lag, lease, from GET /readyz) and the tenant's newest deposits (GraphQL), over a
 * scripted chain behind the ChainReader port, the real service and PostgreSQL.
 */
(available ? describe : describe.skip)('/dashboard onchain deposits panel', () => {
  const chain = new FakeChain('BSC');
  const deriver = new TestDeriver(randomUUID());
  const supply = { chain: 'BSC' as const, reader: chain, deriver, keyId: `test-${randomUUID()}`, developmentKey: false };
  let service: TestService;
  let browser: Browser;
  beforeAll(async () => {
    service = await startTestService({ CHAIN_WATCH_INTERVAL_MS: '50', CHAIN_WATCH_LEASE_MS: '1000' }, { chains: [supply] });
    await service.database.orm.em.fork().getConnection().execute("delete from chain_watchers where blockchain = 'BSC'");
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('shows the chain watcher with its lag and the tenant\'s deposits, detected then credited, using only this origin', async () => {
    const { tenantId, apiKey } = await service.newTenant('0');
    const to = (await assignAddress(
      { addresses: new DepositAddressRepository(service.database.orm.em), clock: service.container.clock },
      { chain: 'BSC', deriver, keyId: supply.keyId, tokens: [], serves: ['sandbox'] }, tenantId,
    )).address;
    const block = chain.mine({ to, token: USDT, units: 12n * 10n ** 18n + 5n });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => void (message.type() === 'error' && problems.push(`console: ${message.text()}`)));
    await page.route('**/*', (route) => {
      if (route.request().url().startsWith(service.baseUrl)) return route.continue();
      problems.push(`external request: ${route.request().url()}`);
      return route.abort();
    });
    await page.goto(`${service.baseUrl}/dashboard/`);
    await page.fill('#api-key', apiKey);
    await page.click('#connect');
    await page.waitForSelector('#connection[data-state="live"]');
    await subscribed(service, 1);

    const row = '#deposits li[data-deposit-id]';
    await page.waitForSelector(row, { timeout: 10_000 });
    expect(await page.textContent(`${row} .health-state`)).toBe('detected');
    expect(await page.textContent(`${row} .url`)).toBe('12.000000 USDT on BSC');
    expect(await page.textContent(`${row} .sub`)).toContain(block.transfers[0]!.txHash);
    const watcher = '#chain-watchers li[data-chain="BSC"]';
    await page.waitForSelector(watcher);
    expect(await page.textContent(`${watcher} .sub`)).toMatch(/^head \d+ · finalized \d+ · scanned \d+ · lag \d+ blocks, /);

    // Final: credited on the next poll of the panel (every 5 s).
    chain.mine();
    chain.finalize();
    const deadline = Date.now() + 15_000;
    while ((await page.textContent(`${row} .health-state`)) !== 'credited') {
      if (Date.now() > deadline) throw new Error('the deposit is not shown credited');
      await new Promise((r) => setTimeout(r, 100));
    }
    const { head } = await chain.heights();
    expect(await page.textContent(`${watcher} .health-state`)).toBe('Up to date');
    expect(await page.textContent(`${watcher} .sub`)).toMatch(new RegExp(`^head ${head} · finalized ${head} · scanned ${head} · lag 0 blocks, `));
    expect(problems).toEqual([]);
  }, 60_000);
});
