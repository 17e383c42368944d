/**
 * The Solana refund sender on litesvm behind its JSON-RPC server (docs/chains.md § Solana refunds;
 * docs/decisions.md § Refunds), each protocol edge on its own: the transfer and its token account,
 * broadcasts, lookups, expiry at finality, the shortfall check. The worker's pass over it is in
 * solana-refund-pass.test.ts.
 */
import { address } from '@solana/kit';
import { SolanaHotWalletSigner } from '../../src/adapters/chains/solana/solana-hot-wallet-signer';
import { SolanaRefundSender } from '../../src/adapters/chains/solana/solana-refund-sender';
import { solanaRpc } from '../../src/adapters/chains/solana/solana-rpc';
import type { WatchedToken } from '../../src/core/deposits/chain-ports';
import type { LiteSvmRpc } from '../support/chains/litesvm-rpc-server';
import { ataOf, type LocalSolana } from '../support/chains/local-solana';
import { startRpcProxy } from '../support/chains/rpc-proxy';
import { hotWalletKey, recipient, refundOf, SolanaRefundChain } from '../support/chains/solana-refund-fixture';
import { solanaTxHash } from '../support/tx-hashes';

const DEPTH = 8;

let chain: SolanaRefundChain;
let rpc: LiteSvmRpc;
let funder: LocalSolana;
let mint: string;
let tokens: WatchedToken[];
const newSender = (...args: Parameters<SolanaRefundChain['newSender']>) => chain.newSender(...args);
const tokenBalance = (owner: string) => chain.tokenBalance(owner);
const transfersTo = (owner: string) => chain.transfersTo(owner);

beforeAll(async () => {
  chain = await SolanaRefundChain.start(DEPTH);
  ({ rpc, funder, mint, tokens } = chain);
});
afterAll(async () => {
  await chain?.close();
});
afterEach(() => {
  rpc.ledger.losing = false;
  rpc.preflightAlways = false;
});

describe('signing and sending', () => {
  it('a refund lands as a TransferChecked of its exact base units to the recipient\'s existing token account, from the hot wallet\'s', async () => {
    const sender = await newSender({ units: 50_000_000n });
    const to = await recipient();
    await funder.mintTo(mint, 1n, to.address);
    const signed = await sender.sign(refundOf('12.345678', to.address), { lastNonce: null });
    expect(signed).toMatchObject({ nonce: null, blockhash: expect.any(String), lastValidHeight: expect.any(BigInt) });
    await sender.broadcast(signed.rawTransaction);
    const tx = rpc.ledger.transactions.get(signed.txHash)!;
    expect(tx.meta.err).toBeNull();
    expect(tx.message.recentBlockhash).toBe(signed.blockhash);
    expect(tx.message.accountKeys[0]).toBe(sender.wallet);
    expect(tokenBalance(to.address)).toBe(1n + 12_345_678n);
    expect(tokenBalance(sender.wallet)).toBe(50_000_000n - 12_345_678n);
    expect(Buffer.from(signed.rawTransaction, 'base64').length).toBeGreaterThan(64);
  });

  it('signs on a confirmed blockhash and stores its last valid block height, a block height (not a slot)', async () => {
    const sender = await newSender();
    const signed = await sender.sign(refundOf('1', (await recipient()).address), { lastNonce: null });
    const latest = rpc.ledger.latestBlockhash('confirmed');
    expect([signed.blockhash, signed.lastValidHeight]).toEqual([latest.blockhash, latest.lastValidBlockHeight]);
    expect(signed.lastValidHeight).toBe(rpc.ledger.blockHeightOf(rpc.ledger.slot) + 150n);
    expect(signed.lastValidHeight).toBeLessThan(rpc.ledger.slot);
  });

  it('a recipient without a token account for the mint gets one created in the same transaction, its rent paid by the hot wallet', async () => {
    const sender = await newSender({ units: 5_000_000n, sol: 1n });
    const to = await recipient();
    const ata = await ataOf(to.address, mint);
    expect(rpc.ledger.svm.getAccount(ata).exists).toBe(false);
    const solBefore = rpc.ledger.svm.getBalance(address(sender.wallet))!;
    const signed = await sender.sign(refundOf('5', to.address), { lastNonce: null });
    await sender.broadcast(signed.rawTransaction);
    expect(rpc.ledger.transactions.get(signed.txHash)!.meta.err).toBeNull();
    expect(tokenBalance(to.address)).toBe(5_000_000n);
    const rent = rpc.ledger.svm.minimumBalanceForRentExemption(165n);
    expect(solBefore - rpc.ledger.svm.getBalance(address(sender.wallet))!).toBe(rent + 5_000n);
  });

  it('broadcasting the same transaction twice is no error, and it lands once', async () => {
    const sender = await newSender({ units: 10_000_000n });
    const to = await recipient();
    const signed = await sender.sign(refundOf('3', to.address), { lastNonce: null });
    await sender.broadcast(signed.rawTransaction);
    await expect(sender.broadcast(signed.rawTransaction)).resolves.toBeUndefined();
    expect(transfersTo(to.address)).toEqual([signed.txHash]);
    expect(tokenBalance(to.address)).toBe(3_000_000n);
  });

  it('a node that simulates anyway: "already processed" and "blockhash not found" are no error, another refusal throws', async () => {
    const sender = await newSender({ units: 10_000_000n });
    const to = await recipient();
    const signed = await sender.sign(refundOf('2', to.address), { lastNonce: null });
    await sender.broadcast(signed.rawTransaction);
    rpc.preflightAlways = true;
    await expect(sender.broadcast(signed.rawTransaction)).resolves.toBeUndefined();
    const late = await sender.sign(refundOf('2', to.address), { lastNonce: null });
    rpc.ledger.advance(151);
    await expect(sender.broadcast(late.rawTransaction)).resolves.toBeUndefined();
    expect(rpc.ledger.transactions.has(late.txHash)).toBe(false);
    const tooMuch = await sender.sign(refundOf('1000', to.address), { lastNonce: null });
    await expect(sender.broadcast(tooMuch.rawTransaction)).rejects.toThrow();
    expect(tokenBalance(to.address)).toBe(2_000_000n);
  });

  it('refuses what it cannot build: an unknown currency, a malformed address or amount, a replacement', async () => {
    const sender = await newSender({ units: 0n });
    const to = (await recipient()).address;
    await expect(sender.sign({ ...refundOf('1', to), currency: 'USDT' }, { lastNonce: null })).rejects.toThrow('no Solana mint is configured for USDT');
    await expect(sender.sign(refundOf('1', '0x52908400098527886E0F7030069857D2E4169EE7'), { lastNonce: null })).rejects.toThrow(/refundAddress is not a Solana address/);
    await expect(sender.sign(refundOf('1.0000001', to), { lastNonce: null })).rejects.toThrow(/cannot be sent/);
    await expect(sender.sign(refundOf('0', to), { lastNonce: null })).rejects.toThrow(/amount 0 cannot be sent/);
    await expect(sender.sign(refundOf('1', to), { lastNonce: null, replacing: { id: 'rfa_1' } as never })).rejects.toThrow(/never replaced/);
    expect(sender.stuck()).toBe(false);
  });

  it('refuses a signer that signs with another key than its address, or answers no 64-byte signature: nothing is handed back', async () => {
    const ours = await newSender();
    const other = new SolanaHotWalletSigner(hotWalletKey(), 'other');
    const rpcOf = solanaRpc({ rpcUrls: [rpc.url], rpcTimeoutMs: 5_000 }, { requested: () => undefined });
    const to = (await recipient()).address;
    const impostor = new SolanaRefundSender(rpcOf, { chain: 'SOLANA', address: ours.wallet, sign: (m) => other.sign(m) }, tokens);
    await expect(impostor.sign(refundOf('1', to), { lastNonce: null })).rejects.toThrow('the Solana hot wallet signer signed with another key than its address');
    const short = new SolanaRefundSender(rpcOf, { chain: 'SOLANA', address: ours.wallet, sign: async () => new Uint8Array(65) }, tokens);
    await expect(short.sign(refundOf('1', to), { lastNonce: null })).rejects.toThrow(/no 64-byte ed25519 signature/);
    expect(() => new SolanaRefundSender(rpcOf, { chain: 'BSC', address: ours.wallet, sign: async () => new Uint8Array(64) }, tokens)).toThrow(/needs a Solana signer/);
    // A key file whose public half is not its secret's: each signing fails, naming the variable.
    const halves = Uint8Array.from([...hotWalletKey().subarray(0, 32), ...hotWalletKey().subarray(32)]);
    const mismatched = new SolanaRefundSender(rpcOf, new SolanaHotWalletSigner(halves, 'SOLANA_HOT_WALLET_KEY_FILE'), tokens);
    await expect(mismatched.sign(refundOf('1', to), { lastNonce: null })).rejects.toThrow('SOLANA_HOT_WALLET_KEY_FILE: is not an ed25519 key pair');
  });
});

describe('looking up', () => {
  it('landed: at its slot, reported above the finalized slot until it is final', async () => {
    const sender = await newSender({ units: 10_000_000n });
    const signed = await sender.sign(refundOf('1', (await recipient()).address), { lastNonce: null });
    await sender.broadcast(signed.rawTransaction);
    const slot = rpc.ledger.transactions.get(signed.txHash)!.slot;
    const before = await sender.heights();
    const early = await sender.lookup(signed.txHash);
    expect(early.status).toBe('landed');
    expect(early.status !== 'not_found' && early.height).toBeGreaterThan(before.finalized);
    rpc.ledger.finalizeAll();
    const after = await sender.heights();
    expect(await sender.lookup(signed.txHash)).toEqual({ status: 'landed', height: slot });
    expect(slot).toBeLessThanOrEqual(after.finalized);
    expect(after).toEqual({ head: rpc.ledger.slot, finalized: rpc.ledger.slot - BigInt(DEPTH) });
  });

  it('a status a node has not finalized yet is never taken for final, even at a slot another node has finalized', async () => {
    const sender = await newSender({ units: 10_000_000n });
    const signed = await sender.sign(refundOf('1', (await recipient()).address), { lastNonce: null });
    await sender.broadcast(signed.rawTransaction);
    rpc.ledger.finalizeAll();
    // A node behind the others: its status still says confirmed.
    const lagging = await startRpcProxy(rpc.url, {
      rewrite: (call, result) => (call.method !== 'getSignatureStatuses' ? result : {
        ...(result as object), value: (result as { value: Array<Record<string, unknown> | null> }).value.map((v) => v && { ...v, confirmationStatus: 'confirmed' }),
      }),
    });
    try {
      const behind = await newSender({ units: 0n, lamports: 0n }, lagging.url);
      const { finalized } = await behind.heights();
      expect(rpc.ledger.transactions.get(signed.txHash)!.slot).toBeLessThanOrEqual(finalized);
      expect(await behind.lookup(signed.txHash)).toEqual({ status: 'landed', height: finalized + 1n });
      expect(await sender.lookup(signed.txHash)).toEqual({ status: 'landed', height: rpc.ledger.transactions.get(signed.txHash)!.slot });
    } finally {
      await lagging.close();
    }
  });

  it('no status from a node behind the finalized slot already read is no answer: it throws, and the pass asks again', async () => {
    const sender = await newSender({ units: 10_000_000n });
    const signed = await sender.sign(refundOf('1', (await recipient()).address), { lastNonce: null });
    await sender.broadcast(signed.rawTransaction);
    rpc.ledger.finalizeAll();
    // A node that has not reached the transaction's slot yet: no status, its context at an old slot.
    const behindNode = await startRpcProxy(rpc.url, {
      rewrite: (call, result) => (call.method !== 'getSignatureStatuses' ? result : { context: { slot: 1 }, value: [null] }),
    });
    try {
      const behind = await newSender({ units: 0n, lamports: 0n }, behindNode.url);
      expect(await behind.lookup(signed.txHash)).toEqual({ status: 'not_found' });
      await behind.expired({ id: 'rfa_x', lastValidHeight: signed.lastValidHeight } as never);
      await expect(behind.lookup(signed.txHash)).rejects.toThrow(/the answering node \(slot 1\) is behind the finalized slot/);
    } finally {
      await behindNode.close();
    }
  });

  it('reverted: a transfer of more than the hot wallet holds lands failed, with the error as reason', async () => {
    const sender = await newSender({ units: 1_000_000n });
    const to = await recipient();
    const signed = await sender.sign(refundOf('2', to.address), { lastNonce: null });
    await sender.broadcast(signed.rawTransaction);
    rpc.ledger.finalizeAll();
    await sender.heights();
    expect(await sender.lookup(signed.txHash)).toEqual({
      status: 'reverted', height: rpc.ledger.transactions.get(signed.txHash)!.slot, reason: expect.stringMatching(/^transaction error .*InstructionError/),
    });
    expect(tokenBalance(to.address)).toBeUndefined();
  });

  it('unknown: a signature the chain never saw, and a signed transaction lost before a leader, are not found', async () => {
    const sender = await newSender();
    expect(await sender.lookup(solanaTxHash())).toEqual({ status: 'not_found' });
    rpc.ledger.losing = true;
    const signed = await sender.sign(refundOf('1', (await recipient()).address), { lastNonce: null });
    await sender.broadcast(signed.rawTransaction);
    expect(await sender.lookup(signed.txHash)).toEqual({ status: 'not_found' });
  });
});

describe('expiry', () => {
  it('false until the finalized block height has passed the last valid block height, then true', async () => {
    const sender = await newSender();
    rpc.ledger.losing = true;
    const signed = await sender.sign(refundOf('1', (await recipient()).address), { lastNonce: null });
    await sender.broadcast(signed.rawTransaction);
    const attempt = { id: 'rfa_x', lastValidHeight: signed.lastValidHeight } as never;
    expect(await sender.expired(attempt)).toBe(false);
    // The head passes the last valid height, finality not yet.
    const head = rpc.ledger.blockHeightOf(rpc.ledger.slot);
    rpc.ledger.advance(Number(signed.lastValidHeight! - head) + 1);
    expect(rpc.ledger.blockHeightOf(rpc.ledger.slot)).toBeGreaterThan(signed.lastValidHeight!);
    expect(await sender.expired(attempt)).toBe(false);
    rpc.ledger.advance(DEPTH - 1);
    expect(await sender.expired(attempt)).toBe(false);
    rpc.ledger.advance(1);
    expect(await sender.expired(attempt)).toBe(true);
    // And the chain now refuses it for good.
    rpc.ledger.losing = false;
    await sender.broadcast(signed.rawTransaction);
    expect(await sender.lookup(signed.txHash)).toEqual({ status: 'not_found' });
  });
});

describe('shortfall', () => {
  it('token: the hot wallet holds less than the refund, or has no token account', async () => {
    const to = (await recipient()).address;
    expect(await (await newSender({ units: 999_999n })).shortfall(refundOf('1', to))).toBe('token');
    expect(await (await newSender({ units: 0n })).shortfall(refundOf('1', to))).toBe('token');
  });

  it('gas: SOL below the fee, the recipient\'s token account rent when it has none, and the wallet\'s own rent-exempt minimum', async () => {
    const rent0 = rpc.ledger.svm.minimumBalanceForRentExemption(0n);
    const rentAta = rpc.ledger.svm.minimumBalanceForRentExemption(165n);
    const withAta = await recipient();
    await funder.mintTo(mint, 1n, withAta.address);
    const without = (await recipient()).address;
    const exact = await newSender({ units: 1_000_000n, lamports: rent0 + 5_000n });
    expect(await exact.shortfall(refundOf('1', withAta.address))).toBeUndefined();
    expect(await exact.shortfall(refundOf('1', without))).toBe('gas');
    const short = await newSender({ units: 1_000_000n, lamports: rent0 + 4_999n });
    expect(await short.shortfall(refundOf('1', withAta.address))).toBe('gas');
    const withRent = await newSender({ units: 1_000_000n, lamports: rent0 + rentAta + 5_000n });
    expect(await withRent.shortfall(refundOf('1', without))).toBeUndefined();
    // What it judged enough is enough: the transfer with the account's creation lands.
    const signed = await withRent.sign(refundOf('1', without), { lastNonce: null });
    await withRent.broadcast(signed.rawTransaction);
    expect(rpc.ledger.transactions.get(signed.txHash)?.meta.err).toBeNull();
  });

  it('none: enough of the token and of SOL', async () => {
    expect(await (await newSender({ units: 1_000_000n })).shortfall(refundOf('1', (await recipient()).address))).toBeUndefined();
  });
});

/** The worker's pass (docs/decisions.md § Refunds: never twice) over the real sender and in-memory storage. */
