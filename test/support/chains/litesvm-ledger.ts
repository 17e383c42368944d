/**
 * A ledger of slots and blocks around a LiteSVM (litesvm runs Solana programs in-process but keeps
 * no blocks): every transaction sent lands in a slot of its own, with the token balances and
 * inner instructions an RPC node reports for it, so the JSON-RPC server in front of it
 * (litesvm-rpc-server.ts) can answer getSignaturesForAddress, getTransaction and getBlock.
 * Slots advance on each transaction and on `advance`; the finalized slot trails the confirmed one
 * by `finalityDepth`, so finality is observable.
 *
 * Blockhashes live as on Solana, not as in bare LiteSVM (whose check accepts only its latest one):
 * each produced block's hash may be a transaction's recent blockhash while the block height the
 * transaction would land at is at most the hash's block height + 150 (its `lastValidBlockHeight`,
 * https://solana.com/docs/advanced/confirmation). Block heights trail slots by half the start slot
 * (as if those slots had been skipped), so code that mixes slots and block heights is caught. A
 * transaction refused before execution (an expired or unknown blockhash, one already processed,
 * a fee payer that cannot pay) is not included in any slot, as on Solana.
 */
import { createHash } from 'node:crypto';
import { LiteSVM, type FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
import { address, getBase58Decoder, getCompiledTransactionMessageDecoder, type Transaction } from '@solana/kit';
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';

/** A compiled instruction as getTransaction's `json` encoding shows it (https://solana.com/docs/rpc/json-structures). */
export interface JsonInstruction {
  readonly programIdIndex: number;
  readonly accounts: number[];
  /** Base58 instruction data. */
  readonly data: string;
  readonly stackHeight: number | null;
}

/** A token balance entry of a transaction's meta (https://solana.com/docs/rpc/json-structures#token-balances). */
export interface JsonTokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string;
  readonly programId: string;
  readonly uiTokenAmount: { amount: string; decimals: number; uiAmount: number | null; uiAmountString: string };
}

/** One transaction as recorded: where it landed and what getTransaction answers about it. */
export interface LedgerTransaction {
  readonly signature: string;
  slot: bigint;
  readonly signatures: string[];
  readonly version: 0 | 'legacy';
  readonly message: {
    accountKeys: string[];
    header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
    recentBlockhash: string;
    instructions: JsonInstruction[];
  };
  readonly meta: {
    err: unknown;
    fee: number;
    preBalances: number[];
    postBalances: number[];
    preTokenBalances: JsonTokenBalance[];
    postTokenBalances: JsonTokenBalance[];
    innerInstructions: Array<{ index: number; instructions: JsonInstruction[] }>;
    logMessages: string[];
    computeUnitsConsumed: number;
  };
}

/** A produced slot. */
export interface LedgerBlock {
  readonly slot: bigint;
  blockhash: string;
  readonly parentSlot: bigint;
  readonly blockTime: number;
  readonly signatures: string[];
}

/** Slots a second on the clock the blocks report (Solana aims at 400 ms slots; whole seconds keep blockTime simple). */
const GENESIS_TIME = 1_700_000_000;
const FEE_LAMPORTS = 5000;
/** Blocks a blockhash stays usable after its own (MAX_PROCESSING_AGE of the Solana runtime). */
export const MAX_PROCESSING_AGE = 150n;

/** Names of LiteSVM's field-less transaction errors (the runtime's TransactionError order) reported by name. */
const FIELDLESS_ERRORS: Record<number, string> = { 2: 'AccountNotFound', 4: 'InsufficientFundsForFee', 6: 'AlreadyProcessed', 7: 'BlockhashNotFound', 11: 'SignatureFailure' };

/** What `submit` did: the signature, the error (null on success), and whether the transaction landed in a slot. */
export interface SubmitResult {
  readonly signature: string;
  readonly err: unknown;
  /** False for a transaction refused before execution: it is in no slot, and its signature stays unknown. */
  readonly included: boolean;
}

/** LiteSVM plus the slots, blocks and transaction history an RPC node keeps. */
export class LiteSvmLedger {
  readonly svm = new LiteSVM().withBlockhashCheck(false); // the ledger checks blockhashes itself (see above)
  /** The newest slot: processed and confirmed alike here. */
  slot: bigint;
  /** Slots the finalized one trails the confirmed one by (Solana: about 32). */
  finalityDepth: bigint;
  readonly blocks = new Map<bigint, LedgerBlock>();
  readonly transactions = new Map<string, LedgerTransaction>();
  /** Signatures touching each account, oldest first. */
  private readonly byAccount = new Map<string, string[]>();
  private forks = 0;
  /** Each block's hash (forks' too), to the slot it was produced at. */
  private readonly blockhashSlots = new Map<string, bigint>();
  /** Slots minus block heights. */
  private readonly heightLag: bigint;
  /** While true, transactions handed to `submit` are lost on the way to a leader: answered, never executed. */
  losing = false;

  constructor(options: { startSlot?: bigint; finalityDepth?: number } = {}) {
    this.slot = options.startSlot ?? 1000n;
    this.heightLag = this.slot / 2n;
    this.finalityDepth = BigInt(options.finalityDepth ?? 32);
    this.blocks.set(this.slot, this.newBlock(this.slot, this.slot - 1n));
  }

  /** The block height of the block at `slot` (https://solana.com/docs/rpc/http/getblockheight). */
  blockHeightOf(slot: bigint): bigint {
    return slot - this.heightLag;
  }

  /** Whether a transaction of recent blockhash `blockhash` sent now can land (in the next slot). */
  blockhashUsable(blockhash: string): boolean {
    const issued = this.blockhashSlots.get(blockhash);
    return issued !== undefined && this.blockHeightOf(this.slot + 1n) <= this.blockHeightOf(issued) + MAX_PROCESSING_AGE;
  }

  /** The hash of the newest block at `commitment` and the last block height a transaction using it can land at (getLatestBlockhash). */
  latestBlockhash(commitment: string | undefined): { blockhash: string; lastValidBlockHeight: bigint } {
    let slot = this.slotAt(commitment);
    while (!this.blocks.has(slot)) slot += 1n;
    return { blockhash: this.blocks.get(slot)!.blockhash, lastValidBlockHeight: this.blockHeightOf(slot) + MAX_PROCESSING_AGE };
  }

  /** The highest slot at `commitment` (`processed` and `confirmed` are the newest slot). */
  slotAt(commitment: string | undefined): bigint {
    if (commitment === 'processed' || commitment === 'confirmed') return this.slot;
    const finalized = this.slot - this.finalityDepth;
    return finalized > 0n ? finalized : 0n;
  }

  /** Produces `count` empty slots. */
  advance(count = 1): void {
    for (let i = 0; i < count; i++) this.produce([]);
  }

  /** Makes everything produced so far final (the finalized slot catches up with the confirmed one, adding empty slots). */
  finalizeAll(): void {
    this.advance(Number(this.finalityDepth));
  }

  /**
   * Executes `tx` in LiteSVM and records it in a new slot, failed or not (a failed transaction is
   * included on Solana too, with `meta.err`), unless it is refused before execution: its signature
   * already processed, its blockhash unknown or past its last valid block height at the slot it
   * would land at, or a field-less error of LiteSVM (a fee payer that cannot pay, a bad signature);
   * then nothing is recorded. While `losing`, nothing is executed either (`err` null, not included).
   */
  submit(tx: Transaction): SubmitResult {
    const compiled = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    if (compiled.version !== 'legacy' && compiled.version !== 0) throw new Error(`transaction message version ${compiled.version} is not supported here`);
    const keys = compiled.staticAccounts.map(String);
    const signatures = Object.values(tx.signatures).map((s) => getBase58Decoder().decode(s!));
    if (this.losing) return { signature: signatures[0]!, err: null, included: false };
    if (this.transactions.has(signatures[0]!)) return { signature: signatures[0]!, err: 'AlreadyProcessed', included: false };
    if (!this.blockhashUsable(String(compiled.lifetimeToken))) return { signature: signatures[0]!, err: 'BlockhashNotFound', included: false };
    const preTokenBalances = this.tokenBalances(keys);
    const preBalances = keys.map((k) => Number(this.svm.getBalance(address(k)) ?? 0n));
    const result = this.svm.sendTransaction(tx);
    const failed = 'err' in result ? (result as FailedTransactionMetadata) : undefined;
    const refused = failed?.err();
    if (typeof refused === 'number') return { signature: signatures[0]!, err: FIELDLESS_ERRORS[refused] ?? `TransactionError(${refused})`, included: false };
    const meta: TransactionMetadata = failed ? failed.meta() : (result as TransactionMetadata);
    this.svm.expireBlockhash();
    const header = compiled.header;
    const record: LedgerTransaction = {
      signature: signatures[0]!, slot: 0n, signatures, version: compiled.version === 'legacy' ? 'legacy' : 0,
      message: {
        accountKeys: keys,
        header: { numRequiredSignatures: header.numSignerAccounts, numReadonlySignedAccounts: header.numReadonlySignerAccounts, numReadonlyUnsignedAccounts: header.numReadonlyNonSignerAccounts },
        recentBlockhash: String(compiled.lifetimeToken),
        instructions: compiled.instructions.map((ix) => ({
          programIdIndex: ix.programAddressIndex, accounts: [...(ix.accountIndices ?? [])], data: getBase58Decoder().decode(ix.data ?? new Uint8Array()), stackHeight: null,
        })),
      },
      meta: {
        err: failed ? errorJson(failed.err()) : null,
        fee: FEE_LAMPORTS,
        preBalances,
        postBalances: keys.map((k) => Number(this.svm.getBalance(address(k)) ?? 0n)),
        preTokenBalances,
        postTokenBalances: this.tokenBalances(keys),
        innerInstructions: meta.innerInstructions().flatMap((group, index) => (group.length === 0 ? [] : [{
          index,
          instructions: group.map((inner) => ({
            programIdIndex: inner.instruction().programIdIndex(), accounts: [...inner.instruction().accounts()],
            data: getBase58Decoder().decode(inner.instruction().data()), stackHeight: inner.stackHeight(),
          })),
        }])),
        logMessages: meta.logs(),
        computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      },
    };
    this.produce([record]);
    return { signature: record.signature, err: record.meta.err, included: true };
  }

  /** Signatures of transactions touching `account` at slots up to `maxSlot`, newest first. */
  signaturesFor(account: string, maxSlot: bigint): LedgerTransaction[] {
    return (this.byAccount.get(account) ?? []).map((s) => this.transactions.get(s)!).filter((t) => t.slot <= maxSlot).reverse();
  }

  /**
   * SPL Token accounts owned by `owner` (optionally of one `mint`) among the accounts any recorded
   * transaction touched (LiteSVM cannot list its accounts; every token account here was created by a
   * transaction), as getTokenAccountsByOwner lists them: address and raw account.
   */
  tokenAccountsOf(owner: string, mint?: string): Array<{ pubkey: string; account: Extract<ReturnType<LiteSVM['getAccount']>, { exists: true }> }> {
    const found: Array<{ pubkey: string; account: Extract<ReturnType<LiteSVM['getAccount']>, { exists: true }> }> = [];
    for (const key of [...this.byAccount.keys()].sort()) {
      const account = this.svm.getAccount(address(key));
      if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== 165) continue;
      const token = getTokenDecoder().decode(account.data);
      if (token.owner === owner && (mint === undefined || token.mint === mint)) found.push({ pubkey: key, account });
    }
    return found;
  }

  /**
   * A fork replaced the slot holding `signature`: the transaction is gone from the history (its
   * effects stay in LiteSVM, which cannot roll back) and the slot's block has another hash.
   */
  drop(signature: string): void {
    const tx = this.transactions.get(signature);
    if (!tx) throw new Error(`no transaction ${signature}`);
    this.transactions.delete(signature);
    for (const key of tx.message.accountKeys) this.byAccount.set(key, (this.byAccount.get(key) ?? []).filter((s) => s !== signature));
    const block = this.blocks.get(tx.slot)!;
    block.signatures.splice(block.signatures.indexOf(signature), 1);
    block.blockhash = this.hashOf(tx.slot, ++this.forks);
    this.blockhashSlots.set(block.blockhash, tx.slot);
  }

  private produce(transactions: LedgerTransaction[]): void {
    const parent = this.slot;
    this.slot += 1n;
    const block = this.newBlock(this.slot, parent);
    for (const tx of transactions) {
      tx.slot = this.slot;
      this.transactions.set(tx.signature, tx);
      block.signatures.push(tx.signature);
      for (const key of new Set(tx.message.accountKeys)) this.byAccount.set(key, [...(this.byAccount.get(key) ?? []), tx.signature]);
    }
    this.blocks.set(this.slot, block);
  }

  private newBlock(slot: bigint, parentSlot: bigint): LedgerBlock {
    const blockhash = this.hashOf(slot, 0);
    this.blockhashSlots.set(blockhash, slot);
    return { slot, parentSlot, blockhash, blockTime: GENESIS_TIME + Number(slot), signatures: [] };
  }

  private hashOf(slot: bigint, fork: number): string {
    return getBase58Decoder().decode(createHash('sha256').update(`slot:${slot}:${fork}`).digest());
  }

  /** SPL Token accounts among `keys`, as a transaction meta's token balances (owner, mint, amount with the mint's decimals). */
  private tokenBalances(keys: string[]): JsonTokenBalance[] {
    const balances: JsonTokenBalance[] = [];
    keys.forEach((key, accountIndex) => {
      const account = this.svm.getAccount(address(key));
      if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== 165) return;
      const token = getTokenDecoder().decode(account.data);
      const mint = this.svm.getAccount(token.mint);
      const decimals = mint.exists ? getMintDecoder().decode(mint.data).decimals : 0;
      const ui = Number(token.amount) / 10 ** decimals;
      balances.push({
        accountIndex, mint: token.mint, owner: token.owner, programId: TOKEN_PROGRAM_ADDRESS,
        uiTokenAmount: { amount: token.amount.toString(), decimals, uiAmount: ui, uiAmountString: String(ui) },
      });
    });
    return balances;
  }
}

/**
 * LiteSVM's transaction error as the RPC's TransactionError JSON: `{ "InstructionError": [index,
 * { "Custom": code }] }` for a program's custom error, else the error's name
 * (https://solana.com/docs/rpc/json-structures, meta `err`).
 */
function errorJson(err: unknown): unknown {
  const text = String(err);
  const instruction = /InstructionError \{ index: (\d+), error: (\w+)(?: \{ code: (\d+) \})?/.exec(text);
  if (instruction) {
    const inner = instruction[3] !== undefined ? { Custom: Number(instruction[3]) } : instruction[2]!.replace(/^InstructionError/, '');
    return { InstructionError: [Number(instruction[1]), inner] };
  }
  return /^TransactionError(\w+)/.exec(text)?.[1] ?? 'TransactionError';
}
