import type { Blockchain } from '../catalog/catalog';
import { err, ok, type Result } from '../shared/result';

/**
 * The money-out's `refundAddress` checked for its chain before anything is written
 * (docs/decisions.md § Refunds: refund addresses): a refund sent to a mistyped address, or to one
 * of our own addresses, is lost or never leaves the service, so both are refused up front.
 */

/**
 * Closed set of refusals of a refund address, each answered 422 with `details.field` `refundAddress`:
 * - `refund_address_invalid`: not an address of the chain (BSC: `0x` and 40 hex digits; SOLANA:
 *   base58 that decodes to exactly 32 bytes);
 * - `refund_address_bad_checksum`: a mixed-case BSC address whose EIP-55 checksum does not hold
 *   (a typo); an all-lower-case or all-upper-case address carries no checksum and is accepted;
 * - `refund_address_is_ours`: one of our deposit addresses (any tenant's) or a hot wallet.
 */
export type RefundAddressErrorCode = 'refund_address_invalid' | 'refund_address_bad_checksum' | 'refund_address_is_ours';

/** An address on a chain, as configured (hot wallets) or stored. */
export interface ChainAddress {
  readonly blockchain: Blockchain;
  readonly address: string;
}

/** Port: our deposit addresses, of every tenant (docs/decisions.md § Onchain deposits: addresses). */
export interface OwnDepositAddresses {
  /** Whether `address` (BSC compared case-insensitively, SOLANA exactly) is a deposit address on `blockchain`. */
  isDepositAddress(blockchain: Blockchain, address: string): Promise<boolean>;
}

/** What the refund address check needs from outside the core. */
export interface RefundAddressDeps {
  /**
   * Port: the EIP-55 checksummed form of a well-formed EVM address (`0x` + 40 hex digits, any
   * case), e.g. viem's `getAddress` on its lower-case form. Keccak-256 lives in the adapter.
   */
  readonly eip55: (address: string) => string;
  readonly depositAddresses: OwnDepositAddresses;
  /** The hot wallets refunds are sent from (docs/decisions.md § Refunds); empty when none is configured. */
  readonly hotWallets: readonly ChainAddress[];
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** A Solana public key is 32 bytes, so its base58 text is at most 44 characters; longer text is refused before decoding. */
const MAX_SOLANA_TEXT = 44;

/** The number of bytes `text` decodes to in Bitcoin base58, or undefined when it is not base58. Pure. */
export function base58ByteLength(text: string): number | undefined {
  let value = 0n;
  let zeros = 0;
  let leading = true;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    // Each leading '1' is one zero byte (base58's rule); the rest is a big-endian number.
    if (leading && digit === 0) zeros += 1;
    else leading = false;
    value = value * 58n + BigInt(digit);
  }
  return zeros + (value === 0n ? 0 : Math.ceil(value.toString(16).length / 2));
}

/** The key an address is compared by: lower case on BSC (hex is case-insensitive), as written on Solana (base58 is not). Pure. */
export function addressKeyOf(blockchain: Blockchain, address: string): string {
  return blockchain === 'BSC' ? address.toLowerCase() : address;
}

/**
 * The form of `address` on `blockchain`, without asking anyone whose it is. Pure but for `eip55`.
 * Errors: `refund_address_invalid`, `refund_address_bad_checksum`.
 */
export function refundAddressForm(
  eip55: RefundAddressDeps['eip55'], blockchain: Blockchain, address: string,
): Result<void, 'refund_address_invalid' | 'refund_address_bad_checksum'> {
  if (blockchain === 'BSC') {
    if (!EVM_ADDRESS.test(address)) return invalid(blockchain, 'it must be 0x and 40 hex digits');
    const digits = address.slice(2);
    const mixedCase = digits !== digits.toLowerCase() && digits !== digits.toUpperCase();
    if (mixedCase && eip55(address) !== address) {
      return err('refund_address_bad_checksum', 'refundAddress is mixed-case but its EIP-55 checksum does not match: check it for a typo, or send it all lower-case', { field: 'refundAddress' });
    }
    return ok(undefined);
  }
  const bytes = address.length > MAX_SOLANA_TEXT ? undefined : base58ByteLength(address);
  if (bytes === undefined) return invalid(blockchain, 'it must be base58 of a 32-byte public key');
  if (bytes !== 32) return invalid(blockchain, `it decodes to ${bytes} bytes, not the 32 of a public key`);
  return ok(undefined);
}

/**
 * Checks a money-out's `refundAddress` for `blockchain` (docs/decisions.md § Refunds: refund
 * addresses): its form, then that it is neither a hot wallet nor a deposit address of any tenant.
 * Reads only. Errors: every RefundAddressErrorCode.
 */
export async function checkRefundAddress(
  deps: RefundAddressDeps, blockchain: Blockchain, address: string,
): Promise<Result<void, RefundAddressErrorCode>> {
  const form = refundAddressForm(deps.eip55, blockchain, address);
  if (!form.ok) return form;
  const key = addressKeyOf(blockchain, address);
  const hotWallet = deps.hotWallets.some((w) => w.blockchain === blockchain && addressKeyOf(w.blockchain, w.address) === key);
  if (hotWallet || await deps.depositAddresses.isDepositAddress(blockchain, address)) {
    return err('refund_address_is_ours', `refundAddress is one of this service's own ${blockchain} addresses: a refund must go back to a wallet you control`, { field: 'refundAddress' });
  }
  return ok(undefined);
}

function invalid(blockchain: Blockchain, why: string): Result<never, 'refund_address_invalid'> {
  return err('refund_address_invalid', `refundAddress is not a valid ${blockchain} address: ${why}`, { field: 'refundAddress' });
}
