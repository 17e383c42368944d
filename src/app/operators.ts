import type { EntityManager } from '@mikro-orm/postgresql';
import type { Router } from 'express';
import { AuditLogRepository } from '../adapters/persistence/audit-log.repository';
import { OperatorRepository, OperatorSessionRepository, SignInAttemptRepository, type SecretSeal } from '../adapters/persistence/operator.repository';
import { argon2Passwords, otplibTotp, randomTokens } from '../adapters/access/operator-secrets';
import { OidcSignIn, parseRoleMap } from '../adapters/access/oidc-sign-in';
import { oidcRouter } from '../adapters/http/oidc.routes';
import type { OperatorHttp } from '../adapters/http/operator-gate';
import type { AuditLog } from '../core/operators/audit-log';
import { createOperatorApplication, type OperatorApplication } from '../core/operators/operator-application';
import type { Clock, IdGenerator } from '../core/shared/clock';
import type { Config } from './config';

/** The operator use cases and the audit log on PostgreSQL (docs/decisions.md § Operators: sign-in, sessions, roles, audit log). */
export function operatorServices(config: Config, em: EntityManager, seal: SecretSeal, clock: Clock, ids: IdGenerator): { operators: OperatorApplication; audit: AuditLog } {
  const audit = new AuditLogRepository(em);
  const operators = createOperatorApplication({
    operators: new OperatorRepository(em, seal), sessions: new OperatorSessionRepository(em), passwords: argon2Passwords, totp: otplibTotp,
    tokens: randomTokens, audit, clock, ids, policy: { idleS: config.OPERATOR_SESSION_IDLE_S, absoluteS: config.OPERATOR_SESSION_ABSOLUTE_S },
  });
  return { operators, audit };
}

/** The OpenID Connect redirects when OIDC_* are set (config checked they come together), else none. */
export function oidcRoutes(config: Config, em: EntityManager, http: OperatorHttp, clock: Clock): Router | undefined {
  if (!config.OIDC_ISSUER_URL || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET || !config.OIDC_REDIRECT_URI) return undefined;
  const oidc = new OidcSignIn({
    issuerUrl: config.OIDC_ISSUER_URL, clientId: config.OIDC_CLIENT_ID, clientSecret: config.OIDC_CLIENT_SECRET, redirectUri: config.OIDC_REDIRECT_URI,
    scopes: config.OIDC_SCOPES, roleClaim: config.OIDC_ROLE_CLAIM, roleMap: parseRoleMap(config.OIDC_ROLE_MAP), allowHttp: config.NODE_ENV !== 'production',
  }, new SignInAttemptRepository(em), randomTokens, clock);
  return oidcRouter(http, oidc);
}
