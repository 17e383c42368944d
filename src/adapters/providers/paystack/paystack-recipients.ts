import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SubmitOutcome } from '../../../core/payments/payout-provider';
import { paystackEnvelope, paystackMessage, type PaystackClient } from './paystack-client';

/** A bank account to pay, in Paystack's terms (official OpenAPI `TransferRecipientCreate`). */
export interface RecipientAccount {
  /** `nuban`, `ghipss`, `basa` or `kepss`. */
  readonly type: string;
  readonly currency: string;
  readonly bankCode: string;
  readonly accountNumber: string;
  readonly name: string;
}

/** Either the recipient code (`RCP_…`) or why the submission stops here (never `accepted`). */
export type RecipientResult =
  | { readonly ok: true; readonly recipientCode: string }
  | { readonly ok: false; readonly outcome: Exclude<SubmitOutcome, { kind: 'accepted' }> };

const created = paystackEnvelope(z.object({ recipient_code: z.string().regex(/^RCP_/) }));

/** How long to wait before trying again after a fault on recipient creation, ms. */
const RECIPIENT_RETRY_MS = 30_000;

/**
 * Transfer recipients (https://paystack.com/docs/transfers/creating-transfer-recipients/), cached
 * per account so a repeated payout to the same account reuses its code. Paystack itself answers a
 * duplicate account number with the existing record (official OpenAPI `transferrecipient_create`),
 * so a lost cache (restart, another replica) creates no duplicate either. The cache key is a
 * SHA-256 of the account, so no account number stays in memory as such (docs/decisions.md
 * § Personal data and secrets); the oldest entry goes first once `capacity` is reached.
 */
export class PaystackRecipients {
  private readonly codes = new Map<string, string>();

  constructor(private readonly client: PaystackClient, private readonly capacity = 10_000) {}

  /**
   * The recipient code of `account`, creating the recipient on a cache miss. Outcomes when it
   * cannot: 400-class refusals → `rejected` with Paystack's message (no money moves on this call);
   * refused credentials (401, 403), 429, 5xx or a transport fault → `retry` (creating a recipient moves no money, so
   * trying again, here or elsewhere, cannot pay twice).
   */
  async codeFor(account: RecipientAccount): Promise<RecipientResult> {
    const key = createHash('sha256')
      .update([account.type, account.currency, account.bankCode, account.accountNumber].join('\u0000'))
      .digest('base64url');
    const cached = this.codes.get(key);
    if (cached) {
      this.codes.delete(key);
      this.codes.set(key, cached);
      return { ok: true, recipientCode: cached };
    }
    const call = await this.client.send({
      method: 'POST',
      path: '/transferrecipient',
      body: {
        type: account.type, name: account.name, account_number: account.accountNumber,
        bank_code: account.bankCode, currency: account.currency,
      },
    });
    if (call.kind !== 'answer') return retry(`Paystack unreachable creating the recipient (${call.reason})`);
    const parsed = created.safeParse(call.body);
    if (call.httpStatus >= 200 && call.httpStatus < 300 && parsed.success) {
      this.remember(key, parsed.data.data.recipient_code);
      return { ok: true, recipientCode: parsed.data.data.recipient_code };
    }
    if (call.httpStatus === 401 || call.httpStatus === 403 || call.httpStatus === 429 || call.httpStatus >= 500 || call.httpStatus < 400) {
      return retry(`Paystack could not create the recipient: ${paystackMessage(call.httpStatus, call.body)}`);
    }
    return { ok: false, outcome: { kind: 'rejected', reason: `Paystack refused the recipient: ${paystackMessage(call.httpStatus, call.body)}`, code: 'recipient_account_invalid' } };
  }

  private remember(key: string, code: string): void {
    if (this.codes.size >= this.capacity) {
      const oldest = this.codes.keys().next().value;
      if (oldest !== undefined) this.codes.delete(oldest);
    }
    this.codes.set(key, code);
  }
}

function retry(reason: string): RecipientResult {
  return { ok: false, outcome: { kind: 'retry', afterMs: RECIPIENT_RETRY_MS, reason } };
}
