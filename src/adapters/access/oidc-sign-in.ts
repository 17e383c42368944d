import type { Configuration } from 'openid-client';
import { OPERATOR_ROLES, roleAllows, type OperatorRole } from '../../core/operators/operator';
import type { SignInAttemptStore, TokenSource } from '../../core/operators/operator-ports';
import type { ProvenIdentity } from '../../core/operators/operator-sessions';
import type { Clock } from '../../core/shared/clock';
import { err, ok, type Result } from '../../core/shared/result';

type OpenIdClient = typeof import('openid-client');

/** OIDC_* settings (docs/operations.md § Operators: OpenID Connect). */
export interface OidcSettings {
  readonly issuerUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Our callback, registered at the provider: https://<host>/v1/operator/oidc/callback. */
  readonly redirectUri: string;
  readonly scopes: string;
  /** The ID token claim holding the user's groups or roles (a string or a list of strings). */
  readonly roleClaim: string;
  /** Claim value → our role; a user with several mapped values gets the strongest. */
  readonly roleMap: Readonly<Record<string, OperatorRole>>;
  /** Plain-http issuers (a provider on localhost in development and tests); never in production. */
  readonly allowHttp: boolean;
}

/** How long a started sign-in may take to come back, seconds. */
export const ATTEMPT_TTL_S = 600;

/** `a=admin,b=operator` → { a: 'admin', b: 'operator' }; throws naming the bad pair. */
export function parseRoleMap(text: string): Record<string, OperatorRole> {
  const map: Record<string, OperatorRole> = {};
  for (const pair of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = pair.lastIndexOf('=');
    const role = pair.slice(eq + 1).trim() as OperatorRole;
    if (eq <= 0 || !OPERATOR_ROLES.includes(role)) throw new Error(`OIDC_ROLE_MAP: "${pair}" must be <claim value>=<viewer|operator|admin>`);
    map[pair.slice(0, eq).trim()] = role;
  }
  return map;
}

/** The strongest role the claim's values map to, or null. Pure. */
export function roleFromClaim(value: unknown, roleMap: Readonly<Record<string, OperatorRole>>): OperatorRole | null {
  const values = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  let best: OperatorRole | null = null;
  for (const v of values) {
    const role = typeof v === 'string' ? roleMap[v] : undefined;
    if (role && (best === null || roleAllows(role, best))) best = role;
  }
  return best;
}

/**
 * Operator sign-in with the company's identity provider: OpenID Connect authorization code flow with
 * PKCE (S256), state and nonce, through openid-client 6 (https://github.com/panva/openid-client,
 * ESM-only, loaded with import()). The state, nonce and PKCE verifier stay server-side; the browser
 * holds only a random attempt token (in a short-lived cookie) that finds them, once. openid-client
 * checks the ID token's signature, issuer, audience (our client id), expiry, nonce and state.
 */
export class OidcSignIn {
  private configuration?: Promise<{ client: OpenIdClient; config: Configuration }>;

  constructor(
    private readonly settings: OidcSettings,
    private readonly attempts: SignInAttemptStore,
    private readonly tokens: TokenSource,
    private readonly clock: Clock,
  ) {}

  /** Our registered callback URL; the callback's query is read against it. */
  get redirectUri(): string {
    return this.settings.redirectUri;
  }

  /** Discovery, done once; a failure is retried at the next sign-in. */
  private async discovered(): Promise<{ client: OpenIdClient; config: Configuration }> {
    this.configuration ??= (async () => {
      const client = await import('openid-client');
      const config = await client.discovery(new URL(this.settings.issuerUrl), this.settings.clientId, this.settings.clientSecret, undefined,
        this.settings.allowHttp ? { execute: [client.allowInsecureRequests] } : undefined);
      return { client, config };
    })();
    try {
      return await this.configuration;
    } catch (error) {
      this.configuration = undefined;
      throw error;
    }
  }

  /** Starts a sign-in: the provider's authorization URL to send the browser to, and the attempt token for its cookie. */
  async start(): Promise<{ url: string; attemptToken: string }> {
    const { client, config } = await this.discovered();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const attemptToken = this.tokens.next();
    await this.attempts.insert(this.tokens.hash(attemptToken), {
      state, nonce, codeVerifier, expiresAt: new Date(this.clock.now().getTime() + ATTEMPT_TTL_S * 1000),
    });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri, scope: this.settings.scopes, state, nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256',
    });
    return { url: url.href, attemptToken };
  }

  /**
   * Completes a sign-in from the provider's redirect to our callback (`callbackUrl`, with its
   * query). Errors: `unauthorized` when the attempt is unknown, used or expired, or when the
   * provider's answer fails a check (state, code exchange, ID token signature, issuer, audience,
   * expiry, nonce); the message says which, never a token.
   */
  async finish(callbackUrl: URL, attemptToken: string | undefined): Promise<Result<ProvenIdentity, 'unauthorized'>> {
    const attempt = attemptToken ? await this.attempts.take(this.tokens.hash(attemptToken), this.clock.now()) : undefined;
    if (!attempt) return err('unauthorized', 'This sign-in was not started here, was already used or took too long; start again');
    const { client, config } = await this.discovered();
    try {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: attempt.codeVerifier, expectedState: attempt.state, expectedNonce: attempt.nonce, idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) return err('unauthorized', 'The identity provider sent no ID token');
      const email = typeof claims.email === 'string' ? claims.email : null;
      return ok({ issuer: claims.iss, subject: claims.sub, email, role: roleFromClaim(claims[this.settings.roleClaim], this.settings.roleMap) });
    } catch (error) {
      const e = error as { code?: string; message?: string; error?: string };
      const claim = failingClaim(error);
      return err('unauthorized', `The identity provider's answer was refused: ${e.error ?? e.code ?? 'error'}: ${e.message ?? ''}${claim ? ` (claim ${claim})` : ''}`.slice(0, 300));
    }
  }
}

/**
 * The ID token claim a refusal is about (aud, exp, iss, nonce...): oauth4webapi puts it in its
 * error's `cause.claim`, and openid-client wraps that error as its own `cause`.
 */
function failingClaim(error: unknown): string | undefined {
  let current = error as { cause?: unknown; claim?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    const cause = current.cause as { claim?: unknown; cause?: unknown } | undefined;
    if (typeof cause?.claim === 'string') return cause.claim;
    current = cause;
  }
  return undefined;
}
