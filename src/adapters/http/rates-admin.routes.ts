import { z } from 'zod';
import type { AdminApplication } from '../../core/admin/admin-application';
import type { ShapeACode } from '../contract/error-codes';
import { AUTH_ERRORS, DecimalString, ErrorA } from './common.schema';
import { fieldsOf, sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

const SourceView = z.object({
  source: z.string().meta({ description: 'Rate source (docs/providers.md § Rates)', example: 'luno' }),
  rate: DecimalString.meta({ description: 'Units of fiat per 1 stablecoin, as the source published it', example: '18.30' }),
  at: z.iso.datetime().meta({ description: "The source's own timestamp of the rate", example: '2026-11-27T00:31:05.000Z' }),
  used: z.boolean().meta({ description: 'Whether the rate entered the median of the last refresh' }),
  reason: z.enum(['stale', 'out_of_band']).nullable().meta({ description: 'Why it was left out; null when used, or when the pair was short of its quorum', example: null }),
  deviationPercent: z.string().nullable().meta({ description: 'For out_of_band: signed distance from the median, in percent', example: null }),
}).meta({ id: 'RateSourceView' });

const PairView = z.object({
  pair: z.string().meta({ description: 'Stablecoin/fiat', example: 'USDC/ZAR' }),
  status: z.enum(['awaiting', 'live', 'suspended', 'unavailable']).meta({ description: 'live: priced; suspended: a jump awaits confirmation; unavailable: quorum lost; awaiting: never refreshed' }),
  mid: DecimalString.nullable().meta({ description: 'The mid rate priced now, before the spread; null unless live', example: '18.1' }),
  reference: DecimalString.nullable().meta({ description: 'While suspended or unavailable: the last mid priced', example: null }),
  candidate: DecimalString.nullable().meta({ description: 'While suspended: the level awaiting confirmation', example: null }),
  refreshedAt: z.iso.datetime().nullable().meta({ description: 'When this replica last refreshed the pair', example: '2026-11-27T00:31:06.120Z' }),
  sources: z.array(SourceView).meta({ description: 'Each source of the pair at the last refresh, by name' }),
  pin: z.object({
    id: z.string().meta({ description: 'Pin id (pin_ + ULID)', example: 'pin_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
    rate: DecimalString.meta({ description: 'The pinned mid rate', example: '18.2' }),
    reason: z.string().meta({ description: "The operator's reason", example: 'VALR and Luno halted; rate from the treasury desk' }),
    createdBy: z.string().meta({ description: 'The admin key that pinned it', example: 'key_01JD4YB2C4E6G8J0L2N4Q6S8U0' }),
    expiresAt: z.iso.datetime().meta({ description: 'When the pin lapses and the sources price again', example: '2026-11-27T01:31:06.120Z' }),
  }).nullable().meta({ description: "The operator's pin in force, which wins over the sources until it expires; null when none" }),
}).meta({ id: 'RatePair' });

const PinBody = z.strictObject({
  fiat: z.string().max(3).meta({ description: 'Fiat currency of the pair', example: 'ZAR' }),
  stablecoin: z.string().max(4).meta({ description: 'USDC or USDT', example: 'USDC' }),
  rate: z.string().max(24).meta({ description: 'Mid rate, units of fiat per 1 stablecoin, a positive decimal string (the spread still applies)', example: '18.2' }),
  expiresInMinutes: z.number().int().meta({ description: 'Minutes until the pin lapses, 1 to 1440', example: 60 }),
  reason: z.string().max(200).meta({ description: 'Why, for the audit record (1 to 200 characters)', example: 'VALR and Luno halted; rate from the treasury desk' }),
}).meta({ id: 'RatePinInput' });

const PinView = z.object({
  id: z.string().meta({ description: 'Pin id (pin_ + ULID)', example: 'pin_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
  pair: z.string().meta({ description: 'Stablecoin/fiat', example: 'USDC/ZAR' }),
  rate: DecimalString.meta({ description: 'The pinned mid rate', example: '18.2' }),
  reason: z.string().meta({ description: "The operator's reason", example: 'VALR and Luno halted; rate from the treasury desk' }),
  createdBy: z.string().meta({ description: 'The admin key that pinned it', example: 'key_01JD4YB2C4E6G8J0L2N4Q6S8U0' }),
  createdAt: z.iso.datetime().meta({ description: 'When it was pinned', example: '2026-11-27T00:31:06.120Z' }),
  expiresAt: z.iso.datetime().meta({ description: 'When it lapses', example: '2026-11-27T01:31:06.120Z' }),
}).meta({ id: 'RatePin' });

const PIN_ERRORS: Record<'validation_error' | 'invalid_state', ShapeACode> = { validation_error: 'validation_error', invalid_state: 'invalid_state' };

const SpreadTableView = z.object({
  default: z.string().meta({ description: 'Percent under the mid where no corridor entry applies', example: '0' }),
  byCorridor: z.record(z.string(), z.string()).meta({ description: 'Percent per `<country>:<method>` or `*:<method>`', example: { 'ZA:BANK': '0.5' } }),
}).meta({ id: 'RateSpreads' });

const SpreadBody = z.strictObject({
  country: z.string().max(2).meta({ description: 'Payout country code, or * for any', example: 'KE' }),
  paymentMethod: z.string().max(10).meta({ description: 'BANK, MOMO, PAYBILL, TILL, or * (with country *: the default)', example: 'MOMO' }),
  percent: z.string().max(8).meta({ description: 'Percent under the mid rate, 0 to 10, at most 4 places', example: '0.5' }),
  reason: z.string().max(200).meta({ description: 'Why, for the audit record (1 to 200 characters)', example: 'M-Pesa float costs up this quarter' }),
}).meta({ id: 'RateSpreadInput' });

const SpreadChangeView = z.object({
  id: z.string().meta({ description: 'Change id (spr_ + ULID)', example: 'spr_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
  corridor: z.string().meta({ description: '`<country>:<method>`, `*:<method>` or `*:*`', example: 'KE:MOMO' }),
  percent: z.string().meta({ description: 'Percent under the mid', example: '0.5' }),
  reason: z.string().meta({ description: "The operator's reason", example: 'M-Pesa float costs up this quarter' }),
  createdBy: z.string().meta({ description: 'The admin key that set it', example: 'key_01JD4YB2C4E6G8J0L2N4Q6S8U0' }),
  createdAt: z.iso.datetime().meta({ description: 'When it was set', example: '2026-11-27T00:31:06.120Z' }),
}).meta({ id: 'RateSpreadChange' });

const RatesResponse = z.object({
  live: z.boolean().meta({ description: 'Whether live tenants are priced from live sources (RATES_SOURCES set); false: every tenant on the catalog rates' }),
  spreads: SpreadTableView.nullable().meta({ description: 'The spreads in force for live tenants; null without live sources' }),
  pairs: z.array(PairView).meta({ description: 'Every pair the catalog quotes, live or not' }),
}).meta({ id: 'Rates' });

/** GET /v1/admin/rates (docs/decisions.md § FX quotes: live rates): the rate book of the replica that answers. */
export function rateAdminRoutes(admin: AdminApplication): RouteSpec<any, any, any>[] {
  return [
    defineRoute({
      tags: ['Admin'], auth: 'admin', method: 'get', path: '/v1/admin/rates', operationId: 'listRates',
      summary: 'Every live rate pair with its state, mid rate and sources',
      description: 'Platform admin key. The in-memory rate book of the replica that answers (each replica refreshes its own): per pair its state, '
        + 'the mid priced before the spread, and each source\'s rate and own timestamp, used or left out (stale, out of band).',
      responses: { '200': { description: 'The rate book', schema: RatesResponse }, ...AUTH_ERRORS },
      handler: async (_req, res) => {
        const view = admin.listRates();
        res.json({
          live: view.live,
          spreads: view.spreads,
          pairs: view.pairs.map((p) => ({
            ...p, refreshedAt: p.refreshedAt?.toISOString() ?? null, sources: p.sources.map((s) => ({ ...s, at: s.at.toISOString() })),
            pin: p.pin ? { ...p.pin, expiresAt: p.pin.expiresAt.toISOString() } : null,
          })),
        });
      },
    }),
    defineRoute<z.infer<typeof PinBody>>({
      tags: ['Admin'], auth: 'admin', method: 'post', path: '/v1/admin/rates/pins', operationId: 'pinRate',
      summary: 'Pin a manual mid rate on a live pair until it expires (incidents)',
      description: 'Platform admin key. The pinned mid wins over the sources for live tenants until it expires (the corridor spread still applies); '
        + 'stored with the admin key that pinned it, never changed (the audit record). The replica that answers applies it at once, the others at their next refresh.',
      body: PinBody,
      responses: {
        '201': { description: 'The pin', schema: PinView }, ...AUTH_ERRORS,
        '409': { description: 'invalid_state: no live rate source is configured (RATES_SOURCES)', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await admin.pinRate(req.body, req.principal?.keyId ?? 'unknown');
        if (!result.ok) return sendShapeA(res, PIN_ERRORS[result.code], result.message, fieldsOf(result, req));
        const pin = result.value;
        return void res.status(201).json({
          id: pin.id, pair: `${pin.stablecoin}/${pin.fiat}`, rate: pin.rate, reason: pin.reason, createdBy: pin.createdBy,
          createdAt: pin.createdAt.toISOString(), expiresAt: pin.expiresAt.toISOString(),
        });
      },
    }),
    defineRoute<z.infer<typeof SpreadBody>>({
      tags: ['Admin'], auth: 'admin', method: 'post', path: '/v1/admin/rates/spreads', operationId: 'setRateSpread',
      summary: 'Set the spread of a corridor and payment method for live tenants (audited)',
      description: 'Platform admin key. The spread under the mid rate live tenants are priced at, for one corridor and method (`*` for any country; '
        + '`*`/`*` for the default), over RATES_SPREADS. Each change is stored with the admin key that made it, never changed (the audit record); '
        + 'the newest per corridor is in force: at once on the replica that answers, on the others at their next refresh.',
      body: SpreadBody,
      responses: { '201': { description: 'The change', schema: SpreadChangeView }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await admin.setSpread(req.body, req.principal?.keyId ?? 'unknown');
        if (!result.ok) return sendShapeA(res, PIN_ERRORS[result.code], result.message, fieldsOf(result, req));
        res.status(201).json({ ...result.value, createdAt: result.value.createdAt.toISOString() });
      },
    }),
  ];
}
