import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { TransferErrorCode } from '../../core/transfers/create-transfer-request';
import type { TransferRequestView } from '../../core/transfers/transfer-request';
import { TRANSFER_ERRORS, TransferRequestBody, TransferRequestParams } from '../contract/transfer-request.contract';
import type { GraphqlContext } from './graphql-context';
import { parseInput, valueOf, type GraphqlErrorCode } from './graphql-errors';
import { TransferRequestInput, TransferRequestLinkType, TransferRequestType } from './transfer-request.type';

/** REST's codes: validation in shape A there, the rest from its shape C map. */
const ERRORS: Record<TransferErrorCode, GraphqlErrorCode> = { validation_error: 'validation_error', ...TRANSFER_ERRORS };

/** Transfer requests (OpenAPI createTransferRequest): REST's use cases and rules. */
@Resolver()
export class TransferRequestResolver {
  /** Stores a transfer request and returns its deeplink. Errors: validation_error, duplicate_reference. */
  @Mutation(() => TransferRequestLinkType, { description: 'Create a transfer request (REST: POST /tx/createTransferRequest)' })
  async createTransferRequest(@Arg('input', () => TransferRequestInput) input: TransferRequestInput, @Ctx() ctx: GraphqlContext): Promise<TransferRequestLinkType> {
    const command = parseInput(TransferRequestBody, { ...input }, 'input');
    return valueOf(await ctx.app.createTransferRequest(ctx.tenantId, command), ERRORS);
  }

  /** One of the caller's transfer requests by reference. Errors: validation_error (empty or over 128 characters), not_found (also another tenant's reference). */
  @Query(() => TransferRequestType, { nullable: true, description: 'A transfer request of yours, by reference (REST: GET /tx/transferRequests/{reference}); null with a not_found error in errors when you have none' })
  async transferRequest(@Arg('reference', () => String) reference: string, @Ctx() ctx: GraphqlContext): Promise<TransferRequestView> {
    const params = parseInput(TransferRequestParams, { reference }, 'args');
    return valueOf(await ctx.app.getTransferRequest(ctx.tenantId, params.reference), ERRORS);
  }
}
