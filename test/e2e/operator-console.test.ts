import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, consoleSignedIn, launchChromium, until } from '../support/console-page';
import { newOperator, type TestOperator } from '../support/operator-session';
import { startTestService, type TestService } from '../support/test-service';

const available = chromiumAvailable('operator console');
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');

jest.setTimeout(90_000);

/**
 * The operator console at /console (docs/decisions.md § Operators: the console) in Chromium: sign
 * in with password and TOTP, the front page's queue counts, the audit log (admin only), sign out.
 */
(available ? describe : describe.skip)('/console: the operator console', () => {
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    service = await startTestService();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  const signInPage = (operator: TestOperator): Promise<{ page: Page; problems: string[] }> => consoleSignedIn(browser, service.baseUrl, operator, true);

  it('signs an admin in, shows the queue counts the API gives, then the audit log with the sign-in; no key in the page', async () => {
    const admin = await newOperator(service, 'admin');
    const { page, problems } = await signInPage(admin);
    expect(await page.textContent('#who-email')).toBe(admin.email);
    expect(await page.textContent('#who-role')).toBe('admin');
    await until(page, "document.querySelector('[data-queue=refundsFailed] .count').textContent !== '–'");
    const key = await service.newAdminKey();
    const counts = (await service.call('GET', '/v1/admin/queues', { apiKey: key })).body as Record<string, number>;
    for (const queue of ['refundsFailed', 'refundsPending', 'complianceReviewsPending', 'stuckPayments', 'reconciliationFindings', 'depositFindings']) {
      expect({ queue, shown: await page.textContent(`[data-queue=${queue}] .count`) }).toEqual({ queue, shown: String(counts[queue]) });
    }
    expect(await page.textContent('#stuck-sub')).toBe(`at provider_accepted over ${counts.stuckAfterMinutes} min`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'operator-console-queues-1280.png'), fullPage: true });

    await page.click('#nav-audit');
    await until(page, "document.querySelectorAll('#audit-rows tr').length > 0");
    await page.fill('#audit-filter input[name=actorId]', (await service.container.operators.listOperators()).find((o) => o.email === admin.email)!.operatorId);
    await page.click('#audit-filter button[type=submit]');
    await until(page, "[...document.querySelectorAll('#audit-rows tr')].every((tr) => tr.children[1].textContent.startsWith('session opr_'))");
    const actions = await page.$$eval('#audit-rows tr td:nth-child(4)', (tds) => tds.map((td) => td.textContent));
    expect(actions).toEqual(['signIn']);
    expect(await page.isHidden('#audit-more')).toBe(true);
    expect(await page.getAttribute('#audit-export', 'href')).toMatch(/^\/v1\/admin\/audit-log\/export\?actorId=opr_/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'operator-console-audit-log-1280.png'), fullPage: true });

    // The session cookie is HttpOnly: the page's script cannot read it.
    expect(await page.evaluate('document.cookie')).toBe('');
    await page.click('#sign-out');
    await until(page, "!document.getElementById('sign-in').hidden");
    expect((await service.call('GET', '/v1/admin/audit-log?action=signOut&limit=5', { apiKey: key })).body.data.some((r: { actorId: string }) => r.actorId.startsWith('opr_'))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a viewer sees the queues but no audit log, and the API refuses it the log', async () => {
    const viewer = await newOperator(service, 'viewer');
    const { page, problems } = await signInPage(viewer);
    await until(page, "document.querySelector('[data-queue=refundsFailed] .count').textContent !== '–'");
    expect(await page.isHidden('#nav-audit')).toBe(true);
    await page.goto(`${service.baseUrl}/console/#audit-log`);
    await until(page, "!document.getElementById('queues').hidden");
    const refused = await page.evaluate(async () => (await fetch('/v1/admin/audit-log')).status);
    expect(refused).toBe(403);
    // A write above its role is refused for the role; one it may make, without the CSRF token, for the token.
    const writes = await page.evaluate(async () => {
      const tenants = await fetch('/v1/admin/tenants', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' });
      const signOut = await fetch('/v1/operator/sign-out', { method: 'POST' });
      return [((await tenants.json()) as { code: string }).code, ((await signOut.json()) as { code: string }).code];
    });
    expect(writes).toEqual(['forbidden', 'csrf_failed']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is served with a strict Content-Security-Policy and tells the page whether OIDC is on', async () => {
    const res = await fetch(`${service.baseUrl}/console/`);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
    expect(await (await fetch(`${service.baseUrl}/console/options.json`)).json()).toEqual({ oidc: false });
  });
});
