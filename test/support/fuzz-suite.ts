import {
  getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType,
  type GraphQLArgument, type GraphQLField, type GraphQLInputField, type GraphQLInputType, type GraphQLObjectType,
} from 'graphql';
import { Client } from 'pg';
import { graphqlSchema } from '../../src/adapters/graphql/graphql-schema';
import { gql } from './graphql-client';
import {
  asText, fakeUlidId, hostileValues, percentEncode, queryPairs, seededRandom, seededUuid, sendableHeader,
  toJsonText, type Hostile, type KnownIds,
} from './fuzz-values';
import { startReceiver, type Receiver } from './receiver';
import { moneyOutBody, startTestService, type TestService } from './test-service';
import { solanaTxHash } from './tx-hashes';

/**
 * Systematic hunt for 500s (docs/decisions.md § Errors: shapes per route family: bad input always gets a clear 4xx in a documented shape,
 * never a 500 / internal_error, and writes nothing). Every operation of GET /openapi.json and every
 * Query and Mutation field of the GraphQL schema gets deterministic hostile variants, one input at
 * a time, on top of a valid baseline; all failures are collected and printed, then asserted empty.
 */

const SEED = 0x5eed_f022;
/**
 * Each transport's test sends thousands of requests one after another (about a minute each on an
 * idle two-core machine): the limit only catches a hang, with room for `npm test`'s workers and
 * other work sharing the cores (a loaded run has taken five minutes per test).
 */
const FUZZ_TIMEOUT_MS = 900_000;

/** Hostile values tried per input (deterministic sample; the "core" values are always kept). */
const MAX_VALUES_PER_INPUT = 56;
const REFUND_ADDRESS = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

/** Tables a fuzz request can write through, counted by `countWrites` (api_keys apart: its last-used time is no write). */
const WRITE_COUNTED_TABLES = [
  'payments', 'idempotency_keys', 'ledger_transactions', 'ledger_accounts', 'outbox_events', 'quotes', 'customers',
  'transfer_requests', 'webhook_deliveries', 'webhook_registrations', 'tenants',
];

/** SQL that installs (or removes) the row triggers counting writes into `fuzz_writes.n`, for "writes nothing". */
function countWrites(action: 'install' | 'remove'): string {
  const drop = [...WRITE_COUNTED_TABLES, 'api_keys'].map((t) => `drop trigger if exists fuzz_write_count on ${t}; drop trigger if exists fuzz_write_revoke on ${t};`).join('\n');
  if (action === 'remove') return `${drop}\ndrop function if exists fuzz_count_write(); drop table if exists fuzz_writes;`;
  return `${drop}
    drop table if exists fuzz_writes; create table fuzz_writes (n bigint not null); insert into fuzz_writes values (0);
    create or replace function fuzz_count_write() returns trigger language plpgsql as $$ begin update fuzz_writes set n = n + 1; return null; end $$;
    ${WRITE_COUNTED_TABLES.map((t) => `create trigger fuzz_write_count after insert or update or delete on ${t} for each row execute function fuzz_count_write();`).join('\n')}
    create trigger fuzz_write_count after insert or delete on api_keys for each row execute function fuzz_count_write();
    create trigger fuzz_write_revoke after update on api_keys for each row when (old.revoked_at is distinct from new.revoked_at) execute function fuzz_count_write();`;
}

type KeyKind = 'issuer' | 'admin' | 'none';

/** One request to send, and how a human reads it. */
interface RestRequest {
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  readonly variant: string;
  readonly key: KeyKind;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
}

interface Failure {
  readonly transport: 'REST' | 'GraphQL';
  readonly operation: string;
  readonly request: string;
  readonly variant: string;
  readonly problem: string;
  readonly status: number;
  readonly response: string;
}

/** An OpenAPI parameter (only what this test reads). */
interface Parameter { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema }
interface JsonSchema {
  $ref?: string; type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; enum?: unknown[];
  items?: JsonSchema; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; allOf?: JsonSchema[]; example?: unknown; examples?: unknown[];
  minLength?: number; minimum?: number; const?: unknown; default?: unknown; format?: string;
}
interface Operation {
  operationId: string; tags?: string[]; security?: unknown[]; parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface OpenApiDocument { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, JsonSchema> } }

/** A valid request for an operation: the base every variant changes one thing of. Functions give fresh unique values. */
interface Baseline {
  params: Record<string, string>;
  query: Record<string, string>;
  headers: () => Record<string, string>;
  body?: () => Record<string, unknown>;
  /** Sending the baseline itself would destroy a seeded resource: only variants are sent. */
  destructive?: boolean;
}

const abbreviate = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);

/** Which documented error shape a 4xx body has (docs/decisions.md § Errors: shapes per route family), or undefined. The status inside must match HTTP's. */
function errorShape(status: number, body: unknown): 'A' | 'B' | 'C' | 'D' | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  const keys = Object.keys(b).sort().join(',');
  const isRecord = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const requestId = isRecord(b.details) && typeof (b.details as Record<string, unknown>).requestId === 'string';
  if (keys === 'code,details,message,statusCode' && typeof b.code === 'string' && typeof b.message === 'string' && b.statusCode === status && requestId
    && (b.code !== 'validation_error' || Array.isArray((b.details as Record<string, unknown>).fields))) return 'A';
  if (keys === 'code,details,error,message,statusCode' && isRecord(b.error) && typeof (b.error as Record<string, unknown>).code === 'string'
    && b.code === (b.error as Record<string, unknown>).code && typeof b.message === 'string' && b.statusCode === status && requestId) return 'B';
  if (keys === 'code,details,error,message,statusCode' && typeof b.error === 'string' && b.code === b.error && typeof b.message === 'string'
    && typeof b.details === 'string' && b.statusCode === status) return 'C';
  if (keys === 'code,details,error,message' && b.error === status && typeof b.code === 'string' && typeof b.message === 'string' && requestId) return 'D';
  return undefined;
}

/** Keeps the always-tried values and a deterministic sample of the rest, up to `max`, in their original order. */
function sample(values: readonly Hostile[], core: ReadonlySet<string>, max: number, random: () => number): Hostile[] {
  const kept = values.filter((v) => core.has(v.label));
  const rest = values.filter((v) => !core.has(v.label));
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  const chosen = new Set([...kept, ...rest.slice(0, Math.max(0, max - kept.length))]);
  return values.filter((v) => chosen.has(v));
}

/** The classic offenders (emptiness, size, NUL, broken UTF-16, extreme numbers, JSON types, odd dates, ids, cursors, deep nesting): every input always gets these. */
const CORE_LABELS = new Set([
  "''", "' '", "'x'*10k", "'x'*100k", 'NUL', 'a NUL b', 'C0/C1 controls', 'lone high surrogate', 'RTL override', 'emoji', 'SQL', 'Mongo op',
  '-1', '0', '1e308', '-1e308', '1e-308', '1.5', '2**53+1', "'NaN'", "'Infinity'", "'1'+40 zeros", "'0.0000001'", 'true', 'false', 'null',
  '[]', "['a']", '{}', '{__proto__:{admin:true}}', '{constructor:{prototype:{}}}', 'nested 200', "'0000-01-01'", "'-005000-01-01T00:00:00Z'",
  "'9999-12-31T23:59:59Z'", "'2024-02-30'", "'a'*36", "'-'*36", 'uppercase uuid', "'pay_'+26", "'cus_'+26", 'real payment id',
  'real customer id', 'cursor of ""', 'cursor of "|"', 'cursor with SQL id', 'cursor of year 0000', 'cursor of year +275760', 'cursor of binary',
  'raw 1e400', "'1e308'", 'raw array 5000 deep',
]);

/** Path segments written raw (already percent-encoded or deliberately malformed). */
const RAW_PATH_SEGMENTS = ['%', '%zz', '%E0%A4%A', '%C0%80', '%ED%A0%80', '%00', '%2F', '%2e%2e', '..', '.', '%25', '%FF%FE', '%F4%90%80%80'];

/** GraphQL literals written into the query text in place of a scalar argument. */
const GRAPHQL_LITERALS = [
  '""', '" "', '"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"\\udc00x"', JSON.stringify('x'.repeat(10_000)), `"' or 1=1--"`, '"{\\"$gt\\":\\"\\"}"',
  '"NaN"', '"Infinity"', `"1${'0'.repeat(40)}"`, '"0.0000001"', '"-005000-01-01T00:00:00Z"', '"2024-02-30"', `"${'a'.repeat(36)}"`,
  '-1', '0', '1e308', '-1e308', '1e-308', '1.5', '9007199254740993', `1${'0'.repeat(40)}`, 'true', 'null', '[]', '["a"]', '{}', '{a: {b: {c: 1}}}',
  'ENUM_LIKE', `${'['.repeat(200)}${']'.repeat(200)}`, '"""block\nstring"""',
];

/** Which transport's test a file runs: test/e2e/fuzz-rest.test.ts and fuzz-graphql.test.ts, one each. */
export type FuzzTransport = 'REST' | 'GraphQL';

/**
 * Registers the fuzz suite with the test of `transport` only. The two transports' tests are two
 * files so that jest runs them side by side (each sends thousands of requests one after another);
 * each file seeds its own tenants, payment, webhook and customer in `beforeAll`.
 */
export function describeFuzz(transport: FuzzTransport): void {
  describe('fuzz: no input makes a 500 or internal_error, and a refused input writes nothing', () => {
    let service: TestService;
    let receiver: Receiver;
    let issuerKey: string;
    let adminKey: string;
    let ids: KnownIds;
    let victimTenantId: string;
    /** A connection of the test's own, for the write checks. */
    let db: Client;
    let simulatedPaymentId: string;
    let deliveryId: string;
    let hostile: Hostile[];
    const random = seededRandom(SEED);
    const failures: Failure[] = [];
    let counter = 0;
    let restRequests = 0;
    let graphqlRequests = 0;
    let skipped = 0;
    /** Status counts per operation, printed so a reader sees how deep the variants reached (2xx means past validation). */
    const statuses = new Map<string, Map<number, number>>();
    const countStatus = (operation: string, status: number) => {
      const counts = statuses.get(operation) ?? new Map<number, number>();
      counts.set(status, (counts.get(status) ?? 0) + 1);
      statuses.set(operation, counts);
    };
    const baselines: string[] = [];
    const started = Date.now();
    const unique = (prefix: string) => `${prefix}-${SEED.toString(16)}-${++counter}`;

    beforeAll(async () => {
      service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
      db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await db.connect();
      receiver = await startReceiver();
      const issuerTenant = await service.newTenant();
      issuerKey = issuerTenant.apiKey;
      adminKey = await service.newAdminKey();
      ({ tenantId: victimTenantId } = await service.newTenant());
      const issuer = { apiKey: issuerKey };
      const must = async (method: string, path: string, options: Parameters<TestService['call']>[2], status: number) => {
        const res = await service.call(method, path, options);
        if (res.status !== status) throw new Error(`seeding ${method} ${path}: ${res.status} ${res.text}`);
        return res.body;
      };
      const pay = () => must('POST', '/v1/payments/moneyout', {
        ...issuer, body: moneyOutBody({ reference: unique('seed') }), headers: { 'idempotency-key': seededUuid(random) },
      }, 201);
      const webhook = await must('POST', '/v1/webhooks/register', { ...issuer, body: { url: receiver.url } }, 201);
      const payment = await pay();
      simulatedPaymentId = (await pay()).id;
      // A settled payment: its events give the webhook event log real entries (a real delivery id to retry)
      // and the ledger a second page, so a real cursor can be read.
      const settled = await pay();
      await must('POST', `/v1/admin/payments/${settled.id}/simulate`, { apiKey: adminKey, body: { outcome: 'succeeded' } }, 200);
      const customer = await must('POST', '/v1/customers', {
        ...issuer, body: { externalId: unique('cust'), firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12', idType: 'NATIONAL_ID', idNumber: '12345678' },
      }, 201);
      const transferReference = unique('trq');
      await must('POST', '/tx/createTransferRequest', {
        ...issuer, body: { recipient: REFUND_ADDRESS, amount: 150.5, acquirerMerchantName: 'ACQ_1', reference: transferReference, merchantID: 'merchant-42' },
      }, 200);
      const page = await service.call('GET', '/v1/balances/transactions?limit=1', issuer);
      const realCursor = /cursor=([^&>]+)/.exec(page.headers.get('link') ?? '')?.[1];
      const events = await service.call('GET', '/v1/webhooks/events?limit=1', issuer);
      const delivery = (events.body as { id: string }[])[0];
      if (!delivery) throw new Error(`seeding: no webhook event log entry to retry: ${events.text}`);
      deliveryId = delivery.id;
      ids = {
        paymentId: payment.id, customerId: customer.id, webhookId: webhook.webhookId, tenantId: victimTenantId, transferReference,
        ...(realCursor ? { realCursor: decodeURIComponent(realCursor) } : {}),
      };
      hostile = hostileValues(ids, random);
      await db.query(countWrites('install'));
      // The counter itself is checked: a write it did not see would make every "writes nothing" pass.
      const before = await fingerprint();
      await must('POST', '/v1/webhooks/register', { ...issuer, body: { url: `${receiver.url}?counted` } }, 201);
      if (await fingerprint() === before) throw new Error('seeding: the write counter did not count a webhook registration');
    });

    afterAll(async () => {
      await db?.query(countWrites('remove')).catch(() => undefined);
      await db?.end();
      await service?.close();
      await receiver?.close();
    });

    /**
     * What "writes nothing" compares: a count of row writes, kept by row triggers (installed by
     * `countWrites`) on every table a request of this test can write through: payments,
     * idempotency keys, the ledger, the outbox, quotes, customers, transfer requests, webhook
     * registrations and deliveries, tenants, and api_keys' issue, deletion and revocation (not the
     * last-used time). The count is a row in the same transactions, so a write rolled back is no
     * write. The worker's database is this file's alone while it runs (test/support/worker-database.ts),
     * so every count is this service's doing.
     */
    let fingerprintMs = 0;
    const fingerprint = async (): Promise<string> => {
      const t0 = Date.now();
      const { rows: [row] } = await db.query<{ n: string }>({ name: 'fuzz_fingerprint', text: 'select n::text as n from fuzz_writes' });
      fingerprintMs += Date.now() - t0;
      return `${row!.n} writes`;
    };
    let lastFingerprint: string | undefined;

    /** Compares the database before and after a refused (400 validation_error) request; `before` is read lazily. */
    const checkNoWrite = async (refused: boolean, record: (problem: string) => void) => {
      if (!refused) {
        lastFingerprint = undefined;
        return;
      }
      const after = await fingerprint();
      if (lastFingerprint !== undefined && after !== lastFingerprint) record(`refused with validation_error but wrote to the database (${lastFingerprint} -> ${after})`);
      lastFingerprint = after;
    };
    const beforeSend = async () => {
      lastFingerprint ??= await fingerprint();
    };

    const keyFor = (kind: KeyKind) => (kind === 'admin' ? adminKey : kind === 'issuer' ? issuerKey : undefined);

    async function sendRest(req: RestRequest): Promise<{ status: number; body: unknown }> {
      await beforeSend();
      restRequests++;
      const headers: Record<string, string> = { ...req.headers };
      const key = keyFor(req.key);
      if (key) headers.authorization = `Bearer ${key}`;
      const fail = (problem: string, status: number, response: string) => failures.push({
        transport: 'REST', operation: req.operation, request: `${req.method.toUpperCase()} ${abbreviate(req.url, 300)}${req.body !== undefined ? ` body=${abbreviate(typeof req.body === 'string' ? req.body : `bytes:${Buffer.from(req.body).toString('latin1')}`, 300)}` : ''}`,
        variant: req.variant, problem, status, response: abbreviate(response),
      });
      let status = 0;
      let text = '';
      let contentType = '';
      try {
        const res = await fetch(service.baseUrl + req.url, { method: req.method.toUpperCase(), headers, body: req.body });
        status = res.status;
        contentType = res.headers.get('content-type') ?? '';
        text = await res.text();
      } catch (error) {
        fail(`the request failed at the transport: ${String((error as Error).cause ?? error)}`, 0, '');
        lastFingerprint = undefined;
        return { status: 0, body: undefined };
      }
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      countStatus(`REST ${req.operation}`, status);
      if (req.variant.startsWith('baseline')) baselines.push(`${req.operation} -> ${status}`);
      if (status >= 500) fail(`status ${status} (${(body as { code?: string })?.code ?? 'no code'})`, status, text);
      else if (status >= 400) {
        if (!/^application\/json/.test(contentType)) fail(`4xx without a JSON body (content-type ${contentType || 'none'})`, status, text);
        else if (!errorShape(status, body)) fail('4xx body is none of the documented error shapes A/B/C/D', status, text);
      }
      await checkNoWrite(status === 400 && (body as { code?: string })?.code === 'validation_error', (problem) => fail(problem, status, text));
      return { status, body };
    }

    // ---- REST -------------------------------------------------------------------------------------

    function baselineFor(operationId: string, op: Operation, resolve: (s: JsonSchema) => JsonSchema): Baseline {
      const table: Record<string, Partial<Baseline>> = {
        convertFx: { query: { amount: '1500', sourceCurrency: 'KES', destinationCurrency: 'USDC', paymentMethod: 'MOMO', country: 'KE', optionalIssuerFee: 'NO', blockchain: 'SOLANA' } },
        createMoneyOut: {
          headers: () => ({ 'idempotency-key': seededUuid(random) }),
          body: () => moneyOutBody({ reference: unique('mo') }),
        },
        getPayment: { params: { paymentId: ids.paymentId } },
        legacyPayout: {
          body: () => ({ amount: 1500, destination: 'MoMo', accountName: 'Jane Wanjiku', accountNumber: '254712345678', reference: unique('legacy'), currency: 'KES', country: 'KE', code: 'MPESA' }),
        },
        createTransferRequest: {
          body: () => ({ recipient: REFUND_ADDRESS, amount: 150.5, acquirerMerchantName: 'ACQ_1', reference: unique('trq'), merchantID: 'merchant-42', description: 'fuzz', currency: 'USDC', terminalType: 'APP', merchantCategoryCode: '01' }),
        },
        getTransferRequest: { params: { reference: ids.transferReference } },
        listBanks: { query: { country: 'NG' } },
        resolveMomo: { body: () => ({ type: 'momo', phoneNumber: '254712345678' }) },
        resolveBankAccount: { body: () => ({ accountNumber: '0123456789', currency: 'NGN', paymentType: 'bank', bankCode: '058' }) },
        resolveIdentifier: { body: () => ({ username: 'jane.doe', issuer: 'issuer_a', wallet_network: 'Solana' }) },
        registerWebhook: { body: () => ({ url: receiver.url, events: ['payment.processing'] }) },
        deleteWebhook: { params: { webhookId: ids.webhookId }, destructive: true },
        listWebhookEvents: { query: { limit: '5', status: 'pending', eventType: 'payment.processing', entityId: ids.paymentId } },
        retryWebhookEvent: { params: { id: deliveryId } },
        listBalanceTransactions: { query: { limit: '5' } },
        analyticsSummary: { query: { from: '2024-01-01T00:00:00Z', to: '2024-12-31T00:00:00Z', groupBy: 'day' } },
        createCustomer: {
          body: () => ({ externalId: unique('cust'), firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12', idType: 'NATIONAL_ID', idNumber: '12345678' }),
        },
        listCustomers: { query: { limit: '5' } },
        getCustomer: { params: { customerId: ids.customerId } },
        createTenant: { body: () => ({ name: unique('Fuzz tenant'), environment: 'sandbox', rateLimitPerMinute: 100000 }) },
        updateTenant: {
          params: { tenantId: victimTenantId },
          body: () => ({ name: 'Victim', rateLimitPerMinute: 100000, payoutSourceCurrency: 'USDC', payoutBlockchain: 'SOLANA', payoutRefundAddress: REFUND_ADDRESS }),
        },
        issueApiKey: { params: { tenantId: victimTenantId }, body: () => ({ scope: 'issuer', label: 'fuzz' }) },
        listApiKeys: { params: { tenantId: victimTenantId } },
        revokeApiKey: { params: { keyId: fakeUlidId('key_', random) }, destructive: true },
        recordDeposit: { params: { tenantId: victimTenantId }, body: () => ({ currency: 'USDC', amount: '10', blockchain: 'SOLANA', txHash: solanaTxHash() }) },
        adminGetPayment: { params: { paymentId: ids.paymentId } },
        simulatePayment: { params: { paymentId: simulatedPaymentId }, body: () => ({ outcome: 'succeeded' }), destructive: true },
      };
      const known = table[operationId] ?? {};
      // Anything the table does not cover (a new route) gets a baseline generated from its schemas.
      const params: Record<string, string> = { ...known.params };
      const query: Record<string, string> = { ...known.query };
      for (const p of op.parameters ?? []) {
        if (p.in === 'path' && params[p.name] === undefined) params[p.name] = asText(exampleOf(resolve(p.schema ?? {}), resolve));
        if (p.in === 'query' && p.required && query[p.name] === undefined) query[p.name] = asText(exampleOf(resolve(p.schema ?? {}), resolve));
      }
      const bodySchema = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined;
      return {
        params,
        query,
        headers: known.headers ?? (() => ({})),
        ...(known.body ? { body: known.body } : bodySchema ? { body: () => exampleOf(resolve(bodySchema), resolve) as Record<string, unknown> } : {}),
        ...(known.destructive ? { destructive: true } : {}),
      };
    }

    function exampleOf(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema): unknown {
      if (schema.example !== undefined) return schema.example;
      if (schema.examples?.length) return schema.examples[0];
      if (schema.const !== undefined) return schema.const;
      if (schema.enum?.length) return schema.enum[0];
      const alternatives = schema.anyOf ?? schema.oneOf;
      if (alternatives?.length) return exampleOf(resolve(alternatives[0]!), resolve);
      const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
      if (type === 'object' || schema.properties) {
        return Object.fromEntries((schema.required ?? []).map((name) => [name, exampleOf(resolve(schema.properties?.[name] ?? {}), resolve)]));
      }
      if (type === 'array') return [];
      if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
      if (type === 'boolean') return true;
      if (schema.format === 'uuid') return seededUuid(random);
      if (schema.format === 'date-time') return '2024-01-01T00:00:00Z';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    }

    /** Properties of a (resolved) object schema, unions included. */
    function propertiesOf(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema): Record<string, JsonSchema> {
      const own = schema.properties ?? {};
      const fromAlternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]
        .map((s) => propertiesOf(resolve(s), resolve));
      return Object.assign({}, ...fromAlternatives, own) as Record<string, JsonSchema>;
    }

    const isArraySchema = (s: JsonSchema) => s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array')) || (s.anyOf ?? []).some(isArraySchema);

    if (transport === 'REST') it('REST: every operation of /openapi.json answers every hostile variant below 500, in a documented error shape', async () => {
      const res = await service.call('GET', '/openapi.json');
      expect(res.status).toBe(200);
      const document = res.body as OpenApiDocument;
      const resolve = (s: JsonSchema): JsonSchema => {
        let current = s;
        for (let i = 0; i < 10 && current.$ref; i++) current = document.components?.schemas?.[current.$ref.replace('#/components/schemas/', '')] ?? {};
        return current;
      };
      const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ path, method, op })));
      expect(operations.length).toBeGreaterThan(30);

      const methodsSeen = new Set<string>();
      for (const { path, method, op } of operations) {
        const base = baselineFor(op.operationId, op, resolve);
        const parameters = op.parameters ?? [];
        let key: KeyKind = op.security && op.security.length === 0 ? 'none' : op.tags?.includes('Admin') ? 'admin' : 'issuer';

        const urlOf = (params: Record<string, string>, rawParams: ReadonlySet<string>, queryText: string) => {
          const p = path.replace(/\{(\w+)\}/g, (_m, name: string) => (rawParams.has(name) ? params[name]! : percentEncode(params[name] ?? '')));
          return queryText ? `${p}?${queryText}` : p;
        };
        const baseQueryPairs = (omit?: string) => Object.entries(base.query).filter(([k]) => k !== omit).flatMap(([k, v]) => queryPairs(k, v));
        const send = (variant: string, parts: { method?: string; url?: string; headers?: Record<string, string>; body?: string | Uint8Array | null }) => sendRest({
          operation: `${method.toUpperCase()} ${path}`, method: parts.method ?? method, variant, key,
          url: parts.url ?? urlOf(base.params, new Set(), baseQueryPairs().join('&')),
          headers: { ...base.headers(), ...(base.body ? { 'content-type': 'application/json' } : {}), ...parts.headers },
          ...(parts.body === null ? {} : parts.body !== undefined ? { body: parts.body } : base.body ? { body: toJsonText(base.body()) } : {}),
        });

        // The baseline itself (which also settles which key a Health route needs), unless it destroys seeded data.
        if (!base.destructive) {
          const first = await send('baseline', {});
          if (first.status === 403 && key === 'issuer') {
            key = 'admin';
            await send('baseline (admin key)', {});
          }
        } else if (key === 'issuer' && op.tags?.includes('Health')) key = 'admin';

        // Authorization: missing, malformed or of the wrong scope (the route's own key is used everywhere else).
        if (key !== 'none') {
          for (const [label, authorization] of [
            ['no Authorization', undefined], ['Bearer without key', 'Bearer'], ['Basic credentials', 'Basic dXNlcjpwYXNz'],
            ['unknown sk_ key', `Bearer sk_sandbox_${'x'.repeat(64)}`], ['10k-char key', `Bearer ${'k'.repeat(10_000)}`],
            ['two keys', `Bearer ${issuerKey} ${adminKey}`], ['other scope key', `Bearer ${key === 'admin' ? issuerKey : adminKey}`],
          ] as const) {
            await sendRest({
              operation: `${method.toUpperCase()} ${path}`, method, variant: `auth: ${label}`, key: 'none',
              url: urlOf(base.params, new Set(), baseQueryPairs().join('&')),
              headers: { ...base.headers(), ...(authorization ? { authorization } : {}), ...(base.body ? { 'content-type': 'application/json' } : {}) },
              ...(base.body ? { body: toJsonText(base.body()) } : {}),
            });
          }
        }
        if (!methodsSeen.has(`put ${path}`)) {
          methodsSeen.add(`put ${path}`);
          await send('unlisted method PUT', { method: 'put' });
        }

        // Path parameters.
        for (const p of parameters.filter((x) => x.in === 'path')) {
          for (const h of sample(hostile, CORE_LABELS, MAX_VALUES_PER_INPUT, random)) {
            await send(`path ${p.name} = ${h.label}`, { url: urlOf({ ...base.params, [p.name]: asText(h.value) }, new Set(), baseQueryPairs().join('&')) });
          }
          for (const raw of RAW_PATH_SEGMENTS) {
            await send(`path ${p.name} = raw ${raw}`, { url: urlOf({ ...base.params, [p.name]: raw }, new Set([p.name]), baseQueryPairs().join('&')) });
          }
        }

        // Query parameters, one at a time.
        const queryParams = parameters.filter((x) => x.in === 'query');
        for (const p of queryParams) {
          for (const h of sample(hostile, CORE_LABELS, MAX_VALUES_PER_INPUT, random)) {
            const q = [...baseQueryPairs(p.name), ...queryPairs(p.name, h.value)].join('&');
            await send(`query ${p.name} = ${h.label}`, { url: urlOf(base.params, new Set(), q) });
          }
          await send(`query ${p.name} absent`, { url: urlOf(base.params, new Set(), baseQueryPairs(p.name).join('&')) });
          await send(`query ${p.name} twice`, { url: urlOf(base.params, new Set(), [...baseQueryPairs(), ...baseQueryPairs().filter((x) => x.startsWith(`${p.name}=`))].join('&')) });
          await send(`query ${p.name}[] and ${p.name}[x]`, { url: urlOf(base.params, new Set(), [...baseQueryPairs(p.name), `${p.name}%5B%5D=1`, `${p.name}%5Bx%5D=1`].join('&')) });
        }
        if (queryParams.length > 0 || method === 'get') {
          for (const [label, extra] of [
            ['unknown parameter', 'surprise=1'], ['__proto__ parameter', '__proto__=1'], ['__proto__[admin] parameter', '__proto__%5Badmin%5D=true'],
            ['constructor parameter', 'constructor=1'], ['toString parameter', 'toString=x'], ['malformed percent', 'a=%&b=%zz'],
            ['empty pairs', '&&&=&='], ['2000 parameters', Array.from({ length: 2000 }, (_, i) => `p${i}=${i}`).join('&')],
          ] as const) {
            await send(`query + ${label}`, { url: urlOf(base.params, new Set(), [...baseQueryPairs(), extra].join('&')) });
          }
        }

        // Header parameters (Idempotency-Key).
        for (const p of parameters.filter((x) => x.in === 'header')) {
          for (const h of sample(hostile, CORE_LABELS, MAX_VALUES_PER_INPUT, random)) {
            const text = asText(h.value);
            if (!sendableHeader(text)) {
              skipped++;
              continue;
            }
            await send(`header ${p.name} = ${h.label}`, { headers: { [p.name]: text } });
          }
          await send(`header ${p.name} absent`, { headers: Object.fromEntries(Object.entries(base.headers()).filter(([k]) => k !== p.name)) });
        }

        // Body fields, one at a time, then whole-body replacements.
        const bodySchema = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined;
        if (bodySchema && base.body) {
          const properties = propertiesOf(resolve(bodySchema), resolve);
          for (const [field, fieldSchema] of Object.entries(properties)) {
            for (const h of sample(hostile, CORE_LABELS, MAX_VALUES_PER_INPUT, random)) {
              await send(`body.${field} = ${h.label}`, { body: toJsonText({ ...base.body(), [field]: h.value }) });
            }
            await send(`body.${field} absent`, { body: toJsonText(Object.fromEntries(Object.entries(base.body()).filter(([k]) => k !== field))) });
            if (isArraySchema(resolve(fieldSchema))) {
              for (const h of sample(hostile, CORE_LABELS, 24, random)) {
                await send(`body.${field} = [${h.label}]`, { body: toJsonText({ ...base.body(), [field]: [h.value] }) });
              }
              await send(`body.${field} = 1000 items`, { body: toJsonText({ ...base.body(), [field]: Array.from({ length: 1000 }, () => 'payment.processing') }) });
            }
          }
          const whole: [string, string | Uint8Array, Record<string, string>?][] = [
            ['body null', 'null'], ['body []', '[]'], ['body [baseline]', toJsonText([base.body()])], ['body "string"', '"string"'], ['body 0', '0'],
            ['body true', 'true'], ['body {}', '{}'], ['body empty', ''], ['body malformed', '{"a":'], ['body with BOM', `\uFEFF${toJsonText(base.body())}`],
            ['body nested 5000', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`], ['body array 20000 deep', `${'['.repeat(20000)}${']'.repeat(20000)}`],
            ['body + __proto__', toJsonText(base.body()).replace('{', '{"__proto__":{"admin":true,"tenantId":"ten_X"},')],
            ['body + constructor', toJsonText(base.body()).replace('{', '{"constructor":{"prototype":{"admin":true}},')],
            ['body + unknown field', toJsonText({ ...base.body(), surprise: 1 })], ['body + 100k-char key', toJsonText({ ...base.body(), ['k'.repeat(100_000)]: 1 })],
            ['body with a duplicated key', toJsonText(base.body()).replace('{', `{${JSON.stringify(Object.keys(base.body())[0] ?? 'a')}:{"$gt":""},`)],
            ['body every field null', toJsonText(Object.fromEntries(Object.keys(properties).map((k) => [k, null])))],
            ['body every field ""', toJsonText(Object.fromEntries(Object.keys(properties).map((k) => [k, ''])))],
            ['body + NUL in a key', toJsonText({ ...base.body(), 'k\u0000': 1 })],
            ['body 2 MB', toJsonText({ ...base.body(), padding: 'x'.repeat(2 * 1024 * 1024) })],
            ['body UTF-16 charset', toJsonText(base.body()), { 'content-type': 'application/json; charset=utf-16' }],
            ['body unknown charset', toJsonText(base.body()), { 'content-type': 'application/json; charset=klingon' }],
            ['body text/plain', toJsonText(base.body()), { 'content-type': 'text/plain' }],
            ['body form-encoded', 'a=1&b=2', { 'content-type': 'application/x-www-form-urlencoded' }],
            ['body merge-patch+json', toJsonText(base.body()), { 'content-type': 'application/merge-patch+json' }],
            ['body gzip claimed, not gzip', toJsonText(base.body()), { 'content-encoding': 'gzip' }],
            ['body unknown encoding', toJsonText(base.body()), { 'content-encoding': 'br, klingon' }],
            ['body invalid UTF-8 bytes', Buffer.concat([Buffer.from('{"bad":"'), Buffer.from([0xc3, 0x28, 0xff, 0xed, 0xa0, 0x80]), Buffer.from(`",${toJsonText(base.body()).slice(1)}`)])],
            ['body raw big numbers', toJsonText(base.body()).replace('{', '{"n":1e400,"m":-1e400,"o":123456789012345678901234567890,')],
          ];
          for (const [label, text, headers] of whole) await send(label, { body: text, ...(headers ? { headers } : {}) });
          await send('no body at all', { body: null });
        }
      }
      console.log(`REST: ${restRequests} requests, ${skipped} header values skipped (not sendable), ${Math.round((Date.now() - started) / 1000)} s`);
      expect(restRequests).toBeGreaterThan(0);
      expectNoFailures('REST');
    }, FUZZ_TIMEOUT_MS);

    // ---- GraphQL ----------------------------------------------------------------------------------

    /** A valid value for an argument or input field, by field path; fresh unique values per call. */
    function graphqlBaseline(field: string, name: string, type: GraphQLInputType): unknown {
      const table: Record<string, () => unknown> = {
        'accountResolve.accountNumber': () => '0123456789', 'accountResolve.bankCode': () => '058', 'accountResolve.currency': () => 'NGN',
        'accountResolve.paymentType': () => 'BANK',
        'analyticsSummary.from': () => '2024-01-01T00:00:00Z', 'analyticsSummary.to': () => '2024-12-31T00:00:00Z', 'analyticsSummary.groupBy': () => 'DAY',
        'balanceTransactions.first': () => 5, 'customers.first': () => 5, 'payments.first': () => 5, 'webhookEvents.first': () => 5, 'deposits.first': () => 5,
        'deposits.filter': () => ({ blockchain: ['BSC'], currency: ['USDT'], status: ['CREDITED'], createdFrom: '2024-01-01T00:00:00Z', createdTo: '2999-01-01T00:00:00Z' }),
        'banks.country': () => 'NG', 'customer.id': () => ids.customerId, 'payment.id': () => ids.paymentId,
        'fxQuote.amount': () => '1500', 'fxQuote.sourceCurrency': () => 'KES', 'fxQuote.destinationCurrency': () => 'USDC',
        'fxQuote.paymentMethod': () => 'MOMO', 'fxQuote.country': () => 'KE', 'fxQuote.optionalIssuerFee': () => 'NO', 'fxQuote.blockchain': () => 'SOLANA',
        'idResolve.issuer': () => 'issuer_a', 'idResolve.username': () => 'jane.doe', 'idResolve.walletNetwork': () => 'SOLANA',
        'momoResolve.type': () => 'MOMO', 'momoResolve.phoneNumber': () => '254712345678',
        'payments.filter': () => ({ reference: 'nothing', createdFrom: '2024-01-01T00:00:00Z', createdTo: '2999-01-01T00:00:00Z', status: ['INITIATED'], paymentMethod: ['MOMO'], destinationCurrency: ['KES'] }),
        'transferRequest.reference': () => ids.transferReference,
        'webhookEvents.status': () => 'PENDING', 'webhookEvents.eventType': () => 'PAYMENT_PROCESSING', 'webhookEvents.entityId': () => ids.paymentId,
        'createCustomer.input': () => ({ externalId: unique('gcust'), firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12', idType: 'NATIONAL_ID', idNumber: '12345678' }),
        'createMoneyOut.idempotencyKey': () => seededUuid(random),
        'createMoneyOut.input': () => ({ ...moneyOutBody({ reference: unique('gmo') }), fiatAmount: '1500' }),
        'createTransferRequest.input': () => ({ recipient: REFUND_ADDRESS, amount: '150.50', acquirerMerchantName: 'ACQ_1', reference: unique('gtrq'), merchantID: 'merchant-42' }),
        'deleteWebhook.id': () => ids.webhookId, 'retryWebhookEvent.id': () => deliveryId,
        'legacyPayout.input': () => ({ amount: '1500', destination: 'MOMO', accountName: 'Jane Wanjiku', accountNumber: '254712345678', reference: unique('glegacy'), currency: 'KES', country: 'KE', code: 'MPESA' }),
        'registerWebhook.input': () => ({ url: receiver.url, events: ['PAYMENT_PROCESSING'] }),
      };
      const known = table[`${field}.${name}`];
      if (known) return known();
      // An optional argument the table does not name is left out (a generated 'x' would be a bad cursor or number).
      return isNonNullType(type) ? generatedGraphqlValue(type) : undefined;
    }

    function generatedGraphqlValue(type: GraphQLInputType): unknown {
      const inner = getNullableType(type);
      if (isListType(inner)) return [];
      if (isEnumType(inner)) return inner.getValues()[0]?.name;
      if (isInputObjectType(inner)) {
        return Object.fromEntries(Object.values(inner.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, generatedGraphqlValue(f.type)]));
      }
      const name = getNamedType(inner).name;
      if (name === 'Int' || name === 'Float') return 1;
      if (name === 'Boolean') return true;
      if (name === 'Decimal') return '1';
      if (name === 'DateTimeISO') return '2024-01-01T00:00:00Z';
      return 'x';
    }

    /**
     * Hostile values for a GraphQL leaf. Custom scalars (Decimal, DateTimeISO), lists and input objects get
     * the whole sample; graphql-js's own String, ID, Int, Float, Boolean and enums get the sampled values of
     * their kind (strings for String/ID/enums, numbers and number-ish strings for Int/Float) plus a few of
     * every other kind, since their coercion refuses all wrong types the same way.
     */
    function graphqlHostile(type: GraphQLInputType): Hostile[] {
      const named = getNamedType(type);
      const values = sample(hostile, CORE_LABELS, MAX_VALUES_PER_INPUT, random);
      const builtin = ['String', 'ID', 'Int', 'Float', 'Boolean'].includes(named.name) || isEnumType(named);
      if (isListType(getNullableType(type)) || isInputObjectType(named) || !builtin) return values;
      const numeric = named.name === 'Int' || named.name === 'Float';
      const ofKind = (h: Hostile) => (numeric ? typeof h.value === 'number' || (typeof h.value === 'string' && /^[-+\d.eE ]|NaN|Infinity/.test(h.value)) : typeof h.value === 'string');
      const others = new Set(['true', 'null', '{}', "['a']", '1.5', "''", 'raw 1e400', 'raw array 5000 deep']);
      return values.filter((h) => (named.name === 'Boolean' ? false : ofKind(h)) || others.has(h.label));
    }

    /**
     * Sends one GraphQL request and records what breaks the error rules (docs/decisions.md § Errors: shapes per route family): a 5xx, an `internal_error`, a body
     * that is not JSON, or a refused request (validation_error only) that wrote. Uses gql() unless the
     * variables hold raw JSON tokens or `raw` overrides the whole HTTP request.
     */
    async function sendGraphql(
      operation: string, variant: string, query: string, variables: Record<string, unknown>,
      raw?: { method?: string; headers?: Record<string, string>; body?: string; path?: string },
    ): Promise<void> {
      await beforeSend();
      graphqlRequests++;
      const text = toJsonText(variables);
      const shown = raw ? `${raw.method ?? 'POST'} ${abbreviate(raw.path ?? '/graphql', 300)} ${abbreviate(raw.body ?? '', 300)}` : `POST /graphql ${abbreviate(query, 300)} variables=${abbreviate(text, 300)}`;
      const fail = (problem: string, status: number, response: string) => failures.push({
        transport: 'GraphQL', operation, request: shown, variant, problem, status, response: abbreviate(response),
      });
      let status = 0;
      let body: { errors?: { extensions?: { code?: string } }[] } | undefined;
      try {
        if (raw || text !== JSON.stringify(variables)) {
          // Raw JSON tokens or a malformed request: sent as is (gql() would re-serialize).
          const res = await fetch(`${service.baseUrl}${raw?.path ?? '/graphql'}`, {
            method: raw?.method ?? 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${issuerKey}`, ...raw?.headers },
            ...(raw && raw.body === undefined ? {} : { body: raw?.body ?? `{"query":${JSON.stringify(query)},"variables":${text}}` }),
          });
          status = res.status;
          const answer = await res.text();
          try {
            body = answer ? JSON.parse(answer) : undefined;
          } catch {
            fail('response is not JSON', status, answer);
          }
        } else {
          const res = await gql(service.baseUrl, query, variables, issuerKey);
          status = res.status;
          body = res.body;
        }
      } catch (error) {
        fail(`request failed or answered non-JSON: ${String((error as Error).cause ?? error)}`, status, '');
        lastFingerprint = undefined;
        return;
      }
      countStatus(`GraphQL ${operation}`, (body?.errors?.length ?? 0) > 0 ? -1 : status);
      if (variant === 'baseline') baselines.push(`GraphQL ${operation} -> ${status} ${(body?.errors ?? []).map((e) => e.extensions?.code).join(',')}`);
      const internal = (body?.errors ?? []).filter((e) => e.extensions?.code === 'internal_error');
      if (status >= 500) fail(`HTTP status ${status} (${(body?.errors ?? []).map((e) => e.extensions?.code).join(',') || 'no code'})`, status, JSON.stringify(body));
      else if (internal.length > 0) fail('an error with extensions.code internal_error', status, JSON.stringify(body));
      const refused = (body?.errors?.length ?? 0) > 0 && body!.errors!.every((e) => e.extensions?.code === 'validation_error');
      await checkNoWrite(refused, (problem) => fail(problem, status, JSON.stringify(body)));
    }

    if (transport === 'GraphQL') it('GraphQL: every Query and Mutation field answers every hostile variable without internal_error or a 5xx', async () => {
      const schema = graphqlSchema();
      const roots: [string, GraphQLObjectType | null | undefined][] = [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]];
      // Mutations that destroy the seeded resources are only sent with hostile ids, never their valid baseline.
      const destructive = new Set(['deleteWebhook']);

      for (const [kind, root] of roots) {
        for (const field of Object.values(root?.getFields() ?? {}) as GraphQLField<unknown, unknown>[]) {
          const returned = getNamedType(field.type);
          const selection = isObjectType(returned) ? '{ __typename }' : '';
          const args = field.args as readonly GraphQLArgument[];
          const variableDefs = args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
          const document = `${kind} Fuzz${variableDefs ? `(${variableDefs})` : ''} { ${field.name}${args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : ''} ${selection} }`;
          const baseline = () => Object.fromEntries(args.map((a) => [a.name, graphqlBaseline(field.name, a.name, a.type)]).filter(([, v]) => v !== undefined));

          const send = (variant: string, variables: Record<string, unknown>, query = document) =>
            sendGraphql(`${kind} ${field.name}`, variant, query, variables);

          if (!destructive.has(field.name)) await send('baseline', baseline());
          // Inline literals (parseLiteral paths), one scalar argument at a time; the others stay variables.
          for (const arg of args.filter((a) => isScalarType(getNamedType(a.type)))) {
            const others = args.filter((a) => a !== arg);
            const defs = others.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
            for (const literal of GRAPHQL_LITERALS) {
              const inline = `${kind} Fuzz${defs ? `(${defs})` : ''} { ${field.name}(${[...others.map((a) => `${a.name}: $${a.name}`), `${arg.name}: ${literal}`].join(', ')}) ${selection} }`;
              const vars = Object.fromEntries(Object.entries(baseline()).filter(([k]) => k !== arg.name));
              await send(`literal ${arg.name}: ${abbreviate(literal, 60)}`, vars, inline);
            }
          }
          for (const arg of args) {
            const argType = arg.type;
            const named = getNamedType(argType);
            for (const h of graphqlHostile(argType)) await send(`$${arg.name} = ${h.label}`, { ...baseline(), [arg.name]: h.value });
            if (!isNonNullType(argType)) await send(`$${arg.name} = null`, { ...baseline(), [arg.name]: null });
            if (isListType(getNullableType(argType))) {
              for (const h of sample(hostile, CORE_LABELS, 16, random)) await send(`$${arg.name} = [${h.label}]`, { ...baseline(), [arg.name]: [h.value] });
            }
            if (isInputObjectType(named)) {
              for (const inputField of Object.values(named.getFields()) as GraphQLInputField[]) {
                for (const h of graphqlHostile(inputField.type)) {
                  const input = { ...(baseline()[arg.name] as Record<string, unknown>), [inputField.name]: h.value };
                  await send(`$${arg.name}.${inputField.name} = ${h.label}`, { ...baseline(), [arg.name]: input });
                }
                if (isListType(getNullableType(inputField.type))) {
                  for (const h of sample(hostile, CORE_LABELS, 16, random)) {
                    const input = { ...(baseline()[arg.name] as Record<string, unknown>), [inputField.name]: [h.value] };
                    await send(`$${arg.name}.${inputField.name} = [${h.label}]`, { ...baseline(), [arg.name]: input });
                  }
                }
                const without = Object.fromEntries(Object.entries(baseline()[arg.name] as Record<string, unknown>).filter(([k]) => k !== inputField.name));
                await send(`$${arg.name}.${inputField.name} absent`, { ...baseline(), [arg.name]: without });
              }
              await send(`$${arg.name} + unknown field`, { ...baseline(), [arg.name]: { ...(baseline()[arg.name] as Record<string, unknown>), surprise: 1 } });
            }
          }
        }
      }
      // Whole requests: malformed documents, limits, odd envelopes (once, not per field).
      const me = '{ me { tenantId } }';
      for (const [variant, rawRequest] of [
        ['syntax error: unclosed selection', { body: JSON.stringify({ query: '{ me { tenantId }' }) }],
        ['syntax error: unterminated string', { body: JSON.stringify({ query: '{ payment(id: "abc) { id } }' }) }],
        ['syntax error: bad escape', { body: JSON.stringify({ query: '{ payment(id: "\\x") { id } }' }) }],
        ['syntax error: lone surrogate in document', { body: JSON.stringify({ query: '{ payment(id: "\uD800") { id } }' }) }],
        ['over the token limit', { body: JSON.stringify({ query: `{ ${'me { tenantId } '.repeat(400)}}` }) }],
        ['over the depth limit', { body: JSON.stringify({ query: '{ __schema { types { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } } }' }) }],
        ['100 aliases', { body: JSON.stringify({ query: `{ ${Array.from({ length: 100 }, (_, i) => `a${i}: me { tenantId }`).join(' ')} }` }) }],
        ['empty query', { body: JSON.stringify({ query: '' }) }],
        ['no query', { body: JSON.stringify({ variables: {} }) }],
        ['query is a number', { body: JSON.stringify({ query: 42 }) }],
        ['query is an object', { body: JSON.stringify({ query: { $gt: '' } }) }],
        ['variables is a string', { body: JSON.stringify({ query: me, variables: 'x' }) }],
        ['variables is an array', { body: JSON.stringify({ query: me, variables: [1] }) }],
        ['unknown operationName', { body: JSON.stringify({ query: me, operationName: 'Nope' }) }],
        ['two operations, no operationName', { body: JSON.stringify({ query: `query A ${me} query B ${me}` }) }],
        ['batched array', { body: JSON.stringify([{ query: me }, { query: me }]) }],
        ['body null', { body: 'null' }],
        ['body malformed JSON', { body: '{"query":' }],
        ['extensions persistedQuery unknown', { body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } }) }],
        ['text/plain body', { body: JSON.stringify({ query: me }), headers: { 'content-type': 'text/plain' } }],
        ['GET with a query string', { method: 'GET', path: `/graphql?query=${encodeURIComponent(me)}`, headers: { 'apollo-require-preflight': 'true' } }],
        ['GET mutation', { method: 'GET', path: `/graphql?query=${encodeURIComponent('mutation { deleteWebhook(id: "x") }')}`, headers: { 'apollo-require-preflight': 'true' } }],
        ['GET with no query', { method: 'GET', path: '/graphql', headers: { 'apollo-require-preflight': 'true' } }],
        ['introspection', { body: JSON.stringify({ query: '{ __schema { types { name } } }' }) }],
        ['unknown field', { body: JSON.stringify({ query: '{ nope }' }) }],
        ['undeclared variable', { body: JSON.stringify({ query: '{ payment(id: $nope) { id } }' }) }],
        ['subscription over HTTP', { body: JSON.stringify({ query: 'subscription { paymentUpdated { id } }' }) }],
      ] as [string, { method?: string; headers?: Record<string, string>; body?: string; path?: string }][]) {
        await sendGraphql('request', variant, '', {}, rawRequest);
      }
      console.log(`GraphQL: ${graphqlRequests} requests; total ${restRequests + graphqlRequests} requests in ${Math.round((Date.now() - started) / 1000)} s (database checks ${Math.round(fingerprintMs / 1000)} s)`);
      expect(graphqlRequests).toBeGreaterThan(0);
      expectNoFailures('GraphQL');
    }, FUZZ_TIMEOUT_MS);

    afterAll(() => {
      const table = [...statuses].map(([op, counts]) => `  ${op}: ${[...counts].sort(([a], [b]) => a - b).map(([st, n]) => `${st === -1 ? 'errors' : st}×${n}`).join(' ')}`);
      console.log(`Baselines:\n  ${baselines.join('\n  ')}\nStatuses per operation (GraphQL "errors" = answered with errors):\n${table.join('\n')}`);
    });

    /**
     * Prints the failures one transport's test found (method, path, variant, status, body), grouped
     * by operation and problem, and asserts there are none. Each test checks its own, so a test run
     * alone still checks something.
     */
    function expectNoFailures(transport: Failure['transport']): void {
      const mine = failures.filter((f) => f.transport === transport);
      const lines = mine.map((f, i) =>
        `#${i + 1} [${f.transport}] ${f.operation} | variant: ${f.variant} | ${f.problem}\n    request: ${f.request}\n    status: ${f.status} response: ${f.response}`);
      if (lines.length > 0) {
        const groups = new Map<string, number>();
        for (const f of mine) {
          const group = `${f.transport} ${f.operation}: ${f.problem.replace(/\(.*\)/, '(…)')}`;
          groups.set(group, (groups.get(group) ?? 0) + 1);
        }
        console.log(`${mine.length} failing requests; by operation and problem:\n${[...groups].map(([k, n]) => `  ${n} × ${k}`).join('\n')}\n\n${lines.join('\n')}`);
      }
      expect(lines).toEqual([]);
    }
  });
}
