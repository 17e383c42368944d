import type { CountryCode } from '../../../core/catalog/catalog';
import type { Payment } from '../../../core/payments/payment';
import { Decimal, scaleOf, type FiatCurrency } from '../../../core/shared/money';
import type { FlutterwaveSender } from './flutterwave-config';

/**
 * Mobile-money markets Flutterwave pays and, per catalog operator code, the `account_bank` value
 * naming the operator ("Supported Networks", https://developer.flutterwave.com/v3.0/docs/mobile-money):
 * Kenya MPS (M-Pesa, with the sender in `meta`: `transferBodyOf`); Uganda AIRTEL and MTN; Ghana MTN;
 * Côte d'Ivoire MOOV, MTN, ORANGE and WAVE; Senegal ORANGEMONEY and WAVE; Cameroon MTN and
 * ORANGEMONEY. Left out on purpose (docs/providers.md § Flutterwave Transfers): Kenya Airtel (not
 * listed), Tanzania (sender identity fields), Zambia (the page lists only MPS, not the catalog's MTN
 * and Airtel).
 */
export const FLUTTERWAVE_MOMO_MARKETS: Partial<Record<CountryCode, {
  readonly currency: FiatCurrency;
  readonly dialCode: string;
  readonly operators: Readonly<Record<string, string>>;
}>> = {
  KE: { currency: 'KES', dialCode: '254', operators: { MPESA: 'MPS' } },
  UG: { currency: 'UGX', dialCode: '256', operators: { MTN: 'MTN', AIRTEL: 'AIRTEL' } },
  GH: { currency: 'GHS', dialCode: '233', operators: { MTN: 'MTN' } },
  CI: { currency: 'XOF', dialCode: '225', operators: { MTN: 'MTN', ORANGE: 'ORANGE', MOOV: 'MOOV', WAVE: 'WAVE' } },
  SN: { currency: 'XOF', dialCode: '221', operators: { ORANGE: 'ORANGEMONEY', WAVE: 'WAVE' } },
  CM: { currency: 'XAF', dialCode: '237', operators: { MTN: 'MTN', ORANGE: 'ORANGEMONEY' } },
};

/**
 * Bank markets: Nigeria (NGN), where `account_bank` is the bank code of Flutterwave's bank list
 * (`GET /v3/banks/NG`) and nothing beyond account number and bank is asked
 * (https://developer.flutterwave.com/reference/endpoints/transfers/, "Transfer to a Nigerian bank
 * account"). Other countries' bank transfers need a branch code or recipient details the catalog
 * does not carry (docs/providers.md § Flutterwave Transfers).
 */
export const FLUTTERWAVE_BANK_MARKETS: Partial<Record<CountryCode, { readonly currency: FiatCurrency }>> = {
  NG: { currency: 'NGN' },
};

/** The `POST /v3/transfers` body of one payment (Flutterwave's field names). */
export interface FlutterwaveTransferBody {
  readonly account_bank: string;
  readonly account_number: string;
  /** Major units of `currency`, a JSON number written from the exact decimal (at most `SCALE` places). */
  readonly amount: number;
  readonly currency: FiatCurrency;
  readonly narration: string;
  readonly reference: string;
  readonly beneficiary_name: string;
  /** Kenyan M-Pesa only: the sender (Flutterwave's mobile money transfers page, "Kenya (M-PESA)"). */
  readonly meta?: { readonly sender: string; readonly sender_country: string; readonly mobile_number: string };
}

/**
 * The transfer body of `payment`, or why Flutterwave cannot carry it (refused before anything is
 * sent). BANK in a bank market: `account_bank` is the payment code. MOMO in a mobile-money market
 * with an operator it lists: `account_number` is the number with its country code and no `+`
 * ("the mobile number on the account (including the country code, like 233)", same page) and must
 * start with the market's dial code. The currency must be the market's, the amount positive with at
 * most the currency's places (`scaleOf`). Kenyan M-Pesa carries `sender` in `meta`. Pure.
 */
export function transferBodyOf(payment: Payment, reference: string, sender: FlutterwaveSender):
  | { readonly ok: true; readonly body: FlutterwaveTransferBody }
  | { readonly ok: false; readonly reason: string } {
  let accountBank: string;
  let accountNumber = payment.accountNumber;
  let currency: FiatCurrency;
  if (payment.paymentMethod === 'BANK') {
    const market = FLUTTERWAVE_BANK_MARKETS[payment.country];
    if (!market) return { ok: false, reason: `Flutterwave does not pay bank accounts in ${payment.country}` };
    accountBank = payment.paymentCode;
    currency = market.currency;
  } else if (payment.paymentMethod === 'MOMO') {
    const market = FLUTTERWAVE_MOMO_MARKETS[payment.country];
    const operator = market && Object.hasOwn(market.operators, payment.paymentCode) ? market.operators[payment.paymentCode] : undefined;
    if (!market || !operator) return { ok: false, reason: `Flutterwave does not pay ${payment.paymentCode} mobile money in ${payment.country}` };
    accountNumber = payment.accountNumber.replace(/^\+/, '');
    if (!/^\d{7,15}$/.test(accountNumber) || !accountNumber.startsWith(market.dialCode)) {
      return { ok: false, reason: `Flutterwave in ${payment.country} pays numbers starting with +${market.dialCode}` };
    }
    accountBank = operator;
    currency = market.currency;
  } else {
    return { ok: false, reason: `Flutterwave pays bank accounts and mobile money, not ${payment.paymentMethod}` };
  }
  if (payment.destinationCurrency !== currency) {
    return { ok: false, reason: `Flutterwave pays ${currency} in ${payment.country}, not ${payment.destinationCurrency}` };
  }
  // ISO 4217 places: 0 for UGX (the Uganda payout page gives `amount` as an integer,
  // https://developer.flutterwave.com/docs/uganda-3), XOF and XAF; 2 for NGN, GHS and KES.
  const scale = scaleOf(currency);
  const amount = new Decimal(payment.fiatAmount);
  if (!amount.isFinite() || amount.lte(0) || amount.decimalPlaces() > scale || amount.gt(Number.MAX_SAFE_INTEGER)) {
    return { ok: false, reason: `Flutterwave cannot carry ${payment.fiatAmount} ${currency}: it takes positive amounts with at most ${scale} decimal places` };
  }
  return {
    ok: true,
    body: {
      account_bank: accountBank,
      account_number: accountNumber,
      // A decimal with at most two places below 2^53 prints back as the same digits.
      amount: Number(amount.toFixed(scale)),
      currency,
      narration: `Payout ${payment.id}`,
      reference,
      beneficiary_name: payment.accountName,
      ...(payment.country === 'KE' ? { meta: { sender: sender.name, sender_country: sender.country, mobile_number: sender.mobileNumber } } : {}),
    },
  };
}
