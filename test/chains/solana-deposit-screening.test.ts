/**
 * Solana deposit senders screened (docs/decisions.md § Screening: deposits) with the real Solana
 * reader over a real SVM (litesvm behind test/support's JSON-RPC server) and the watcher's core
 * pass on in-memory stores: the sender the reader reports (the source token account's owner) is
 * what is screened. A transfer from an OFAC-listed owner is held at finality, never credited; one
 * from an unlisted owner is credited.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateKeyPairSigner } from '@solana/kit';
import { SolanaChainReader } from '../../src/adapters/chains/solana/solana-chain-reader';
import { solanaRpc } from '../../src/adapters/chains/solana/solana-rpc';
import { parseOfacSdn } from '../../src/adapters/providers/sanctions/ofac-sdn.parser';
import { SanctionsIndex } from '../../src/adapters/providers/sanctions/sanctions-index';
import { scanChain, type ScanChainDeps } from '../../src/core/deposits/scan-chain';
import { LiteSvmLedger } from '../support/chains/litesvm-ledger';
import { startLiteSvmRpc, type LiteSvmRpc } from '../support/chains/litesvm-rpc-server';
import { LocalSolana } from '../support/chains/local-solana';
import { MemoryAddressRegistry, memoryDepositReader } from '../support/deposit-fakes';
import { FixedClock, MemoryStore, SequentialIds } from '../support/fakes';

const DEPTH = 4;
let server: LiteSvmRpc;
let listed: LocalSolana;
let unlisted: LocalSolana;
let usdc: string;
let screen: SanctionsIndex;

beforeAll(async () => {
  server = await startLiteSvmRpc(new LiteSvmLedger({ finalityDepth: DEPTH }));
  listed = new LocalSolana(server.url, await generateKeyPairSigner());
  unlisted = new LocalSolana(server.url, await generateKeyPairSigner());
  await listed.airdrop(100);
  await unlisted.airdrop(100);
  usdc = await listed.createMint(6);
  await listed.mintTo(usdc, 1_000_000000n);
  await listed.mintTo(usdc, 1_000_000000n, unlisted.payer.address);
  // The fixture's listed SOL address replaced by this run's listed sender (OFAC's SDN.XML format).
  const document = readFileSync(path.join(__dirname, '../fixtures/screening/ofac-sdn.xml'), 'utf8')
    .replace('5FHwkrdxntdK24hgQU8qgBjn35Y1zwhz1GZwCkP2UJnM', listed.payer.address);
  const parsed = parseOfacSdn(document);
  if (!parsed.ok) throw new Error(parsed.message);
  screen = new SanctionsIndex([{ ...parsed.value, loadedAt: new Date() }], 0.92);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('Solana deposit senders screened over litesvm', () => {
  it('a transfer from a listed owner is held at finality with a deposit review; one from an unlisted owner is credited', async () => {
    const clock = new FixedClock();
    const ids = new SequentialIds();
    const store = new MemoryStore(clock, ids);
    const registry = new MemoryAddressRegistry();
    const owner = (await generateKeyPairSigner()).address;
    const index = await registry.allocateIndex('SOLANA');
    await registry.insert({ tenantId: 'ten_A', blockchain: 'SOLANA', keyId: 'test', index, address: owner, createdAt: clock.now() });
    const deps: ScanChainDeps = {
      uow: store, clock, ids, deposits: memoryDepositReader(store), addresses: registry, keyId: 'test', holder: 'watcher-1',
      tokens: [{ chain: 'SOLANA', currency: 'USDC', token: usdc, decimals: 6 }], screen,
    };
    const reader = new SolanaChainReader(solanaRpc({ rpcUrls: [server.url], rpcTimeoutMs: 5000 }, { requested: () => undefined }), { mints: [usdc] });
    const pass = async () => {
      const report = await scanChain(deps, reader);
      if (!report.ok) throw new Error(report.message);
      return report.value;
    };

    const fromListed = await listed.transfer([{ mint: usdc, to: owner, units: 7_000000n }]);
    const fromUnlisted = await unlisted.transfer([{ mint: usdc, to: owner, units: 3_000000n }]);
    const first = await pass();
    expect(first.detected.map((d) => [d.txHash, d.sender]).sort()).toEqual([[fromListed, listed.payer.address], [fromUnlisted, unlisted.payer.address]].sort());

    server.ledger.advance(DEPTH + 1);
    const second = await pass();
    expect(second.held.map((d) => d.txHash)).toEqual([fromListed]);
    expect(second.credited.map((d) => d.txHash)).toEqual([fromUnlisted]);
    const held = second.held[0]!;
    expect(store.reviews.get(held.id)).toMatchObject({ subjectKind: 'deposit', status: 'pending', hits: [{ kind: 'address', entryId: '90004', address: listed.payer.address }] });
    expect(store.balance('ten_A', 'USDC', 'available')).toBe('3.000000');
  });
});
