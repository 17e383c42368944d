/**
 * The walk-through of README "Using the SDK", as code: the README shows this file from the line
 * after this comment, and test/e2e/sdk-walkthrough.test.ts runs it against the service.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, createPayoutClient, FINAL_PAYMENT_STATUSES, unwrap, verifyWebhook, webhookIdOf, type WebhookEvent, type WebhookHeaders } from '@payout-gateway/sdk';

/** Pays 1,500 KES to an M-PESA wallet at a quoted rate and follows it to a final status. */
export async function payOut(baseUrl: string, apiKey: string, webhookUrl: string, log: (line: string) => void = console.log) {
  const client = createPayoutClient({ baseUrl, apiKey }); // retries 409 in-use, 429 and 503 by itself

  // 1. Is there a mobile-money wallet behind the number, and which operators serve it?
  const wallet = unwrap(await client.api.POST('/momo/resolve', { body: { type: 'momo', phoneNumber: '254712345678' } }));
  if (!wallet.valid || !wallet.operators.includes('MPESA')) throw new Error(`cannot pay 254712345678 by M-PESA: ${wallet.message}`);

  // 2. A quote: its quoteId locks the rate for 60 s, for ONE money-out of this amount, pair and method.
  const quote = unwrap(await client.api.GET('/fx/convert', {
    params: { query: { amount: '1500', sourceCurrency: 'KES', destinationCurrency: 'USDC', paymentMethod: 'MOMO' } },
  }));
  log(`1500 KES costs ${quote.convertedAmount} USDC at ${quote.exchangeRate} KES/USDC`);

  // 3. Where events go; the secret is in this answer only: store it.
  const hook = unwrap(await client.api.POST('/v1/webhooks/register', { body: { url: webhookUrl } }));

  // 4. The payout. moneyOut sends a new Idempotency-Key (kept across its own retries) and
  //    returns it: to retry after a lost answer, pass it again and get the same payment.
  const order = {
    fiatAmount: '1500', sourceCurrency: 'USDC', destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA',
    paymentMethod: 'MOMO', accountName: 'Jane Wanjiku', accountNumber: wallet.phoneNumber, paymentCode: 'MPESA',
    reference: `order-${randomUUID()}`, refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    optionalIssuerFee: 'NO', quoteId: quote.quoteId,
  } as const;
  const { payment, idempotencyKey } = await client.moneyOut(order);
  const again = await client.moneyOut(order, { idempotencyKey });
  log(`${payment.id} ${payment.status}; the same key again: ${again.payment.id}, replayed ${again.replayed}`);

  // 5. Errors are typed per shape; /v1 errors are ApiError, and `code` is the value to branch on.
  try {
    await client.moneyOut({ ...order, fiatAmount: '1600' }, { idempotencyKey });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'idempotency_key_reused')) throw error;
    log(`another body under that key: ${error.status} ${error.code} (Request-Id ${error.requestId})`);
  }

  // 6. Watch the payout move until a final status (webhooks tell the same, see onWebhook).
  const statuses: string[] = [];
  for await (const current of client.watchPayment(payment.id)) statuses.push(current.status);
  log(`${payment.id}: ${statuses.join(' → ')}`);

  // 7. Lists page themselves: items() follows Link rel="next" to the last page (limit = page size).
  const lastHour = new Date(Date.now() - 3600_000).toISOString();
  const finished: string[] = [];
  const query = { status: [...FINAL_PAYMENT_STATUSES], createdFrom: lastHour, limit: 2 };
  for await (const p of client.items('/v1/payments', { params: { query } })) {
    finished.push(`${p.id} ${p.status} ${p.fiatAmount} ${p.destinationCurrency}`);
  }
  log(`finished in the last hour: ${finished.length}`);

  return { paymentId: payment.id, statuses, finished, webhookSecret: hook.secret };
}

/**
 * Your webhook endpoint: verify the raw body (as received, before parsing) with the secret of
 * the registration, then act once per `webhook-id` (delivery is at least once).
 */
export function onWebhook(secret: string, rawBody: string, headers: WebhookHeaders, seen: Set<string>): WebhookEvent | undefined {
  const event = verifyWebhook(secret, rawBody, headers); // throws WebhookSignatureError if forged or stale
  const deliveryId = webhookIdOf(headers) ?? event.id;
  if (seen.has(deliveryId)) return undefined;
  seen.add(deliveryId);
  return event;
}
