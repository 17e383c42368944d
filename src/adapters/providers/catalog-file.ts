import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { BLOCKCHAINS, MONEY_OUT_COUNTRIES, PAYMENT_METHODS, type Catalog } from '../../core/catalog/catalog';
import { FIAT_CURRENCIES, STABLECOINS } from '../../core/shared/money';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'a non-negative decimal string');
const positive = decimal.refine((v) => Number(v) > 0, 'must be greater than 0');
const methodOffer = z.strictObject({
  min: positive,
  max: positive,
  codes: z.array(z.string().min(1)).min(1),
  fee: decimal.optional(),
}).refine((o) => Number(o.min) <= Number(o.max), 'min must not exceed max');

const countryCode = z.enum([...MONEY_OUT_COUNTRIES, 'ET']);

/** Schema of the corridor catalog file (DESIGN.md 4), checked at boot. */
export const catalogSchema = z.strictObject({
  defaultBlockchain: z.enum(BLOCKCHAINS),
  fees: z.strictObject({
    methods: z.strictObject(Object.fromEntries(PAYMENT_METHODS.map((m) => [m, decimal])) as Record<(typeof PAYMENT_METHODS)[number], typeof decimal>),
    networks: z.strictObject(Object.fromEntries(BLOCKCHAINS.map((b) => [b, decimal])) as Record<(typeof BLOCKCHAINS)[number], typeof decimal>),
    issuerFee: decimal,
  }),
  rates: z.partialRecord(z.enum(FIAT_CURRENCIES), z.partialRecord(z.enum(STABLECOINS), positive)),
  countries: z.partialRecord(countryCode, z.strictObject({
    name: z.string().min(1),
    currency: z.enum(FIAT_CURRENCIES),
    methods: z.partialRecord(z.enum(PAYMENT_METHODS), methodOffer),
    banks: z.array(z.strictObject({ bankCode: z.string().min(1), bankName: z.string().min(1) })),
  })),
}).superRefine((catalog, ctx) => {
  for (const [code, country] of Object.entries(catalog.countries)) {
    if (country && !catalog.rates[country.currency]) {
      ctx.addIssue({ code: 'custom', message: `country ${code} pays in ${country.currency}, which has no rate` });
    }
  }
});

/**
 * Reads and validates the corridor catalog (DESIGN.md 4). Throws with every problem listed when
 * the file is missing or invalid: the service must not start on bad reference data.
 */
export function loadCatalog(path: string): Catalog {
  const parsed = catalogSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`Invalid corridor catalog ${path}:\n${z.prettifyError(parsed.error)}`);
  return parsed.data as Catalog;
}
