import type { Payment } from '../../../core/payments/payment';
import { Decimal } from '../../../core/shared/money';
import type { MtnMomoTransferRequest } from './mtn-momo-client';
import { MTN_MOMO_CURRENCY_SCALE, type MtnMomoCurrency, type MtnMomoMarket } from './mtn-momo-markets';

/** MTN answers 400 to "More than 160 characters in the note and message" (MoMo common errors). */
const NOTE_AND_MESSAGE_MAX = 160;
const NOTE_MAX = 100;

/** Either the transfer body for a payment, or why MTN MoMo cannot carry it (for a `rejected` outcome). */
export type TransferRequestResult =
  | { readonly ok: true; readonly body: MtnMomoTransferRequest }
  | { readonly ok: false; readonly reason: string };

/**
 * Maps a payment to MTN's transfer body (docs/decisions.md § Money): MOMO with paymentCode MTN in a
 * country of `markets`, in that market's currency; the amount sent in `sandboxCurrency` when set
 * (the sandbox takes only EUR; the figure is unchanged), else in the destination currency, as a
 * plain decimal string at the ISO 4217 scale. An amount needing more digits than that scale, a
 * number outside the market's dial code, or any other mismatch is refused with a reason, never
 * rounded or guessed. `externalId` is our payment id: MTN echoes it in status answers and callbacks,
 * which carry no referenceId.
 */
export function transferRequestOf(
  payment: Payment,
  markets: readonly MtnMomoMarket[],
  sandboxCurrency: MtnMomoCurrency | undefined,
): TransferRequestResult {
  if (payment.paymentMethod !== 'MOMO' || payment.paymentCode !== 'MTN') {
    return { ok: false, reason: `MTN MoMo pays only MOMO with paymentCode MTN, not ${payment.paymentMethod} ${payment.paymentCode}` };
  }
  const market = markets.find((m) => m.country === payment.country);
  if (!market) return { ok: false, reason: `MTN MoMo is not configured for ${payment.country}` };
  if (payment.destinationCurrency !== market.currency) {
    return { ok: false, reason: `MTN MoMo pays ${market.currency} in ${market.country}, not ${payment.destinationCurrency}` };
  }
  const currency = sandboxCurrency ?? market.currency;
  // The destination currency's scale binds even in the sandbox: a test must not pass an amount production would refuse.
  const scale = Math.min(MTN_MOMO_CURRENCY_SCALE[currency], MTN_MOMO_CURRENCY_SCALE[market.currency]);
  const amount = new Decimal(payment.fiatAmount);
  if (!amount.isFinite() || amount.lte(0) || amount.decimalPlaces() > scale) {
    return { ok: false, reason: `MTN MoMo cannot carry ${payment.fiatAmount} ${currency}: it takes positive amounts with at most ${scale} decimal places in ${market.currency}` };
  }
  const msisdn = payment.accountNumber.replace(/^\+/, '');
  if (!/^\d{7,15}$/.test(msisdn) || !msisdn.startsWith(market.dialCode)) {
    return { ok: false, reason: `MTN MoMo in ${market.country} pays numbers starting with +${market.dialCode}` };
  }
  const payerMessage = `Payout ${payment.id}`;
  const payeeNote = sanitise(payment.reference ?? '').slice(0, Math.min(NOTE_MAX, NOTE_AND_MESSAGE_MAX - payerMessage.length)).trim() || 'Payout';
  return {
    ok: true,
    body: {
      amount: amount.toFixed(scale),
      currency,
      externalId: payment.id,
      payee: { partyIdType: 'MSISDN', partyId: msisdn },
      payerMessage,
      payeeNote,
    },
  };
}

/** MTN answers 400 to "unsupported special characters … for example an apostrophe": keep a safe set. */
function sanitise(text: string): string {
  return text.replace(/[^A-Za-z0-9 .,_/-]/g, '').replace(/\s+/g, ' ').trim();
}
