/**
 * A local Solana for the refund sender's tests (docs/chains.md § Solana refunds): litesvm behind
 * its JSON-RPC server, a funded funder, a 6-decimal USDC mint, and hot wallets made on demand
 * with their senders over the real @solana/kit client.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { address, generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { ed25519PublicKey, slip10Derive } from '../../../src/adapters/chains/slip10-ed25519';
import { SolanaHotWalletSigner } from '../../../src/adapters/chains/solana/solana-hot-wallet-signer';
import { SolanaRefundSender } from '../../../src/adapters/chains/solana/solana-refund-sender';
import { solanaRpc } from '../../../src/adapters/chains/solana/solana-rpc';
import type { WatchedToken } from '../../../src/core/deposits/chain-ports';
import type { OnchainRefund } from '../../../src/core/refunds/onchain-refund';
import { LiteSvmLedger } from './litesvm-ledger';
import { startLiteSvmRpc, type LiteSvmRpc } from './litesvm-rpc-server';
import { LocalSolana } from './local-solana';

const SOL = 1_000_000_000n;

/** A fresh hot wallet key pair: secret ‖ public, the solana-keygen layout. */
export function hotWalletKey(): Uint8Array {
  const secret = slip10Derive(randomBytes(32), [44, 501, 0, 0]).key;
  return Uint8Array.from([...secret, ...ed25519PublicKey(secret)]);
}

/** A pending USDC refund of `amount` (decimal string) to `refundAddress`. */
export function refundOf(amount: string, refundAddress: string): OnchainRefund {
  return {
    id: `rfd_${randomUUID()}`, paymentId: `pay_${randomUUID()}`, tenantId: 'ten_A', amount, currency: 'USDC', blockchain: 'SOLANA', refundAddress,
    status: 'pending', txHash: null, createdAt: new Date(), sentAt: null, failureReason: null,
  };
}

/** A new wallet with nothing on the chain. */
export function recipient(): Promise<KeyPairSigner> {
  return generateKeyPairSigner();
}

export class SolanaRefundChain {
  private constructor(readonly rpc: LiteSvmRpc, readonly funder: LocalSolana, readonly mint: string, readonly tokens: WatchedToken[]) {}

  /** Starts the chain with the finalized slot `finalityDepth` slots behind. */
  static async start(finalityDepth: number): Promise<SolanaRefundChain> {
    const rpc = await startLiteSvmRpc(new LiteSvmLedger({ finalityDepth }));
    const funder = new LocalSolana(rpc.url, await generateKeyPairSigner());
    await funder.airdrop(100);
    const mint = await funder.createMint(6);
    return new SolanaRefundChain(rpc, funder, mint, [{ chain: 'SOLANA', currency: 'USDC', token: mint, decimals: 6 }]);
  }

  /**
   * A sender over a new hot wallet holding `units` of the mint (default 1,000) and `lamports`
   * (default `sol` SOL, default 1), over the endpoint `url` (default the chain's).
   */
  async newSender(funding: { sol?: bigint; units?: bigint; lamports?: bigint } = {}, url?: string): Promise<SolanaRefundSender> {
    const signer = new SolanaHotWalletSigner(hotWalletKey(), 'test key');
    if (funding.units !== 0n) await this.funder.mintTo(this.mint, funding.units ?? 1_000_000_000n, signer.address);
    const lamports = funding.lamports ?? (funding.sol ?? 1n) * SOL;
    if (lamports > 0n) this.rpc.ledger.svm.airdrop(address(signer.address), lamports as never);
    return new SolanaRefundSender(solanaRpc({ rpcUrls: [url ?? this.rpc.url], rpcTimeoutMs: 5_000 }, { requested: () => undefined }), signer, this.tokens);
  }

  /** The token balance of `owner`'s associated token account for the mint; undefined when it has none. */
  tokenBalance(owner: string): bigint | undefined {
    const ata = this.rpc.ledger.tokenAccountsOf(owner, this.mint)[0];
    if (!ata) return undefined;
    return new DataView(ata.account.data.buffer, ata.account.data.byteOffset + 64, 8).getBigUint64(0, true);
  }

  /** Signatures of the successful transactions that left tokens of the mint with `owner`. */
  transfersTo(owner: string): string[] {
    return [...this.rpc.ledger.transactions.values()]
      .filter((t) => t.meta.err === null && t.meta.postTokenBalances.some((b) => b.owner === owner && b.mint === this.mint)).map((t) => t.signature);
  }

  close(): Promise<void> {
    return this.rpc.close();
  }
}
