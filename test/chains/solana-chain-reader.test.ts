/**
 * The Solana reader (docs/chains.md § Solana reader) against a real SVM: litesvm behind the small
 * JSON-RPC server of test/support, transactions built with @solana/kit and @solana-program/token.
 * Each edge: transfer, transferChecked, a transfer made by a program (inner instruction), a failed
 * transaction, a foreign mint, two transfers in one transaction, the cursor, finality and
 * presence, and failover to the second endpoint when the first is down.
 */
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { solanaChainAdapter } from '../../src/adapters/chains/solana/solana-chain';
import { SolanaChainReader } from '../../src/adapters/chains/solana/solana-chain-reader';
import { solanaRpc } from '../../src/adapters/chains/solana/solana-rpc';
import type { ChainTransfer } from '../../src/core/deposits/chain-ports';
import { LiteSvmLedger } from '../support/chains/litesvm-ledger';
import { startLiteSvmRpc, type LiteSvmRpc } from '../support/chains/litesvm-rpc-server';
import { ataOf, LocalSolana } from '../support/chains/local-solana';
import { solanaTxHash } from '../support/tx-hashes';

const DEPTH = 4;
let server: LiteSvmRpc;
let sender: LocalSolana;
let usdc: string;
let usdt: string;
let foreign: string;
const requests: Array<{ endpoint: string; method: string; ok: boolean }> = [];

beforeAll(async () => {
  server = await startLiteSvmRpc(new LiteSvmLedger({ finalityDepth: DEPTH }));
  sender = new LocalSolana(server.url, await generateKeyPairSigner());
  await sender.airdrop(100);
  [usdc, usdt, foreign] = [await sender.createMint(6), await sender.createMint(6), await sender.createMint(6)];
  for (const mint of [usdc, usdt, foreign]) await sender.mintTo(mint, 1_000_000_000000n);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

function readerOver(urls: string[], settings: { signaturesPerPage?: number; startSlot?: bigint } = {}): SolanaChainReader {
  const metrics = { requested: (_chain: string, endpoint: string, method: string, ok: boolean) => requests.push({ endpoint, method, ok }) };
  return new SolanaChainReader(solanaRpc({ rpcUrls: urls, rpcTimeoutMs: 5000 }, metrics), { mints: [usdc, usdt], ...settings });
}

/** A scan of `owners` from no cursor up to the head. */
async function scanAll(reader: SolanaChainReader, owners: string[], cursor?: string) {
  const { head } = await reader.heights();
  return reader.scan(owners, cursor, head);
}

async function expected(signature: string, fields: Partial<ChainTransfer>): Promise<ChainTransfer> {
  const slot = server.ledger.transactions.get(signature)!.slot;
  return {
    chain: 'SOLANA', txHash: signature, index: 256, height: slot, blockHash: server.ledger.blocks.get(slot)!.blockhash,
    token: usdc, from: sender.payer.address, to: '', units: 0n, decimals: 6, ...fields,
  };
}

const owner = async (): Promise<KeyPairSigner> => generateKeyPairSigner();

describe('Solana reader over litesvm', () => {
  it('heights are the confirmed and finalized slots, the finalized one trailing by the ledger depth', async () => {
    const reader = readerOver([server.url]);
    server.ledger.advance(2);
    expect(await reader.heights()).toEqual({ head: server.ledger.slot, finalized: server.ledger.slot - BigInt(DEPTH) });
  });

  it('a transferChecked to an owner\'s associated token account is a transfer to the owner: signature, instruction index, slot and blockhash, mint, sender\'s owner, units', async () => {
    const to = (await owner()).address;
    const signature = await sender.transfer([{ mint: usdc, to, units: 12_345678n }]);
    const { transfers } = await scanAll(readerOver([server.url]), [to]);
    expect(transfers).toEqual([await expected(signature, { to, units: 12_345678n })]);
  });

  it('a plain transfer (no mint in the instruction) takes its mint from the token balances; two transfers in one transaction are two, by index', async () => {
    const to = (await owner()).address;
    const signature = await sender.transfer([{ mint: usdt, to, units: 5n, checked: false }, { mint: usdc, to, units: 7_000000n }]);
    const { transfers } = await scanAll(readerOver([server.url]), [to]);
    // Outer 0 and 2 create the two associated token accounts; 1 and 3 transfer.
    expect(transfers).toEqual([
      await expected(signature, { to, token: usdt, units: 5n, index: 256 }),
      await expected(signature, { to, token: usdc, units: 7_000000n, index: 3 * 256 }),
    ]);
  });

  it('a transfer a program makes (inner instruction) is read at outer × 256 + position + 1, from the source account\'s owner', async () => {
    const wallet = await owner();
    await sender.airdrop(1, wallet.address);
    const signature = await sender.nestedTransfer(usdc, 3_000000n, wallet);
    const { transfers } = await scanAll(readerOver([server.url]), [wallet.address]);
    const tx = server.ledger.transactions.get(signature)!;
    // RecoverNested is outer instruction 1; its first inner instruction is the transferChecked out of the nested account.
    expect(tx.meta.innerInstructions.find((g) => g.index === 1)!.instructions[0]!.programIdIndex).toBe(tx.message.accountKeys.indexOf(TOKEN_PROGRAM_ADDRESS));
    const nestedOwner = tx.meta.preTokenBalances.find((b) => b.owner !== wallet.address && b.mint === usdc)!.owner;
    expect(transfers).toEqual([await expected(signature, { to: wallet.address, units: 3_000000n, index: 257, from: nestedOwner })]);
    expect(nestedOwner).toBe(await ataOf(wallet.address, tx.meta.preTokenBalances.find((b) => b.mint !== usdc)!.mint));
  });

  it('a failed transaction holds no transfer, and another mint, alongside a watched one or alone, is returned with its own mint', async () => {
    const to = (await owner()).address;
    await sender.transfer([{ mint: usdc, to, units: 1n }]);
    const failed = await sender.transfer([{ mint: usdc, to, units: 10n ** 18n }], { skipPreflight: true });
    expect(server.ledger.transactions.get(failed)!.meta.err).not.toBeNull();
    const mixed = await sender.transfer([{ mint: usdc, to, units: 2n }, { mint: foreign, to, units: 9n }]);
    const alone = await sender.transfer([{ mint: foreign, to, units: 4n }]);
    const { transfers } = await scanAll(readerOver([server.url]), [to]);
    expect(transfers.some((t) => t.txHash === failed)).toBe(false);
    expect(transfers.filter((t) => t.txHash === mixed).map((t) => [t.token, t.units, t.index])).toEqual([[usdc, 2n, 256], [foreign, 9n, 3 * 256]]);
    expect(transfers.filter((t) => t.txHash === alone).map((t) => [t.token, t.units, t.index])).toEqual([[foreign, 4n, 256]]);
    expect(transfers.map((t) => [t.token, t.units])).toEqual([[usdc, 1n], [usdc, 2n], [foreign, 9n], [foreign, 4n]]);
  });

  it('a foreign mint sent alone to the owner\'s own account for that mint (a transaction touching no watched account) is read with its mint', async () => {
    const to = (await owner()).address;
    const alone = await sender.transfer([{ mint: foreign, to, units: 6_000000n }]);
    const watched = await Promise.all([usdc, usdt].map((m) => ataOf(to, m)));
    expect(server.ledger.transactions.get(alone)!.message.accountKeys.some((k) => watched.includes(k as never))).toBe(false);
    const { transfers } = await scanAll(readerOver([server.url]), [to]);
    expect(transfers.map((t) => [t.txHash, t.token, t.units, t.to])).toEqual([[alone, foreign, 6_000000n, to]]);
    expect(server.calls).toContain('getTokenAccountsByOwner');
  });

  it('only transfers to the owners asked about; the cursor resumes after final signatures and reads the non-final ones again', async () => {
    const [a, b] = [(await owner()).address, (await owner()).address];
    const first = await sender.transfer([{ mint: usdc, to: a, units: 1_000000n }, { mint: usdc, to: b, units: 2_000000n }]);
    const reader = readerOver([server.url]);
    const scanned = await scanAll(reader, [a]);
    expect(scanned.transfers.map((t) => [t.txHash, t.to])).toEqual([[first, a]]);
    expect(scanned.scannedTo).toBe(server.ledger.slot);
    // Not final yet: read again.
    expect((await scanAll(reader, [a], scanned.cursor)).transfers.map((t) => t.txHash)).toEqual([first]);
    server.ledger.finalizeAll();
    // Final now: read once more (the cursor given predates it), then the cursor moves past it.
    const once = await scanAll(reader, [a], scanned.cursor);
    expect(once.transfers.map((t) => t.txHash)).toEqual([first]);
    const settled = await scanAll(reader, [a], once.cursor);
    expect(settled.transfers).toEqual([]);
    const second = await sender.transfer([{ mint: usdc, to: a, units: 3_000000n }]);
    expect((await scanAll(reader, [a], settled.cursor)).transfers.map((t) => t.txHash)).toEqual([second]);
  });

  it('pages getSignaturesForAddress with `before` through a long history, and reads nothing below the start slot', async () => {
    const to = (await owner()).address;
    const signatures: string[] = [];
    for (let i = 1; i <= 5; i++) signatures.push(await sender.transfer([{ mint: usdc, to, units: BigInt(i) }]));
    requests.length = 0;
    const { transfers } = await scanAll(readerOver([server.url], { signaturesPerPage: 2 }), [to]);
    expect(transfers.map((t) => t.txHash)).toEqual(signatures);
    expect(requests.filter((r) => r.method === 'getSignaturesForAddress')).toHaveLength(3 + 1);
    const third = server.ledger.transactions.get(signatures[2]!)!.slot;
    const late = await scanAll(readerOver([server.url], { signaturesPerPage: 2, startSlot: third }), [to]);
    expect(late.transfers.map((t) => t.units)).toEqual([3n, 4n, 5n]);
  });

  it('presence: present once final at its slot; absent when a fork removed it; throws while the node has not finalized the slot', async () => {
    const to = (await owner()).address;
    const reader = readerOver([server.url]);
    const kept = await sender.transfer([{ mint: usdc, to, units: 1_000000n }]);
    const gone = await sender.transfer([{ mint: usdc, to, units: 2_000000n }]);
    const [k, g] = (await scanAll(reader, [to])).transfers;
    await expect(reader.presence(k!)).rejects.toThrow(/finalized slot/);
    server.ledger.drop(gone);
    server.ledger.finalizeAll();
    expect(await reader.presence(k!)).toBe('present');
    expect(await reader.presence(g!)).toBe('absent');
    expect(await reader.presence({ ...k!, height: k!.height + 1n })).toBe('absent');
    expect(await reader.presence({ ...k!, index: 0 })).toBe('absent');
    expect(k!.txHash).toBe(kept);
  });

  it('one transaction (hand-sent refund check): its transfers to the owner asked about at its slot; not_found for an unknown signature; failed for one that erred', async () => {
    const [to, stranger] = [(await owner()).address, (await owner()).address];
    const reader = readerOver([server.url]);
    const signature = await sender.transfer([{ mint: usdc, to, units: 7_000000n }, { mint: usdc, to: stranger, units: 1n }]);
    const slot = server.ledger.transactions.get(signature)!.slot;
    expect(await reader.transfersIn(signature, to)).toEqual({
      status: 'landed', height: slot, transfers: [{ ...(await expected(signature, { to, units: 7_000000n })), blockHash: '' }],
    });
    expect(await reader.transfersIn(solanaTxHash(), to)).toEqual({ status: 'not_found' });
    const failed = await sender.transfer([{ mint: usdc, to, units: 10n ** 18n }], { skipPreflight: true });
    expect(await reader.transfersIn(failed, to)).toEqual({ status: 'failed', height: server.ledger.transactions.get(failed)!.slot });
  });

  it('fails over to the second endpoint when the first is down, counting each failed request against the first', async () => {
    const dead = await startLiteSvmRpc(server.ledger);
    const down = await startLiteSvmRpc(server.ledger);
    await dead.close();
    down.down = true;
    try {
      const to = (await owner()).address;
      const signature = await sender.transfer([{ mint: usdc, to, units: 4_000000n }]);
      requests.length = 0;
      const { transfers } = await scanAll(readerOver([dead.url, down.url, server.url]), [to]);
      expect(transfers).toEqual([await expected(signature, { to, units: 4_000000n })]);
      const [deadLabel, downLabel, liveLabel] = [dead.url, down.url, server.url].map((u) => new URL(u).host);
      const methods = ['getSlot', 'getTokenAccountsByOwner', 'getSignaturesForAddress', 'getTransaction', 'getBlock'];
      for (const label of [deadLabel, downLabel]) {
        expect(requests.filter((r) => r.endpoint === label).every((r) => !r.ok)).toBe(true);
        expect(new Set(requests.filter((r) => r.endpoint === label).map((r) => r.method))).toEqual(new Set(methods));
      }
      expect(requests.filter((r) => r.endpoint === liveLabel).every((r) => r.ok)).toBe(true);
      down.down = false;
      await dead.close().catch(() => undefined);
    } finally {
      await down.close();
    }
    await expect(readerOver([dead.url]).heights()).rejects.toThrow();
  });

  it('the chain adapter built from SOLANA_RPC_URLS fails over too, and reports each failed request against the endpoint\'s host, never its URL', async () => {
    const dead = await startLiteSvmRpc(server.ledger);
    await dead.close();
    const errors: Array<[string, string]> = [];
    const supply = solanaChainAdapter({
      variables: { SOLANA_RPC_URLS: `${dead.url}/v1/SECRETKEY,${server.url}` }, production: false, onRpcError: (chain, endpoint) => errors.push([chain, endpoint]),
      tokens: [{ chain: 'SOLANA', currency: 'USDC', token: usdc, decimals: 6 }, { chain: 'SOLANA', currency: 'USDT', token: usdt, decimals: 6 }],
    })!;
    expect(await supply.reader.heights()).toEqual({ head: server.ledger.slot, finalized: server.ledger.slotAt('finalized') });
    expect(errors).toEqual([['SOLANA', new URL(dead.url).host], ['SOLANA', new URL(dead.url).host]]);
  });
});
