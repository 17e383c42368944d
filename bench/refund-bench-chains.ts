/**
 * The local chains the refunds benchmark sends on (bench/refunds.bench.ts): each starts its chain,
 * funds a hot wallet, gives the service's variables, advances the chain on a timer and counts,
 * per recipient, the transfers that arrived onchain. Only the chain differs between the runs.
 */
import { randomBytes } from 'node:crypto';
import { address, generateKeyPairSigner, getAddressDecoder } from '@solana/kit';
import { parseAbiItem } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ed25519PublicKey, slip10Derive } from '../src/adapters/chains/slip10-ed25519';
import type { Blockchain } from '../src/core/catalog/catalog';
import { randomXpub } from '../test/support/chains/bsc-service-fixture';
import { LiteSvmLedger } from '../test/support/chains/litesvm-ledger';
import { startLiteSvmRpc } from '../test/support/chains/litesvm-rpc-server';
import { LocalBsc } from '../test/support/chains/local-bsc';
import { LocalSolana } from '../test/support/chains/local-solana';

/** One local chain with a funded hot wallet, as the benchmark drives it. */
export interface BenchChain {
  readonly chain: Blockchain;
  /** The refunded stablecoin and its base units per micro-unit (10^12 on BSC's 18 decimals, 1 on Solana's 6). */
  readonly currency: 'USDT' | 'USDC';
  readonly unitsPerMicro: bigint;
  /** What the chain's pace is, for the printed figures. */
  readonly pace: string;
  /** The service's variables: RPC endpoints, tokens, hot wallet key, deposit key. */
  readonly env: Record<string, string>;
  /** A fresh refund address nobody else uses. */
  recipient(): Promise<string>;
  /** Starts advancing the chain every `ms` (a block or a slot). */
  tick(ms: number): void;
  /** Per recipient (lower case on BSC), the amounts in base units the hot wallet sent since the start. */
  sent(): Promise<Map<string, bigint[]>>;
  stop(): Promise<void>;
}

/** BSC on anvil (chain id 56, finalized two blocks behind the head), USDT from a hot wallet key. */
export async function benchBsc(): Promise<BenchChain> {
  const bsc = await LocalBsc.start();
  let timer: NodeJS.Timeout | undefined;
  const ONE = 10n ** 18n;
  const usdt = await bsc.deployToken('Tether USD', 'USDT');
  const usdc = await bsc.deployToken('USD Coin', 'USDC');
  const key = generatePrivateKey();
  const wallet = privateKeyToAccount(key).address;
  await bsc.anvil.rpc('anvil_setBalance', [wallet, `0x${(100n * ONE).toString(16)}`]);
  await bsc.mint(usdt, wallet, 10_000_000n * ONE);
  const startBlock = (await bsc.heights()).head;
  return {
    chain: 'BSC', currency: 'USDT', unitsPerMicro: 10n ** 12n, pace: 'a block per transaction besides one per tick, final 2 blocks behind the head',
    env: {
      BSC_RPC_URLS: bsc.url, BSC_DEPOSIT_XPUB: randomXpub(), BSC_USDT_CONTRACT: usdt, BSC_USDC_CONTRACT: usdc, BSC_HOT_WALLET_KEY: key,
    },
    recipient: async () => `0x${randomBytes(20).toString('hex')}`,
    tick: (ms) => {
      timer = setInterval(() => void bsc.mine().catch(() => undefined), ms);
    },
    sent: async () => {
      const logs = await bsc.publicClient.getLogs({
        address: usdt, event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'), args: { from: wallet }, fromBlock: startBlock,
      });
      const per = new Map<string, bigint[]>();
      for (const log of logs) per.set(log.args.to!.toLowerCase(), [...(per.get(log.args.to!.toLowerCase()) ?? []), log.args.value!]);
      return per;
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      await bsc.stop();
    },
  };
}

/** Solana on litesvm behind its JSON-RPC server (finalized `depth` slots behind), USDC from a hot wallet key pair. */
export async function benchSolana(depth: number): Promise<BenchChain> {
  const rpc = await startLiteSvmRpc(new LiteSvmLedger({ finalityDepth: depth }));
  let timer: NodeJS.Timeout | undefined;
  const funder = new LocalSolana(rpc.url, await generateKeyPairSigner());
  await funder.airdrop(10);
  const usdc = await funder.createMint(6);
  const usdt = await funder.createMint(6);
  const secret = slip10Derive(randomBytes(32), [44, 501, 0, 0]).key;
  const wallet = getAddressDecoder().decode(ed25519PublicKey(secret));
  // Fees and a new token account's rent (about 0.002 SOL) per refund.
  rpc.ledger.svm.airdrop(address(wallet), 100_000_000_000n as never);
  await funder.mintTo(usdc, 10_000_000_000000n, wallet);
  return {
    chain: 'SOLANA', currency: 'USDC', unitsPerMicro: 1n, pace: `a slot per transaction besides one per tick, finalized ${depth} slots behind`,
    env: {
      SOLANA_RPC_URLS: rpc.url, SOLANA_DEPOSIT_SEED: randomBytes(64).toString('hex'), SOLANA_USDC_MINT: usdc, SOLANA_USDT_MINT: usdt,
      SOLANA_HOT_WALLET_KEY: JSON.stringify([...secret, ...ed25519PublicKey(secret)]),
    },
    recipient: async () => (await generateKeyPairSigner()).address,
    tick: (ms) => {
      timer = setInterval(() => rpc.ledger.advance(1), ms);
    },
    sent: async () => {
      const per = new Map<string, bigint[]>();
      for (const t of rpc.ledger.transactions.values()) {
        if (t.meta.err !== null) continue;
        for (const post of t.meta.postTokenBalances) {
          if (post.mint !== usdc || post.owner === wallet || !post.owner) continue;
          const pre = t.meta.preTokenBalances.find((b) => b.accountIndex === post.accountIndex)?.uiTokenAmount.amount ?? '0';
          const gained = BigInt(post.uiTokenAmount.amount) - BigInt(pre);
          if (gained > 0n) per.set(post.owner, [...(per.get(post.owner) ?? []), gained]);
        }
      }
      return per;
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      await rpc.close();
    },
  };
}
