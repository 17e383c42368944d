// A real OpenID Connect provider (oidc-provider 9, ESM-only) for the operator sign-in tests, run as
// a child process: node test/support/oidc-test-provider.mjs with PORT and REDIRECT_URI. It signs in
// the configured account without a form, and can be told (POST /__test/state) to tamper with the
// next ID tokens it issues (wrong audience, expired), re-signed with its own key so only the claim
// check can catch them. Prints {"ready":true,"issuer":...} on stdout once listening.
import Provider from 'oidc-provider';
import * as jose from 'jose';

const port = Number(process.env.PORT);
const issuer = `http://127.0.0.1:${port}`;
const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await jose.exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };

const state = { tamper: null, account: { sub: 'alice', email: 'alice@example.com', groups: ['payout-admins'] } };

const provider = new Provider(issuer, {
  clients: [{
    client_id: 'payout-console', client_secret: 'console-client-secret-for-tests',
    redirect_uris: [process.env.REDIRECT_URI], grant_types: ['authorization_code'], response_types: ['code'],
  }],
  jwks: { keys: [jwk] },
  claims: { openid: ['sub'], email: ['email'], profile: ['groups'] },
  conformIdTokenClaims: false,
  findAccount: async (_ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, email: state.account.email, groups: state.account.groups }),
  }),
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  cookies: { keys: ['oidc-test-provider-cookie-key'] },
});

const readJson = (req) => new Promise((resolve) => {
  let text = '';
  req.on('data', (chunk) => { text += chunk; });
  req.on('end', () => resolve(text ? JSON.parse(text) : {}));
});

provider.use(async (ctx, next) => {
  if (ctx.path === '/__test/state' && ctx.method === 'POST') {
    Object.assign(state, await readJson(ctx.req));
    ctx.body = state;
    return;
  }
  if (ctx.path.startsWith('/interaction/')) {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    let result;
    if (details.prompt.name === 'login') {
      result = { login: { accountId: state.account.sub } };
    } else {
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
      const missing = details.prompt.details;
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      result = { consent: { grantId: await grant.save() } };
    }
    ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false }));
    return;
  }
  await next();
  if (ctx.path === '/token' && state.tamper && ctx.body && typeof ctx.body === 'object' && ctx.body.id_token) {
    const claims = jose.decodeJwt(ctx.body.id_token);
    const now = Math.floor(Date.now() / 1000);
    if (state.tamper === 'audience') claims.aud = 'another-client';
    if (state.tamper === 'expired') Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
    ctx.body = { ...ctx.body, id_token: await new jose.SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(privateKey) };
  }
});

provider.listen(port, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ ready: true, issuer })}\n`);
});
