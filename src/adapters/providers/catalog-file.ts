import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { BLOCKCHAINS, MONEY_OUT_COUNTRIES, PAYMENT_METHODS, type Catalog } from '../../core/catalog/catalog';
import { FIAT_CURRENCIES, STABLECOINS } from '../../core/shared/money';
import { ROUTING_STRATEGIES } from '../../core/routing/success-rate-scoring';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'a non-negative decimal string');
const positive = decimal.refine((v) => Number(v) > 0, 'must be greater than 0');
const methodOffer = z.strictObject({
  min: positive,
  max: positive,
  codes: z.array(z.string().min(1)).min(1),
  fee: decimal.optional(),
}).refine((o) => Number(o.min) <= Number(o.max), 'min must not exceed max');

const countryCode = z.enum([...MONEY_OUT_COUNTRIES, 'ET']);

/** Schema of the corridor catalog file (docs/decisions.md § Corridor catalog), checked at boot. */
export const catalogSchema = z.strictObject({
  defaultBlockchain: z.enum(BLOCKCHAINS),
  fees: z.strictObject({
    methods: z.strictObject(Object.fromEntries(PAYMENT_METHODS.map((m) => [m, decimal])) as Record<(typeof PAYMENT_METHODS)[number], typeof decimal>),
    networks: z.strictObject(Object.fromEntries(BLOCKCHAINS.map((b) => [b, decimal])) as Record<(typeof BLOCKCHAINS)[number], typeof decimal>),
    issuerFee: decimal,
  }),
  // Rates are stored as numeric(38,6): more places would be cut, and a locked quote would price differently.
  rates: z.partialRecord(z.enum(FIAT_CURRENCIES), z.partialRecord(z.enum(STABLECOINS), positive.refine((v) => !/\.\d{7,}$/.test(v), 'at most 6 decimal places'))),
  countries: z.partialRecord(countryCode, z.strictObject({
    name: z.string().min(1),
    currency: z.enum(FIAT_CURRENCIES),
    methods: z.partialRecord(z.enum(PAYMENT_METHODS), methodOffer),
    banks: z.array(z.strictObject({ bankCode: z.string().min(1), bankName: z.string().min(1) })),
    dialCode: z.string().regex(/^[1-9]\d{0,2}$/, 'an international dialling code of 1 to 3 digits, no +'),
  })),
  resolutionBankCodes: z.array(z.string().regex(/^\d{3,6}$/, 'a bank code of 3 to 6 digits')).min(1),
  paymentProcessors: z.array(z.string().regex(/^[A-Z0-9_]{2,32}$/)).min(1),
  acquirers: z.array(z.strictObject({
    key: z.string().regex(/^[A-Z0-9_]{2,32}$/),
    name: z.string().min(1),
    deeplinkTemplate: z.string().includes('{token}', { message: 'must contain {token}' }),
  })).min(1),
  // Live payout routing (docs/decisions.md § Payout providers: routing and failover).
  payoutRoutes: z.array(z.strictObject({
    country: countryCode,
    method: z.enum(PAYMENT_METHODS),
    codes: z.array(z.string().min(1)).min(1).optional(),
    providers: z.array(z.string().regex(/^[a-z][a-z0-9_]{1,31}$/, 'a provider name such as mpesa')).min(1)
      .refine((names) => new Set(names).size === names.length, 'a provider is listed twice'),
    // docs/decisions.md § Payout providers: routing on measured success; absent: DEFAULT_ROUTING_STRATEGY.
    strategy: z.enum(ROUTING_STRATEGIES).optional(),
  })).default([]),
  walletIssuers: z.array(z.strictObject({
    key: z.string().regex(/^[a-z][a-z0-9_]{1,31}$/, 'a lower-case key such as issuer_a'),
    country: z.string().min(1),
    currency: z.enum([...FIAT_CURRENCIES, ...STABLECOINS]),
  })).min(1),
}).superRefine((catalog, ctx) => {
  for (const [code, country] of Object.entries(catalog.countries)) {
    if (country && !catalog.rates[country.currency]) {
      ctx.addIssue({ code: 'custom', message: `country ${code} pays in ${country.currency}, which has no rate` });
    }
  }
}).superRefine((catalog, ctx) => {
  // Dialling codes are prefix-free (E.164), so a phone number maps to at most one country.
  const codes = Object.entries(catalog.countries).map(([country, c]) => [country, c?.dialCode ?? ''] as const);
  for (const [country, code] of codes) {
    const clash = codes.find(([other, o]) => other !== country && o.startsWith(code));
    if (clash) ctx.addIssue({ code: 'custom', message: `dialCode ${code} of ${country} is a prefix of ${clash[0]}'s ${clash[1]}` });
  }
  const duplicated = (values: string[]) => values.filter((v, i) => values.indexOf(v) !== i);
  for (const row of catalog.payoutRoutes) {
    const offer = catalog.countries[row.country]?.methods[row.method];
    if (!offer) {
      ctx.addIssue({ code: 'custom', message: `payoutRoutes: ${row.country} offers no ${row.method}` });
      continue;
    }
    for (const code of row.codes ?? []) {
      if (!offer.codes.includes(code)) ctx.addIssue({ code: 'custom', message: `payoutRoutes: ${code} is not a ${row.method} code of ${row.country}` });
    }
  }
  for (const key of duplicated(catalog.walletIssuers.map((i) => i.key))) ctx.addIssue({ code: 'custom', message: `wallet issuer ${key} is listed twice` });
  for (const code of duplicated(catalog.resolutionBankCodes)) ctx.addIssue({ code: 'custom', message: `resolution bank code ${code} is listed twice` });
});

/**
 * Reads and validates the corridor catalog (docs/decisions.md § Corridor catalog). Throws with every problem listed when
 * the file is missing or invalid: the service must not start on bad reference data.
 */
export function loadCatalog(path: string): Catalog {
  const parsed = catalogSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`Invalid corridor catalog ${path}:\n${z.prettifyError(parsed.error)}`);
  return parsed.data as Catalog;
}
