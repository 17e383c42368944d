import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { LegacyPayoutErrorCode } from '../../core/payments/legacy-payout';
import { LEGACY_ERRORS, LegacyPayoutBody } from '../contract/legacy-payout.contract';
import type { GraphqlContext } from './graphql-context';
import { parseInput, valueOf, type GraphqlErrorCode } from './graphql-errors';
import { LegacyPayoutInput, LegacyPayoutResultType } from './legacy-payout.type';

/** REST's codes: validation in shape A there, refusals from its shape B map. */
const ERRORS: Record<LegacyPayoutErrorCode, GraphqlErrorCode> = { validation_error: 'validation_error', ...LEGACY_ERRORS };

/** The legacy payout (OpenAPI legacyPayout): REST's use case, deduplicated by reference (docs/decisions.md § Idempotency). */
@Resolver()
export class LegacyPayoutResolver {
  /**
   * Creates a payment funded with the tenant's payout settings. Errors: validation_error,
   * tenant_not_configured, unsupported_corridor, insufficient_balance, duplicate_reference (the
   * reference with other input), payout_in_progress, provider_unavailable (also: a live tenant,
   * until real rails exist). Its input takes no quoteId.
   */
  @Mutation(() => LegacyPayoutResultType, {
    description: 'Legacy payout (REST: POST /momo/payout), funded with your payout settings; the payment shows in payment(id)',
    deprecationReason: 'Use createMoneyOut: it takes an idempotency key, a quote and the stablecoin leg, and answers the payment itself.',
  })
  async legacyPayout(@Arg('input', () => LegacyPayoutInput, { description: 'The payout, as REST POST /momo/payout takes it' }) input: LegacyPayoutInput, @Ctx() ctx: GraphqlContext): Promise<LegacyPayoutResultType> {
    const command = parseInput(LegacyPayoutBody, { ...input }, 'input');
    const created = valueOf(await ctx.app.createLegacyPayout(ctx.tenantId, command), ERRORS);
    return { success: true, ...created };
  }
}
