import { userInfo } from 'node:os';
import { readFileSync } from 'node:fs';
import { adminRoutes } from '../adapters/http/admin.routes';
import type { RouteSpec } from '../adapters/http/route';
import type { AdminApplication } from '../core/admin/admin-application';
import { randomBytes } from 'node:crypto';
import { operatorAdminRoutes } from '../adapters/http/operator-admin.routes';
import type { AuditActor } from '../core/operators/audit-log';
import type { OperatorApplication } from '../core/operators/operator-application';

/** Who the CLI acts as in the audit log: the local user, with the admin role (docs/decisions.md § Operators: audit log). */
export const cliActor = (): AuditActor => ({ kind: 'cli', id: `cli:${userInfo().username}`, role: 'admin' });

/** Flag values as parsed (strings; absent flags are undefined). */
export type FlagValues = Readonly<Record<string, string | undefined>>;

/** One flag of a command: `--name VALUE`, the route field it fills, and its help line. */
export interface CliFlag {
  readonly name: string;
  /**
   * Placeholder shown in help, e.g. `ten_...`, for a flag whose field is not an enum; an enum
   * field's placeholder is its accepted values, read from the route's schema (`acceptedValues`).
   */
  readonly value: string;
  /** The word that stands for null (reset or clear), e.g. `default` or `none`; accepted besides the field's own values. */
  readonly word?: string;
  readonly help: string;
  /** The REST field it fills (params, query or body), named in errors as the flag. */
  readonly field: string;
  /** Shown in brackets in the usage line; the route's schema decides what is really required. */
  readonly optional: boolean;
}

/** The route input a command builds from its flags, before the route's schemas check it. */
export interface RouteInput {
  readonly params?: Record<string, unknown>;
  readonly query?: Record<string, unknown>;
  readonly body?: Record<string, unknown>;
}

/** An operator command: the REST admin route whose zod schemas validate it, and what it runs. */
export interface CliCommand {
  readonly name: string;
  /** The admin route's operationId (its summary, params and body schema apply). */
  readonly operationId: string;
  readonly flags: readonly CliFlag[];
  /** Builds the route input from flags; words such as `default` and `none` become null here. */
  input(values: FlagValues): RouteInput;
  /** Runs the use case with input the route's schemas accepted; resolves with its Result. */
  run(admin: AdminApplication, input: { params: any; query: any; body: any }, operators: OperatorApplication): Promise<{ ok: true; value?: unknown } | { ok: false; code: string; message: string }>;
}

const flag = (name: string, value: string, field: string, help: string, word?: string): CliFlag => ({
  name, value, field, help, optional: !help.endsWith('(required)'), ...(word ? { word } : {}),
});
const TENANT = flag('tenant', 'ten_...', 'tenantId', 'The tenant (required)');
/** Drops absent fields, so "not given" never reaches a strict schema as an explicit undefined. */
const given = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
/** `word` means null (reset or clear); digits become a number; anything else is left for the schema to refuse. */
const numberOr = (value: string | undefined, word: string) => (value === word ? null : value !== undefined && /^\d+$/.test(value) ? Number(value) : value);
const stringOr = (value: string | undefined, word: string) => (value === word ? null : value);

/**
 * The operator commands (README "Operations"). Each is checked by the same zod schemas as its REST
 * admin route (docs/decisions.md § Authentication, tenants and keys), then runs the same use case.
 */
export const CLI_COMMANDS: readonly CliCommand[] = [
  {
    name: 'tenants:list', operationId: 'listTenants', flags: [],
    input: () => ({}),
    run: async (admin) => ({ ok: true, value: await admin.listTenants() }),
  },
  {
    name: 'tenants:create', operationId: 'createTenant',
    flags: [flag('name', 'text', 'name', 'Display name (required)'), flag('environment', 'ENVIRONMENT', 'environment', 'Default sandbox')],
    input: (v) => ({ body: given({ name: v.name, environment: v.environment }) }),
    run: (admin, { body }) => admin.createTenant(body),
  },
  {
    name: 'tenants:update', operationId: 'updateTenant',
    flags: [
      TENANT, flag('name', 'text', 'name', 'Display name'),
      flag('rate-limit', 'N|default', 'rateLimitPerMinute', 'Requests per minute per key; default: the service setting', 'default'),
      flag('webhook-limit', 'N|default', 'webhookLimit', 'Webhook registrations allowed; default: the service setting', 'default'),
      flag('refund-address', 'ADDRESS|none', 'payoutRefundAddress', 'Refund wallet of legacy payouts; none refuses them', 'none'),
      flag('blockchain', 'CHAIN', 'payoutBlockchain', 'Chain of legacy payouts'),
      flag('source-currency', 'STABLECOIN', 'payoutSourceCurrency', 'Stablecoin funding legacy payouts'),
    ],
    input: (v) => ({
      params: given({ tenantId: v.tenant }),
      body: given({
        name: v.name, rateLimitPerMinute: numberOr(v['rate-limit'], 'default'), webhookLimit: numberOr(v['webhook-limit'], 'default'),
        payoutRefundAddress: stringOr(v['refund-address'], 'none'), payoutBlockchain: v.blockchain, payoutSourceCurrency: v['source-currency'],
      }),
    }),
    run: (admin, { params, body }) => admin.updateTenant(params.tenantId, body),
  },
  {
    name: 'keys:list', operationId: 'listApiKeys', flags: [TENANT],
    input: (v) => ({ params: given({ tenantId: v.tenant }) }),
    run: (admin, { params }) => admin.listApiKeys(params.tenantId),
  },
  {
    name: 'keys:create', operationId: 'issueApiKey',
    flags: [
      TENANT, flag('scope', 'SCOPE', 'scope', 'Default issuer; admin is refused: admin keys belong to no tenant (admin-keys:create)'),
      flag('label', 'text', 'label', 'A note shown in key lists'),
    ],
    input: (v) => ({ params: given({ tenantId: v.tenant }), body: given({ scope: v.scope ?? 'issuer', label: v.label }) }),
    run: (admin, { params, body }) => admin.issueApiKey(params.tenantId, body),
  },
  {
    name: 'admin-keys:create', operationId: 'issueAdminKey', flags: [flag('label', 'text', 'label', 'A note shown in key lists')],
    input: (v) => ({ body: given({ label: v.label }) }),
    run: async (admin, { body }) => ({ ok: true, value: await admin.issueAdminKey(body) }),
  },
  {
    name: 'admin-keys:list', operationId: 'listAdminKeys', flags: [],
    input: () => ({}),
    run: async (admin) => ({ ok: true, value: await admin.listAdminKeys() }),
  },
  {
    name: 'keys:revoke', operationId: 'revokeApiKey', flags: [flag('key', 'key_...', 'keyId', 'The key id (required)')],
    input: (v) => ({ params: given({ keyId: v.key }) }),
    run: (admin, { params }) => admin.revokeApiKey(params.keyId),
  },
  {
    name: 'deposits:create', operationId: 'recordDeposit',
    flags: [
      TENANT, flag('currency', 'STABLECOIN', 'currency', 'Stablecoin (required)'), flag('amount', '1000', 'amount', 'Decimal amount (required)'),
      flag('blockchain', 'CHAIN', 'blockchain', 'Chain of the transaction (required)'),
      flag('tx-hash', 'HASH', 'txHash', 'BSC: 0x and 64 hex digits; SOLANA: the base58 signature (required)'),
      flag('index', 'N', 'index', "The transfer's log index (BSC) or instruction position (SOLANA); default 0"),
    ],
    input: (v) => ({
      params: given({ tenantId: v.tenant }),
      body: given({ currency: v.currency, amount: v.amount, blockchain: v.blockchain, txHash: v['tx-hash'], index: numberOr(v.index, '') }),
    }),
    run: (admin, { params, body }) => admin.recordDeposit(params.tenantId, body),
  },
  {
    name: 'reconciliation:report', operationId: 'reconciliationReport',
    flags: [
      flag('provider', 'PROVIDER', 'provider', 'The provider (required)'),
      flag('from', '2026-11-01T00:00:00Z', 'from', 'Window start, inclusive (required)'),
      flag('to', '2026-11-02T00:00:00Z', 'to', 'Window end, exclusive (required)'),
    ],
    input: (v) => ({ query: given({ provider: v.provider, from: v.from, to: v.to }) }),
    run: (admin, { query }) => admin.reconciliationReport(query.provider, { from: new Date(query.from), to: new Date(query.to) }),
  },
  {
    name: 'refunds:list', operationId: 'listRefunds',
    flags: [flag('status', 'STATUS', 'status', 'Only refunds in this status; all when absent'), flag('limit', 'N', 'limit', 'At most N, oldest first (default 100)')],
    input: (v) => ({ query: given({ status: v.status, limit: v.limit }) }),
    run: async (admin, { query }) => ({ ok: true, value: await admin.listRefunds(query.status, query.limit) }),
  },
  {
    name: 'refunds:mark-sent', operationId: 'markRefundSent',
    flags: [
      flag('refund', 'rfd_...', 'refundId', 'The refund (required)'),
      flag('tx-hash', 'HASH', 'txHash', "The onchain transaction on the refund's chain: BSC 0x and 64 hex digits; SOLANA the base58 signature (required)"),
    ],
    input: (v) => ({ params: given({ refundId: v.refund }), body: given({ txHash: v['tx-hash'] }) }),
    // The CLI has no admin key: the operator's login is who recorded it (the audit record).
    run: (admin, { params, body }) => admin.markRefundSent(params.refundId, body.txHash, `cli:${userInfo().username}`),
  },
  {
    name: 'refunds:retry', operationId: 'retryRefund',
    flags: [flag('refund', 'rfd_...', 'refundId', 'The failed refund (required)')],
    input: (v) => ({ params: given({ refundId: v.refund }) }),
    // As for mark-sent: the operator's login is who retried it (the audit record).
    run: (admin, { params }) => admin.retryRefund(params.refundId, `cli:${userInfo().username}`),
  },
  {
    name: 'screening:load', operationId: 'loadScreeningList',
    flags: [
      flag('source', 'SOURCE', 'source', 'Which list the file is (required)'),
      flag('file', 'PATH', 'document', 'The list file as downloaded: SDN.XML or consolidated.xml, readable (required)'),
    ],
    input: (v) => ({ body: given({ source: v.source, document: readText(v.file) }) }),
    run: (admin, { body }) => (admin.screening
      ? admin.screening.loadList(body.source, body.document)
      : Promise.resolve({ ok: false as const, code: 'invalid_state', message: 'sanctions screening is not configured' })),
  },
  {
    name: 'operators:create', operationId: 'createOperator',
    flags: [flag('email', 'address', 'email', 'E-mail address (required)'), flag('role', 'ROLE', 'role', 'viewer, operator or admin (required)')],
    // A generated password (24 random bytes, base64url), printed once with the TOTP secret.
    input: (v) => ({ body: given({ email: v.email, role: v.role, password: randomBytes(24).toString('base64url') }) }),
    run: async (_admin, { body }, operators) => {
      const created = await operators.createOperator(body, cliActor(), null);
      return created.ok ? { ok: true, value: { ...created.value, password: body.password } } : created;
    },
  },
  {
    name: 'operators:list', operationId: 'listOperators', flags: [],
    input: () => ({}),
    run: async (_admin, _input, operators) => ({ ok: true, value: await operators.listOperators() }),
  },
  {
    name: 'operators:update', operationId: 'updateOperator',
    flags: [
      flag('operator', 'opr_...', 'operatorId', 'The operator (required)'), flag('role', 'ROLE', 'role', 'The new role'),
      flag('status', 'STATUS', 'status', 'active (enable) or disabled (disable: ends every session)'),
    ],
    input: (v) => ({ params: given({ operatorId: v.operator }), body: given({ role: v.role, status: v.status }) }),
    run: (_admin, { params, body }, operators) => operators.updateOperator(params.operatorId, body, cliActor(), null),
  },
  {
    name: 'operators:sign-out-everywhere', operationId: 'endOperatorSessions',
    flags: [flag('operator', 'opr_...', 'operatorId', 'The operator (required)')],
    input: (v) => ({ params: given({ operatorId: v.operator }) }),
    run: async (_admin, { params }, operators) => ({ ok: true, value: { sessionsEnded: await operators.signOutEverywhere(params.operatorId, cliActor(), null) } }),
  },
  {
    name: 'audit-log:list', operationId: 'listAuditLog',
    flags: [
      flag('actor', 'id', 'actorId', 'Only this actor (opr_..., key_..., cli:<user>)'), flag('action', 'name', 'action', 'Only this action, e.g. retryRefund'),
      flag('target-type', 'type', 'targetType', 'Only this target type, e.g. refund'), flag('target', 'id', 'targetId', 'Only this target'),
      flag('limit', 'N', 'limit', 'Rows, newest first (default 50)'),
    ],
    input: (v) => ({ query: given({ actorId: v.actor, action: v.action, targetType: v['target-type'], targetId: v.target, limit: v.limit }) }),
    run: async (_admin, { query }, operators) => ({
      ok: true,
      value: await operators.listAuditLog(given({ actorId: query.actorId, action: query.action, targetType: query.targetType, targetId: query.targetId }), undefined, query.limit),
    }),
  },
];

/** A file's text, or undefined when no path is given or it cannot be read (then the flag is reported as required). */
function readText(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The admin routes by operationId, for their schemas and summaries only (no handler is ever called). */
const NO_CALLS = {
  get: () => {
    throw new Error('the CLI reads the admin routes for their schemas only');
  },
};
const ROUTES: ReadonlyMap<string, RouteSpec<any, any, any>> = new Map(
  [...adminRoutes(new Proxy({} as AdminApplication, NO_CALLS)), ...operatorAdminRoutes(new Proxy({} as OperatorApplication, NO_CALLS), () => Promise.reject(new Error('unused')))]
    .map((route) => [route.operationId, route]),
);

/** The REST admin route behind `command`. */
export function routeOf(command: CliCommand): RouteSpec<any, any, any> {
  const route = ROUTES.get(command.operationId);
  if (!route) throw new Error(`no admin route ${command.operationId}`);
  return route;
}

/**
 * Checks `values` with the route's params, query and body schemas; on failure, one line per problem naming
 * the flag (`--rate-limit: Too big: expected number to be <=100000`). Pure apart from reading the table.
 */
export function validateFlags(command: CliCommand, values: FlagValues): { ok: true; input: { params: any; query: any; body: any } } | { ok: false; problems: string[] } {
  const route = routeOf(command);
  const raw = command.input(values);
  const problems: string[] = [];
  const parsed: Record<'params' | 'query' | 'body', unknown> = { params: undefined, query: undefined, body: undefined };
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = route[part];
    if (!schema) continue;
    const result = schema.safeParse(raw[part] ?? {});
    if (result.success) parsed[part] = result.data;
    else {
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? '');
        const owner = command.flags.find((f) => f.field === field);
        const given = raw[part]?.[field];
        if (!owner) problems.push(`${field || 'input'}: ${issue.message}`);
        else if (given === undefined) problems.push(`--${owner.name} is required`);
        // The accepted values exactly as the flag takes them, never zod's quoted list.
        else if (issue.code === 'invalid_value') problems.push(`--${owner.name}: ${JSON.stringify(given)} is not one of: ${placeholderOf(command, owner)}`);
        else problems.push(`--${owner.name}: ${issue.message}${acceptedValues(command, owner) ? ` (accepted: ${placeholderOf(command, owner)})` : ''}`);
      }
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, input: parsed as { params: any; query: any; body: any } };
}

/**
 * What a flag accepts, read from the route's schema so help and errors say exactly what the
 * schema takes: an enum field's values (case included), a bounded number field's range as
 * `min..max`, then the flag's word for null. Undefined for any other field (its placeholder stands).
 */
export function acceptedValues(command: CliCommand, flag: CliFlag): readonly string[] | undefined {
  const route = routeOf(command);
  for (const part of ['params', 'query', 'body'] as const) {
    const values = valuesOf((route[part] as { shape?: Record<string, unknown> } | undefined)?.shape?.[flag.field]);
    if (values) return flag.word ? [...values, flag.word] : values;
  }
  return undefined;
}

/** A flag's placeholder in help and errors: what it accepts joined by `|`, or its own placeholder. */
function placeholderOf(command: CliCommand, flag: CliFlag): string {
  return acceptedValues(command, flag)?.join('|') ?? flag.value;
}

/** A zod field's enum options or bounded integer range, through the wrappers a field may have (optional, nullable, default...). */
function valuesOf(schema: unknown): readonly string[] | undefined {
  let current = schema as { _zod?: { def?: Record<string, any> }; minValue?: number | null; maxValue?: number | null } | undefined;
  for (let depth = 0; current?._zod?.def && depth < 8; depth++) {
    const def = current._zod.def;
    if (def.type === 'enum') return Object.values(def.entries as Record<string, string>);
    if (def.type === 'number') {
      const { minValue: min, maxValue: max } = current;
      return Number.isSafeInteger(min) && Number.isSafeInteger(max) ? [`${min}..${max}`] : undefined;
    }
    if (!['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch'].includes(def.type)) return undefined;
    current = def.innerType;
  }
  return undefined;
}

/** Help for one command: usage line, what it does and the route it mirrors, and its flags with their accepted values. */
export function commandHelp(command: CliCommand): string {
  const route = routeOf(command);
  const shown = command.flags.map((f) => ({ ...f, value: placeholderOf(command, f) }));
  const width = Math.max(6, ...shown.map((f) => f.name.length + f.value.length + 3));
  return [
    `Usage: npm run cli -- ${command.name}${shown.map((f) => (f.optional ? ` [--${f.name} ${f.value}]` : ` --${f.name} ${f.value}`)).join('')}`,
    '',
    `${route.summary}. Same validation as ${route.method.toUpperCase()} ${route.path}.`,
    '',
    ...(shown.length > 0 ? shown.map((f) => `  ${`--${f.name} ${f.value}`.padEnd(width)}  ${f.help}`) : ['  (no flags)']),
    `  ${'--help'.padEnd(width)}  This text`,
    '',
  ].join('\n');
}

/**
 * The CLI's help (README "Operations"): what it is, how to call it, and every command with what it
 * does (its REST admin route's summary).
 */
export function cliHelp(): string {
  const width = Math.max(...CLI_COMMANDS.map((c) => c.name.length));
  return [
    'Operator CLI. Uses DATABASE_URL, else the embedded database under DATA_DIR.',
    'Flags are checked by the same schemas as the REST admin routes; bad input exits 2 and changes nothing.',
    '',
    'Usage: npm run cli -- <command> [--flag value ...]',
    '       npm run cli -- <command> --help     (or: npm run cli -- help <command>) the command\'s flags and accepted values',
    '',
    'Commands:',
    ...CLI_COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${routeOf(c).summary}`),
    '',
    'Exit codes: 0 done (the result as JSON on stdout) or help; 1 refused or failed; 2 bad input.',
    '',
  ].join('\n');
}

/** The refusal of an unknown command: the name given and every command, exactly as typed. */
export function unknownCommand(name: string): string {
  return `unknown command ${name}; commands: ${CLI_COMMANDS.map((c) => c.name).join(', ')}`;
}

/** The refusal of a flag `command` does not take: the flags it does take, and the one meant when a single flag starts with what was typed. */
export function unknownFlag(command: CliCommand, given: string): string {
  const accepted = [...command.flags.map((f) => `--${f.name}`), '--help'];
  const near = accepted.filter((f) => f.startsWith(given));
  return `${command.name}: unknown flag ${given}${near.length === 1 ? ` (did you mean ${near[0]}?)` : ''}; accepted: ${accepted.join(', ')}`;
}
