import type * as Viem from 'viem';

/**
 * The EIP-55 checksummed form of a well-formed EVM address (`0x` + 40 hex digits, any case), the
 * port `RefundAddressDeps.eip55` (docs/decisions.md § Refunds: refund addresses). viem's
 * `getAddress` refuses a mixed-case input whose checksum fails, so it is given the lower-case
 * form, which carries no checksum; the core compares the answer with what the caller sent.
 * Source: https://eips.ethereum.org/EIPS/eip-55
 */
export function eip55Checksum(address: string): string {
  // Loaded at the first BSC refund address checked, not with the service: viem is a large module tree.
  const { getAddress } = require('viem') as typeof Viem;
  return getAddress(address.toLowerCase());
}
