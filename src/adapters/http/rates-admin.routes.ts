import { z } from 'zod';
import type { AdminApplication } from '../../core/admin/admin-application';
import { AUTH_ERRORS, DecimalString } from './common.schema';
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
}).meta({ id: 'RatePair' });

const RatesResponse = z.object({
  live: z.boolean().meta({ description: 'Whether live tenants are priced from live sources (RATES_SOURCES set); false: every tenant on the catalog rates' }),
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
          pairs: view.pairs.map((p) => ({
            ...p, refreshedAt: p.refreshedAt?.toISOString() ?? null, sources: p.sources.map((s) => ({ ...s, at: s.at.toISOString() })),
          })),
        });
      },
    }),
  ];
}
