import { startTestService, type TestService } from '../support/test-service';

type Operation = {
  operationId: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, unknown>;
};
type Doc = {
  openapi: string;
  info: { version: string; title: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[]; properties?: Record<string, { type?: string | string[] }> }>; securitySchemes: Record<string, unknown> };
};
type Layer = { route?: { path: string; methods: Record<string, boolean> } };

const IGNORED = new Set(['/openapi.json']);

describe('OpenAPI document and docs', () => {
  let service: TestService;
  let doc: Doc;
  let registered: [string, string][];
  let documented: [string, string, Operation][];

  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    const res = await service.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = res.body;
    const stack = (service.container.http as unknown as { router: { stack: Layer[] } }).router.stack;
    registered = stack
      .flatMap((layer) => (layer.route ? Object.keys(layer.route.methods).map((m) => [m, layer.route!.path] as [string, string]) : []))
      .filter(([, p]) => !IGNORED.has(p) && !p.startsWith('/docs'))
      .map(([m, p]) => [m, p.replace(/:(\w+)/g, '{$1}')]);
    documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => [m, p, op] as [string, string, Operation]));
  });
  afterAll(() => service.close());

  it('is OpenAPI 3.1 with info.version 0.5.0 and a bearer scheme', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('0.5.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every route registered on the express app, with its method', () => {
    expect(registered.length).toBeGreaterThanOrEqual(30);
    const missing = registered.filter(([m, p]) => !doc.paths[p]?.[m]).map(([m, p]) => `${m.toUpperCase()} ${p}`);
    expect(missing).toEqual([]);
  });

  it('documents nothing that is not registered', () => {
    const keys = new Set(registered.map(([m, p]) => `${m} ${p}`));
    expect(documented.map(([m, p]) => `${m} ${p}`).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('lists every operation of the interface', () => {
    for (const [method, path] of [
      ['post', '/momo/payout'], ['post', '/tx/createTransferRequest'], ['post', '/momo/resolve'], ['post', '/account/resolve'],
      ['post', '/id/resolve'], ['get', '/fx/convert'], ['get', '/v1/account/banks'], ['post', '/v1/payments/moneyout'],
      ['get', '/v1/payments/{paymentId}'], ['post', '/v1/webhooks/register'], ['get', '/v1/webhooks/events'],
    ]) {
      expect({ method, path, documented: Boolean(doc.paths[path!]?.[method!]) }).toEqual({ method, path, documented: true });
    }
  });

  it('gives every documented operation a 2xx response, a unique operationId and known tags', () => {
    const tagNames = doc.tags.map((t) => t.name);
    expect(tagNames).toEqual(['Payments', 'FX', 'Webhooks', 'Balances', 'Deposits', 'Customers', 'Analytics', 'Health', 'Admin', 'Operators']);
    for (const [method, path, op] of documented) {
      const success = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
      expect({ method, path, success: success.length > 0 }).toEqual({ method, path, success: true });
      expect(op.tags?.length).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(tagNames).toContain(tag);
    }
    const ids = documented.map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/webhooks/register']!.post!.responses).toHaveProperty('201');
  });

  it('declares every path template parameter as a required path parameter', () => {
    for (const [method, path, op] of documented) {
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        const param = op.parameters?.find((p) => p.in === 'path' && p.name === name);
        expect({ method, path, name, required: param?.required }).toEqual({ method, path, name, required: true });
      }
    }
  });

  it('documents the public parameter names: FX query and the Idempotency-Key header', () => {
    const fx = doc.paths['/fx/convert']!.get!.parameters!.filter((p) => p.in === 'query');
    expect(fx.filter((p) => p.required).map((p) => p.name).sort()).toEqual(['amount', 'destinationCurrency', 'sourceCurrency']);
    const header = doc.paths['/v1/payments/moneyout']!.post!.parameters!.find((p) => p.in === 'header');
    expect({ name: header?.name.toLowerCase(), required: header?.required }).toEqual({ name: 'idempotency-key', required: true });
  });

  it('requires every field of the Payment resource and types the FX quote amounts and expiry', () => {
    const payment = doc.components.schemas.Payment!;
    for (const field of ['id', 'status', 'paymentMethod', 'sourceCurrency', 'amountStablecoin', 'fiatAmount', 'destinationCurrency', 'providerRef', 'reference', 'createdAt', 'updatedAt']) {
      expect(payment.required).toContain(field);
    }
    const fx = doc.components.schemas.FxQuote!.properties!;
    expect([fx.convertedAmount!.type, fx.exchangeRate!.type, fx.payoutFee!.type]).toEqual(['number', 'string', 'string']);
    expect(['integer', 'number']).toContain(fx.expiryTimestamp!.type);
    expect(doc.components.schemas.ErrorA!.required!.sort()).toEqual(['code', 'details', 'message', 'statusCode']);
  });

  it('enforces exactly the documented security: bearer operations answer 401 without a key, open ones do not', async () => {
    for (const [method, path, op] of documented) {
      const open = (op.security ?? []).length === 0;
      const res = await service.call(method.toUpperCase(), path.replace(/\{\w+\}/g, 'x'));
      // An open lookup by a capability token answers 404 for the placeholder token, never 401; sign-in without a body, 400.
      const openStatus = path.includes('{token}') ? 404 : path === '/v1/operator/sign-in' ? 400 : 200;
      if (open) expect({ method, path, status: res.status }).toEqual({ method, path, status: openStatus });
      else expect({ method, path, status: res.status, code: res.body?.code }).toEqual({ method, path, status: 401, code: 'unauthorized' });
    }
    expect(documented.filter(([, , op]) => (op.security ?? []).length === 0).map(([, p]) => p).sort()).toEqual(['/livez', '/readyz', '/tx/transferLinks/{token}', '/v1/operator/sign-in']);
  });

  it('serves /docs as offline HTML with its own assets', async () => {
    const bare = await fetch(`${service.baseUrl}/docs`, { redirect: 'manual' });
    expect([200, 301, 302, 308]).toContain(bare.status);
    const page = await fetch(`${service.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<title>Payout gateway API 0.5.0</title>');
    expect(html).toContain('swagger-ui');
    // every script and stylesheet is local: nothing from a CDN
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(2);
    expect(assets.filter((a) => /^(https?:)?\/\//.test(a))).toEqual([]);
  });

  it.each([
    ['/docs/swagger-ui.css', /^text\/css/],
    ['/docs/swagger-ui-bundle.js', /javascript/],
    ['/docs/swagger-ui-init.js', /javascript/],
  ])('serves %s', async (asset, type) => {
    const res = await fetch(service.baseUrl + asset);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(100);
    if (asset.endsWith('init.js')) expect(text).toContain('"version": "0.5.0"');
  });
});
