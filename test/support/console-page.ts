import { chromium, type Browser, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { totpCode, type TestOperator } from './operator-session';

/** Debian's chromium (.ci/run installs it with apt when missing); never a browser downloaded by playwright. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the browser tests can run here; when not, says so on stderr naming `suite`. */
export function chromiumAvailable(suite: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available) process.stderr.write(`${suite} browser test SKIPPED: ${CHROMIUM} does not exist (apt-get install -y chromium)\n`);
  return available;
}

/** Headless Chromium as the console tests run it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** Waits until `expression` is truthy in the page (every 50 ms, at most `timeoutMs`). */
export async function until(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`page condition not met in time: ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A new page of the operator console at `baseUrl`/console/, signed in as `operator` with password
 * and TOTP; `problems` collects page errors and server errors (5xx) it met, and with
 * `consoleErrors` the browser console's errors too (a CSP refusal shows there; Chromium's own
 * "Failed to load resource" lines for the favicon and the signed-out probe are left out).
 */
export async function consoleSignedIn(
  browser: Browser, baseUrl: string, operator: TestOperator, consoleErrors = false,
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => { if (r.status() >= 500) problems.push(`${r.status()} ${r.url()}`); });
  if (consoleErrors) page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
  await page.goto(`${baseUrl}/console/`);
  await until(page, "!document.getElementById('sign-in').hidden");
  await page.fill('#email', operator.email);
  await page.fill('#password', operator.password);
  await page.fill('#totp', totpCode(operator.totpSecret));
  await page.click('#sign-in-form button[type=submit]');
  await until(page, "!document.getElementById('who').hidden");
  return { page, problems };
}
