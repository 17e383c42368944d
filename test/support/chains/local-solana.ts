/**
 * A sender on a Solana JSON-RPC endpoint (the litesvm server in tests and `npm run chains:local`):
 * creates SPL mints, funds accounts and transfers tokens to owners' associated token accounts,
 * with transactions built by @solana/kit and @solana-program/token and sent over HTTP
 * (`sendTransaction`, base64).
 */
import {
  appendTransactionMessageInstructions, createKeyPairSignerFromPrivateKeyBytes, createSolanaRpc, createTransactionMessage, generateKeyPairSigner,
  getBase64EncodedWireTransaction, lamports, pipe, setTransactionMessageFeePayerSigner, setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners, address, type Address, type Instruction, type KeyPairSigner, type Rpc, type SolanaRpcApi,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstructionAsync, getInitializeMint2Instruction, getMintSize, getMintToInstruction,
  getRecoverNestedAssociatedTokenInstruction, getTransferCheckedInstruction, getTransferInstruction, TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { developmentSolanaSeed } from '../../../src/adapters/chains/development-address-deriver';
import { slip10Derive } from '../../../src/adapters/chains/slip10-ed25519';

/** A transfer to an owner's associated token account. */
export interface TokenTransfer {
  readonly mint: string;
  /** The owner (deposit address); the tokens go to its associated token account, created if missing. */
  readonly to: string;
  readonly units: bigint;
  /** `transferChecked` (default) or the older `transfer`. */
  readonly checked?: boolean;
}

/**
 * The development sender: the SLIP-0010 key at m/44'/501'/0'/0' of the development mnemonic (the
 * first account Solana wallets show for it), so a second process can send from it too.
 */
export async function developmentSender(): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(slip10Derive(developmentSolanaSeed(), [44, 501, 0, 0]).key);
}

/** The associated token account of `owner` for `mint` (SPL Token program). */
export async function ataOf(owner: string, mint: string): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({ owner: address(owner), mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return ata;
}

/** Sends transactions from `payer` through the endpoint at `url`. */
export class LocalSolana {
  readonly rpc: Rpc<SolanaRpcApi>;

  constructor(url: string, readonly payer: KeyPairSigner) {
    this.rpc = createSolanaRpc(url);
  }

  /** Asks the endpoint to airdrop `sol` SOL to `to` (default: the payer). */
  async airdrop(sol: number, to: string = this.payer.address): Promise<void> {
    await this.rpc.requestAirdrop(address(to), lamports(BigInt(sol) * 1_000_000_000n)).send();
  }

  /** One transaction of `instructions`, fee paid and signed by the payer (and any signer the instructions name). Returns its signature. */
  async send(instructions: readonly Instruction[], options: { skipPreflight?: boolean } = {}): Promise<string> {
    const { value: blockhash } = await this.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(this.payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const tx = await signTransactionMessageWithSigners(message);
    return this.rpc.sendTransaction(getBase64EncodedWireTransaction(tx), { encoding: 'base64', skipPreflight: options.skipPreflight ?? false }).send();
  }

  /** A new SPL mint of `decimals` (6 like USDC and USDT), the payer its mint authority. Returns its address. */
  async createMint(decimals = 6): Promise<string> {
    const mint = await generateKeyPairSigner();
    const space = BigInt(getMintSize());
    const rent = await this.rpc.getMinimumBalanceForRentExemption(space).send();
    await this.send([
      getCreateAccountInstruction({ payer: this.payer, newAccount: mint, lamports: rent, space, programAddress: TOKEN_PROGRAM_ADDRESS }),
      getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: this.payer.address }),
    ]);
    return mint.address;
  }

  /** Mints `units` of `mint` to `owner`'s associated token account (default: the payer's), creating it if missing. */
  async mintTo(mint: string, units: bigint, owner: string = this.payer.address): Promise<string> {
    return this.send([await this.createAta(owner, mint), getMintToInstruction({ mint: address(mint), token: await ataOf(owner, mint), mintAuthority: this.payer, amount: units })]);
  }

  /**
   * The payer's tokens to each owner's associated token account, all in one transaction:
   * createAssociatedTokenAccountIdempotent for each new recipient, then one transfer (or
   * transferChecked) each. `skipPreflight` records a failing transaction (e.g. more than the payer holds).
   */
  async transfer(transfers: readonly TokenTransfer[], options: { skipPreflight?: boolean; decimals?: number } = {}): Promise<string> {
    const instructions: Instruction[] = [];
    const created = new Set<string>();
    for (const t of transfers) {
      const destination = await ataOf(t.to, t.mint);
      if (!created.has(destination)) instructions.push(await this.createAta(t.to, t.mint));
      created.add(destination);
      const source = await ataOf(this.payer.address, t.mint);
      instructions.push(t.checked === false
        ? getTransferInstruction({ source, destination, authority: this.payer, amount: t.units })
        : getTransferCheckedInstruction({ source, mint: address(t.mint), destination, authority: this.payer, amount: t.units, decimals: options.decimals ?? 6 }));
    }
    return this.send(instructions, options);
  }

  /** A transferChecked of the payer's `units` of `mint` straight to the token account `account` (which must exist). */
  async transferToAccount(mint: string, account: string, units: bigint): Promise<string> {
    return this.send([getTransferCheckedInstruction({
      source: await ataOf(this.payer.address, mint), mint: address(mint), destination: address(account), authority: this.payer, amount: units, decimals: 6,
    })]);
  }

  /**
   * A transfer made by a program (an inner instruction): the payer's `units` of `mint` go to a
   * token account nested under `owner`'s account of a fresh mint, then the Associated Token
   * Account program's RecoverNested, signed by `owner`, moves them with an inner transferChecked
   * to `owner`'s associated token account (https://www.solana-program.com/docs/associated-token-account).
   * Returns the signature of the RecoverNested transaction (outer instruction 1).
   */
  async nestedTransfer(mint: string, units: bigint, owner: KeyPairSigner): Promise<string> {
    const ownerMint = await this.createMint(0);
    const ownerAta = await ataOf(owner.address, ownerMint);
    const nested = await ataOf(ownerAta, mint);
    await this.send([
      await this.createAta(owner.address, ownerMint), await this.createAta(ownerAta, mint),
      getTransferCheckedInstruction({ source: await ataOf(this.payer.address, mint), mint: address(mint), destination: nested, authority: this.payer, amount: units, decimals: 6 }),
    ]);
    return this.send([
      await this.createAta(owner.address, mint),
      getRecoverNestedAssociatedTokenInstruction({
        nestedAssociatedAccountAddress: nested, nestedTokenMintAddress: address(mint), destinationAssociatedAccountAddress: await ataOf(owner.address, mint),
        ownerAssociatedAccountAddress: ownerAta, ownerTokenMintAddress: address(ownerMint), walletAddress: owner,
      }),
    ]);
  }

  private createAta(owner: string, mint: string): Promise<Instruction> {
    return getCreateAssociatedTokenIdempotentInstructionAsync({ payer: this.payer, owner: address(owner), mint: address(mint) });
  }
}
