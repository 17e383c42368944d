import anyAscii from 'any-ascii';

/**
 * The normalisation policy of names (docs/decisions.md § Screening): transliterated to ASCII
 * (any-ascii: Cyrillic, Arabic, accents), lower-cased, every run of other characters a single
 * space, tokens sorted, so "Jérôme KAKWAVU", "kakwavu jerome" and "Жером Каквау" compare alike. Pure.
 */
export function nameTokens(name: string): string[] {
  return anyAscii(name).toLowerCase().split(/[^a-z0-9]+/).filter((t) => t.length > 0).sort();
}

/** The token-sorted key of a name (its tokens joined by single spaces). Pure. */
export function nameKey(name: string): string {
  return nameTokens(name).join(' ');
}

/**
 * The key an address is compared by: 0x (EVM) addresses are case-insensitive (mixed case is only
 * a checksum), so lower-cased; any other form (base58, bech32 as listed) exactly as written. Pure.
 */
export function addressKey(address: string): string {
  const trimmed = address.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}
