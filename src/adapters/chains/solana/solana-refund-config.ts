import { SolanaConfigError } from './solana-config';
import { SolanaHotWalletKeyError, SolanaHotWalletSigner, solanaHotWalletSignerFromKeyFile, solanaHotWalletSignerFromText } from './solana-hot-wallet-signer';

/** How the Solana hot wallet sends refunds. */
export interface SolanaRefundConfig {
  /** The hot wallet's key custody; its inspection shows the address only. */
  readonly signer: SolanaHotWalletSigner;
}

/**
 * Reads the Solana hot wallet variables from `env` (docs/chains.md § Solana refunds:
 * configuration). Undefined when neither SOLANA_HOT_WALLET_KEY_FILE nor SOLANA_HOT_WALLET_KEY is
 * set: no hot wallet, refunds stay with operators (docs/decisions.md § Refunds). Both hold a key
 * pair in the Solana CLI's format (`solana-keygen new -o FILE`: a JSON array of 64 bytes).
 * Throws `SolanaConfigError` naming the variables at fault, never quoting a key: both key
 * variables set; SOLANA_HOT_WALLET_KEY with NODE_ENV=production; a key file that cannot be read,
 * holds no key pair, or (production) is open to its group or others; a key without
 * SOLANA_RPC_URLS (nothing to send through).
 */
export function parseSolanaRefundConfig(env: Readonly<Record<string, string | undefined>>): SolanaRefundConfig | undefined {
  const production = env.NODE_ENV === 'production';
  const present = (name: string) => env[name] !== undefined && env[name]!.trim() !== '';
  const keyFile = present('SOLANA_HOT_WALLET_KEY_FILE');
  const keyText = present('SOLANA_HOT_WALLET_KEY');
  if (!keyFile && !keyText) return undefined;
  const problems: string[] = [];
  if (keyFile && keyText) problems.push('SOLANA_HOT_WALLET_KEY: set only one of SOLANA_HOT_WALLET_KEY_FILE and SOLANA_HOT_WALLET_KEY');
  if (keyText && production) problems.push('SOLANA_HOT_WALLET_KEY: refused in production, where the key is read from SOLANA_HOT_WALLET_KEY_FILE');
  if (!present('SOLANA_RPC_URLS')) problems.push('SOLANA_RPC_URLS: a hot wallet needs the Solana RPC endpoints to send refunds through');
  let signer: SolanaHotWalletSigner | undefined;
  if (problems.length === 0) {
    try {
      signer = keyFile
        ? solanaHotWalletSignerFromKeyFile(env.SOLANA_HOT_WALLET_KEY_FILE!, 'SOLANA_HOT_WALLET_KEY_FILE', production)
        : solanaHotWalletSignerFromText(env.SOLANA_HOT_WALLET_KEY!, 'SOLANA_HOT_WALLET_KEY');
    } catch (error) {
      if (!(error instanceof SolanaHotWalletKeyError)) throw error;
      problems.push(error.message);
    }
  }
  if (!signer || problems.length > 0) throw new SolanaConfigError(`Invalid Solana refund configuration: ${problems.join('; ')}`);
  return { signer };
}
