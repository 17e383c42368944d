/**
 * A local BSC for tests and people (docs/chains.md § Local chains): anvil plus viem clients, the
 * test contracts deployed on demand, and helpers to transfer, batch, mine and reorganise.
 */
import {
  createPublicClient, createWalletClient, defineChain, http, type Address, type Chain, type Hex, type PublicClient,
} from 'viem';
import { mnemonicToAccount, type HDAccount } from 'viem/accounts';
import { ANVIL_MNEMONIC, startAnvil, type Anvil, type AnvilOptions } from './anvil';
import { contractArtifacts, type Artifact } from './evm-contracts';

/** Where a transaction landed. */
export interface Mined {
  /** Lower-case transaction hash. */
  readonly hash: Hex;
  readonly blockNumber: bigint;
  /** Lower-case block hash. */
  readonly blockHash: Hex;
}

/** One transfer of a batch: recipient and amount in the token's base units. */
export interface Payment {
  readonly to: Address;
  readonly units: bigint;
}

/** A running anvil as BSC with clients; `stop()` ends it. */
export class LocalBsc {
  readonly chain: Chain;
  readonly publicClient: PublicClient;
  private batchContract?: Address;
  private nftEmitter?: Address;
  private bareEmitter?: Address;

  private constructor(readonly anvil: Anvil) {
    this.chain = defineChain({
      id: 56, name: 'BSC (local anvil)', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
      rpcUrls: { default: { http: [anvil.url] } },
    });
    this.publicClient = createPublicClient({ chain: this.chain, transport: http(anvil.url), pollingInterval: 20 });
  }

  /** Starts anvil (see `startAnvil`) and compiles the contracts (once per process). */
  static async start(options: AnvilOptions = {}): Promise<LocalBsc> {
    contractArtifacts();
    return new LocalBsc(await startAnvil(options));
  }

  get url(): string {
    return this.anvil.url;
  }

  /** Anvil's funded account `index` (m/44'/60'/0'/0/index of the "test … junk" mnemonic). */
  account(index: number): HDAccount {
    return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
  }

  /** Deploys an 18-decimal ERC-20 from account 0; returns its lower-case address. */
  async deployToken(name: string, symbol: string): Promise<Address> {
    return this.deploy(contractArtifacts().TestToken, [name, symbol]);
  }

  /** Mints `units` of `token` to `to` (from account 0). */
  async mint(token: Address, to: Address, units: bigint): Promise<Mined> {
    return this.send(0, token, contractArtifacts().TestToken, 'mint', [to, units]);
  }

  /** `transfer(to, units)` of `token` signed by account `from`. */
  async transfer(token: Address, from: number, to: Address, units: bigint): Promise<Mined> {
    return this.send(from, token, contractArtifacts().TestToken, 'transfer', [to, units]);
  }

  /**
   * Several transfers of `token` from account `from` in ONE transaction (the batch contract's
   * `transferFrom`s, after an approval in its own transaction). Returns the batch transaction.
   */
  async transferBatch(token: Address, from: number, payments: readonly Payment[]): Promise<Mined> {
    this.batchContract ??= await this.deploy(contractArtifacts().TransferBatch, []);
    const total = payments.reduce((sum, p) => sum + p.units, 0n);
    await this.send(from, token, contractArtifacts().TestToken, 'approve', [this.batchContract, total]);
    return this.send(from, this.batchContract, contractArtifacts().TransferBatch, 'pay',
      [token, payments.map((p) => p.to), payments.map((p) => p.units)]);
  }

  /** Emits an ERC-721-shaped `Transfer(from, to, tokenId)` (all three indexed) to `to`, from account 0. */
  async emitNftTransfer(to: Address, tokenId: bigint): Promise<Mined> {
    this.nftEmitter ??= await this.deploy(contractArtifacts().NftTransferEmitter, []);
    return this.send(0, this.nftEmitter, contractArtifacts().NftTransferEmitter, 'emitTransfer', [to, tokenId]);
  }

  /**
   * Emits an ERC-20-shaped `Transfer(from, to, value)` from a contract without `decimals()`, from
   * account 0; returns the contract (lower case) with the transaction.
   */
  async emitBareTransfer(to: Address, units: bigint): Promise<Mined & { contract: Address }> {
    this.bareEmitter ??= await this.deploy(contractArtifacts().BareTransferEmitter, []);
    const mined = await this.send(0, this.bareEmitter, contractArtifacts().BareTransferEmitter, 'emitTransfer', [to, units]);
    return { ...mined, contract: this.bareEmitter };
  }

  /** Mines `blocks` empty blocks. */
  async mine(blocks = 1): Promise<void> {
    await this.anvil.rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
  }

  /** The node's head and `finalized` heights. */
  async heights(): Promise<{ head: bigint; finalized: bigint }> {
    const [head, finalized] = await Promise.all([
      this.publicClient.getBlockNumber({ cacheTime: 0 }),
      this.publicClient.getBlock({ blockTag: 'finalized' }).then((b) => b.number),
    ]);
    return { head, finalized };
  }

  /** The signed transaction `hash` as raw bytes (to include it again in a reorganisation). */
  async rawTransaction(hash: Hex): Promise<Hex> {
    return this.anvil.rpc<Hex>('eth_getRawTransactionByHash', [hash]);
  }

  /**
   * Replaces the newest `depth` blocks with as many new ones (`anvil_reorg`), holding `include`:
   * raw signed transactions each with its block offset from the first replaced block.
   */
  async reorg(depth: number, include: readonly { raw: Hex; blockOffset: number }[] = []): Promise<void> {
    await this.anvil.rpc('anvil_reorg', [depth, include.map((t) => [t.raw, t.blockOffset])]);
  }

  /** `evm_snapshot`: an id for `revert`. */
  async snapshot(): Promise<Hex> {
    return this.anvil.rpc<Hex>('evm_snapshot');
  }

  /** `evm_revert` to a snapshot: the blocks after it are gone. */
  async revert(id: Hex): Promise<void> {
    await this.anvil.rpc('evm_revert', [id]);
  }

  /** `balanceOf(holder)` of `token`, in base units. */
  async balanceOf(token: Address, holder: Address): Promise<bigint> {
    return this.publicClient.readContract({
      address: token, abi: contractArtifacts().TestToken.abi, functionName: 'balanceOf', args: [holder],
    }) as Promise<bigint>;
  }

  stop(): Promise<void> {
    return this.anvil.stop();
  }

  private wallet(index: number) {
    return createWalletClient({ account: this.account(index), chain: this.chain, transport: http(this.anvil.url) });
  }

  private async deploy(artifact: Artifact, args: unknown[]): Promise<Address> {
    const hash = await this.wallet(0).deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args });
    const receipt = await this.receipt(hash);
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deployment ${hash} failed`);
    return receipt.contractAddress.toLowerCase() as Address;
  }

  /**
   * The receipt of `hash`, asked every 20 ms for up to 60 s. Not viem's waitForTransactionReceipt:
   * it waits for a block after the one it first saw, and with anvil mining only on transactions a
   * receipt missed on that first look (a loaded machine) would wait for a block that never comes.
   */
  private async receipt(hash: Hex) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        return await this.publicClient.getTransactionReceipt({ hash });
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  private async send(from: number, address: Address, artifact: Artifact, functionName: string, args: unknown[]): Promise<Mined> {
    const hash = await this.wallet(from).writeContract({ address, abi: artifact.abi, functionName, args, chain: this.chain });
    const receipt = await this.receipt(hash);
    if (receipt.status !== 'success') throw new Error(`${functionName} ${hash} reverted`);
    return { hash: hash.toLowerCase() as Hex, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash.toLowerCase() as Hex };
  }
}
