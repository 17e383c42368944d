import { randomUUID } from 'node:crypto';
import { solanaTxHash } from './tx-hashes';
import type { TestService } from './test-service';

export const REFUND_ADDRESS = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

/** A live tenant made as an operator would: admin API, issuer key, a deposit of `usdc` USDC, a refund address. */
export async function liveTenant(service: TestService, adminKey: string, usdc = 100_000): Promise<{ tenantId: string; apiKey: string }> {
  const call = (method: string, path: string, body: unknown) => service.call(method, path, { apiKey: adminKey, body });
  const tenantId = (await call('POST', '/v1/admin/tenants', { name: `Live ${randomUUID()}`, environment: 'live' })).body.tenantId;
  const apiKey = (await call('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { scope: 'issuer' })).body.apiKey;
  const deposit = await call('POST', `/v1/admin/tenants/${tenantId}/deposits`, { currency: 'USDC', amount: usdc, blockchain: 'SOLANA', txHash: solanaTxHash() });
  if (deposit.status !== 201) throw new Error(`deposit refused: ${deposit.text}`);
  await call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutRefundAddress: REFUND_ADDRESS });
  return { tenantId, apiKey };
}

/** A Nigerian bank money-out to account `...<suffix>` at GTBank (058), the Paystack simulator's fault digits. */
export function ngBankBody(suffix: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    fiatAmount: '15000', sourceCurrency: 'USDC', destinationCurrency: 'NGN', country: 'NG', blockchain: 'SOLANA', paymentMethod: 'BANK',
    accountName: 'Adaeze Okafor', accountNumber: `01234567${suffix.padStart(2, '0')}`, paymentCode: '058', reference: `ref-${randomUUID()}`,
    refundAddress: REFUND_ADDRESS, optionalIssuerFee: 'NO', ...overrides,
  };
}

/** Creates a money-out; throws unless it is 201. Returns the payment id. */
export async function moneyOut(service: TestService, apiKey: string, body: Record<string, unknown>): Promise<string> {
  const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': randomUUID() } });
  if (res.status !== 201) throw new Error(`money-out refused: ${res.status} ${res.text}`);
  return res.body.id as string;
}
