import type { Payment } from '../../../core/payments/payment';
import { Decimal } from '../../../core/shared/money';
import type { PawapayPayoutRequest } from './pawapay-client';
import { PAWAPAY_CURRENCY_SCALE, PAWAPAY_MARKETS, type PawapayMarket } from './pawapay-markets';
import { payoutIdOf } from './pawapay-wire';

/** Either the payout body for a payment, or why pawaPay cannot carry it (for a `rejected` outcome). */
export type PayoutRequestResult =
  | { readonly ok: true; readonly body: PawapayPayoutRequest }
  | { readonly ok: false; readonly reason: string };

/**
 * Maps a payment to pawaPay's payout body (docs/decisions.md § Money): MOMO in a country of
 * `markets`, whose operator code (`paymentCode`) pawaPay lists there, in that market's currency,
 * the amount a plain decimal string at most at the currency's ISO 4217 scale (pawaPay's `amount`
 * rules, initiate payout page: no leading zeros, up to two decimals), the MSISDN with its country
 * code and no `+` ("phoneNumber ... in the MSISDN format", failure codes page). An amount needing
 * more digits, a number outside the market's dial code or another mismatch is refused with a
 * reason, never rounded or guessed. Pure.
 */
export function payoutRequestOf(payment: Payment, markets: readonly PawapayMarket[] = PAWAPAY_MARKETS): PayoutRequestResult {
  if (payment.paymentMethod !== 'MOMO') return { ok: false, reason: `pawaPay pays only mobile money (MOMO), not ${payment.paymentMethod}` };
  const market = markets.find((m) => m.country === payment.country);
  if (!market) return { ok: false, reason: `pawaPay is not configured for ${payment.country}` };
  const provider = Object.hasOwn(market.providers, payment.paymentCode) ? market.providers[payment.paymentCode] : undefined;
  if (!provider) return { ok: false, reason: `pawaPay does not pay ${payment.paymentCode} in ${payment.country}` };
  if (payment.destinationCurrency !== market.currency) {
    return { ok: false, reason: `pawaPay pays ${market.currency} in ${market.country}, not ${payment.destinationCurrency}` };
  }
  const scale = PAWAPAY_CURRENCY_SCALE[market.currency];
  const amount = new Decimal(payment.fiatAmount);
  if (!amount.isFinite() || amount.lte(0) || amount.decimalPlaces() > scale) {
    return { ok: false, reason: `pawaPay cannot carry ${payment.fiatAmount} ${market.currency}: it takes positive amounts with at most ${scale} decimal places` };
  }
  const msisdn = payment.accountNumber.replace(/^\+/, '');
  if (!/^\d{7,15}$/.test(msisdn) || !msisdn.startsWith(market.dialCode)) {
    return { ok: false, reason: `pawaPay in ${market.country} pays numbers starting with +${market.dialCode}` };
  }
  return {
    ok: true,
    body: {
      payoutId: payoutIdOf(payment.id),
      amount: amount.toFixed(scale),
      currency: market.currency,
      recipient: { type: 'MMO', accountDetails: { phoneNumber: msisdn, provider } },
    },
  };
}
