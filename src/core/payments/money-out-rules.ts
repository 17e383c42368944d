import {
  corridorOf, type Blockchain, type Catalog, type CountryCode, type PaymentMethod,
} from '../catalog/catalog';
import type { IssuerFeeOption } from '../quotes/pricing';
import { Decimal, parseAmount, scaleOf, type FiatCurrency, type Stablecoin } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import { base58ByteLength } from './refund-address';

/** Field length limits of a money-out, shared by every transport's schema (OpenAPI createMoneyOut). */
export const MONEY_OUT_LIMITS = {
  accountName: 140,
  accountNumber: 34,
  paymentCode: 20,
  reference: 128,
  refundAddress: 64,
  quoteId: 40,
} as const;

/** A money-out request after transport parsing: types and enums checked, rules not yet (OpenAPI createMoneyOut). */
export interface MoneyOutCommand {
  /** Fiat amount the recipient receives (JSON number or decimal string), in destinationCurrency. */
  readonly fiatAmount: number | string;
  readonly sourceCurrency: Stablecoin;
  /** Any catalog currency: REST money-out narrows it to OpenAPI createMoneyOut's nine; the legacy payout adds ETB. */
  readonly destinationCurrency: FiatCurrency;
  readonly country: CountryCode;
  readonly blockchain: Blockchain;
  readonly paymentMethod: PaymentMethod;
  readonly accountName: string;
  readonly accountNumber: string;
  readonly paymentCode: string;
  readonly reference: string;
  readonly refundAddress: string;
  readonly optionalIssuerFee: IssuerFeeOption;
  /** Only for PAYBILL: 6 digits. */
  readonly businessNumber?: string;
  /** Beyond the interface: lock the rate of a stored quote (docs/decisions.md § FX quotes and the quote lock). */
  readonly quoteId?: string;
}

/** A command that passed every rule, with its fiat amount exact. */
export interface ValidMoneyOut extends MoneyOutCommand {
  readonly amount: Decimal;
}

const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * True when `address` is well formed on `blockchain`: base58 of a 32-byte key on SOLANA, 0x + 40
 * hex on BSC (the EIP-55 checksum is checkRefundAddress's, behind its port). Pure. A tenant's
 * payoutRefundAddress is checked with it; a money-out's refundAddress with checkRefundAddress.
 */
export function isWalletAddress(blockchain: Blockchain, address: string): boolean {
  if (blockchain === 'SOLANA') return SOLANA_ADDRESS.test(address) && base58ByteLength(address) === 32;
  return EVM_ADDRESS.test(address);
}
const PHONE = /^\+?[1-9]\d{6,14}$/;
const BUSINESS_NUMBER = /^\d{6}$/;

/**
 * Checks a money-out against the interface's rules and the corridor catalog (OpenAPI
 * createMoneyOut; docs/decisions.md § Money and § Corridor catalog). Pure.
 * Errors: `validation_error` (amount scale or limits, paymentCode not offered for the country and
 * method, PAYBILL businessNumber, malformed phone, blank fields); the refund address is checked by
 * `checkRefundAddress` (docs/decisions.md § Refunds: refund addresses);
 * `unsupported_corridor` (the country does not pay out in that currency or by that method).
 */
export function validateMoneyOut(
  catalog: Catalog,
  command: MoneyOutCommand,
): Result<ValidMoneyOut, 'validation_error' | 'unsupported_corridor'> {
  const amount = parseAmount(command.fiatAmount, 'fiatAmount', scaleOf(command.destinationCurrency));
  if (!amount.ok) return amount;

  for (const field of ['accountName', 'accountNumber', 'paymentCode', 'reference', 'refundAddress'] as const) {
    if (command[field].trim() === '') return err('validation_error', `${field} must not be blank`, { field });
  }

  const corridor = corridorOf(catalog, command.country);
  if (!corridor || corridor.currency !== command.destinationCurrency) {
    return err('unsupported_corridor', `${command.country} does not pay out in ${command.destinationCurrency}`);
  }
  const offer = corridor.methods[command.paymentMethod];
  if (!offer) return err('unsupported_corridor', `${command.paymentMethod} payouts are not offered in ${command.country}`);
  if (!offer.codes.includes(command.paymentCode)) {
    return err('validation_error', `paymentCode must be one of ${offer.codes.join(', ')} for ${command.paymentMethod} in ${command.country}`, { field: 'paymentCode' });
  }
  if (amount.value.lt(offer.min) || amount.value.gt(offer.max)) {
    return err('validation_error', `fiatAmount must be between ${offer.min} and ${offer.max} ${corridor.currency} for ${command.paymentMethod} in ${command.country}`, { field: 'fiatAmount' });
  }

  if (command.paymentMethod === 'PAYBILL') {
    if (command.businessNumber === undefined || !BUSINESS_NUMBER.test(command.businessNumber)) {
      return err('validation_error', 'businessNumber of 6 digits is required for PAYBILL', { field: 'businessNumber' });
    }
  } else if (command.businessNumber !== undefined) {
    return err('validation_error', 'businessNumber is only accepted for PAYBILL', { field: 'businessNumber' });
  }
  if (command.paymentMethod === 'MOMO' && !PHONE.test(command.accountNumber)) {
    return err('validation_error', 'accountNumber must be a phone number with country code for MOMO', { field: 'accountNumber' });
  }
  // The refund address's form and owner are checked by checkRefundAddress (refund-address.ts), 422 codes of their own.
  return ok({ ...command, amount: amount.value });
}
