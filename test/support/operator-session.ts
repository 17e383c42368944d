import { generateSync } from 'otplib';
import type { OperatorRole } from '../../src/core/operators/operator';
import { SYSTEM_ACTOR } from '../../src/core/operators/audited-admin';
import type { TestService } from './test-service';

/** A local operator made through the use case, with what signing in needs. */
export interface TestOperator {
  readonly operatorId: string;
  readonly email: string;
  readonly password: string;
  readonly totpSecret: string;
}

let made = 0;

/** Creates a local operator with `role` (a unique e-mail each time). */
export async function newOperator(service: TestService, role: OperatorRole): Promise<TestOperator> {
  const email = `op${Date.now()}-${process.pid}-${++made}@example.com`;
  const password = `correct horse battery ${made}`;
  const created = await service.container.operators.createOperator({ email, role, password }, SYSTEM_ACTOR, null);
  if (!created.ok) throw new Error(created.message);
  return { operatorId: created.value.operatorId, email, password, totpSecret: created.value.totpSecret };
}

/** The TOTP code of `secret` `stepsAhead` 30-second steps from now (one step ahead is still accepted). */
export const totpCode = (secret: string, stepsAhead = 0): string => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

/** A signed-in browser: its session cookie and CSRF token. */
export interface Browser {
  readonly cookie: string;
  readonly csrfToken: string;
  readonly setCookie: string;
}

/** Signs `operator` in through POST /v1/operator/sign-in with the code `stepsAhead` steps ahead. */
export async function signIn(service: TestService, operator: TestOperator, stepsAhead = 0): Promise<Browser> {
  const res = await service.call('POST', '/v1/operator/sign-in', { body: { email: operator.email, password: operator.password, totpCode: totpCode(operator.totpSecret, stepsAhead) } });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${res.text}`);
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('operator_session='))!;
  return { cookie: setCookie.split(';')[0]!, csrfToken: res.body.csrfToken, setCookie };
}

/** A call made by a signed-in browser: its cookie, and its CSRF token unless `csrf` says otherwise. */
export function asBrowser(service: TestService, browser: Browser) {
  return (method: string, path: string, options: { body?: unknown; csrf?: string | null } = {}) => service.call(method, path, {
    body: options.body,
    headers: {
      cookie: browser.cookie,
      ...(options.csrf === null ? {} : { 'x-csrf-token': options.csrf ?? browser.csrfToken }),
    },
  });
}
