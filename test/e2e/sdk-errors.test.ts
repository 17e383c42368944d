import { randomUUID } from 'node:crypto';
import {
  ApiError, createPayoutClient, FxError, LegacyPayoutError, ResolutionError, unwrap, type AnyPayoutGatewayError, type PayoutClient,
} from '@payout-gateway/sdk';
import { startTestService, type TestService } from '../support/test-service';

/** Each of the four error shapes, answered by the service and turned into its SDK class (docs/decisions.md § Errors: shapes per route family). */
describe('SDK typed errors against the service', () => {
  let service: TestService;
  let client: PayoutClient;
  let broke: PayoutClient;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    client = createPayoutClient({ baseUrl: service.baseUrl, apiKey: (await service.newTenant()).apiKey });
    broke = createPayoutClient({ baseUrl: service.baseUrl, apiKey: (await service.newTenant('0')).apiKey });
  });
  afterAll(() => service.close());

  const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (e: AnyPayoutGatewayError) => e);

  it('shape A: ApiError with the code, status and Request-Id', async () => {
    const error = await refusal(broke.moneyOut({
      fiatAmount: 1500, sourceCurrency: 'USDC', destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA', paymentMethod: 'MOMO',
      accountName: 'Jane Wanjiku', accountNumber: '254712345678', paymentCode: 'MPESA', reference: `ref-${randomUUID()}`,
      refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', optionalIssuerFee: 'NO',
    }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ shape: 'A', status: 422, code: 'insufficient_balance', requestId: expect.any(String), idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const unauthorized = await refusal(createPayoutClient({ baseUrl: service.baseUrl, apiKey: 'sk_sandbox_unknownKey0000000000000000000001' })
      .api.GET('/v1/balances').then(unwrap));
    expect(unauthorized).toMatchObject({ shape: 'A', status: 401, code: 'unauthorized' });
  });

  it('shape B: LegacyPayoutError from POST /momo/payout', async () => {
    const body = {
      amount: 1500, destination: 'MoMo', accountName: 'Jane Wanjiku', accountNumber: '254712345678',
      reference: `legacy-${randomUUID()}`, currency: 'KES', country: 'KE', code: 'MPESA',
    } as const;
    unwrap(await client.api.POST('/momo/payout', { body }));
    const error = await refusal(client.api.POST('/momo/payout', { body: { ...body, amount: 1600 } }).then(unwrap));
    expect(error).toBeInstanceOf(LegacyPayoutError);
    expect(error).toMatchObject({ shape: 'B', status: 409, code: 'duplicate_reference', details: {} });
  });

  it('shape C: ResolutionError from POST /account/resolve', async () => {
    const error = await refusal(client.api.POST('/account/resolve', {
      body: { accountNumber: '0123450000', currency: 'NGN', paymentType: 'bank', bankCode: '058' },
    }).then(unwrap));
    expect(error).toBeInstanceOf(ResolutionError);
    expect(error).toMatchObject({ shape: 'C', status: 404, code: 'account_not_found', details: expect.any(String) });
  });

  it('shape D: FxError from GET /fx/convert', async () => {
    const error = await refusal(client.api.GET('/fx/convert', {
      params: { query: { amount: 10, sourceCurrency: 'ZAR', destinationCurrency: 'USDC', country: 'KE' } },
    }).then(unwrap));
    expect(error).toBeInstanceOf(FxError);
    expect(error).toMatchObject({ shape: 'D', status: 422, code: 'unsupported_corridor', requestId: expect.any(String) });
  });
});
