/**
 * Solana deposits end to end (docs/chains.md § Solana, docs/decisions.md § Onchain deposits): the
 * real service with its Solana chain adapter (SOLANA_RPC_URLS, SOLANA_DEPOSIT_SEED) watching
 * litesvm behind the JSON-RPC server of test/support. A transferChecked to a tenant's deposit
 * address (its owner's associated token account) is detected at `confirmed`, then credited once
 * the slot is `finalized`, with deposit.detected and deposit.credited webhooks and one ledger
 * transaction naming it; two transfers in one transaction are two deposits and another mint, sent
 * alongside or alone, a finding; a transaction a fork removed before finality is dropped.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { generateKeyPairSigner } from '@solana/kit';
import { LiteSvmLedger } from '../support/chains/litesvm-ledger';
import { startLiteSvmRpc, type LiteSvmRpc } from '../support/chains/litesvm-rpc-server';
import { ataOf, LocalSolana } from '../support/chains/local-solana';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, startTestService, type TestService } from '../support/test-service';

describe('Solana deposits over the real watcher and litesvm', () => {
  let rpc: LiteSvmRpc;
  let sender: LocalSolana;
  let usdc: string;
  let usdt: string;
  let foreign: string;
  let service: TestService;
  let hook: Receiver;

  beforeAll(async () => {
    rpc = await startLiteSvmRpc(new LiteSvmLedger({ finalityDepth: 8 }));
    sender = new LocalSolana(rpc.url, await generateKeyPairSigner());
    await sender.airdrop(10);
    usdc = await sender.createMint(6);
    usdt = await sender.createMint(6);
    foreign = await sender.createMint(6);
    for (const mint of [usdc, usdt, foreign]) await sender.mintTo(mint, 1_000_000_000000n);
    service = await startTestService({
      CHAIN_WATCH_INTERVAL_MS: '50', CHAIN_WATCH_LEASE_MS: '1000',
      SOLANA_RPC_URLS: rpc.url, SOLANA_DEPOSIT_SEED: randomBytes(64).toString('hex'), SOLANA_USDC_MINT: usdc, SOLANA_USDT_MINT: usdt,
    });
    // The run's database is shared by the suites: start this chain's cursor afresh.
    await sql("delete from chain_watchers where blockchain = 'SOLANA'");
    hook = await startReceiver();
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await hook?.close();
    await rpc?.close();
  });

  const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await service.database.orm.em.fork().getConnection().execute(text, params)) as T[];
  const deposits = (apiKey: string) => service.call('GET', '/v1/deposits', { apiKey }).then((r) => r.body as Array<Record<string, unknown>>);
  const usdcBalance = async (apiKey: string) =>
    (await service.call('GET', '/v1/balances', { apiKey })).body.find((b: { currency: string }) => b.currency === 'USDC').available as string;

  it('a transferChecked to a tenant\'s deposit address is detected, then credited once final: webhooks, one ledger transaction naming it', async () => {
    const { tenantId, apiKey } = await service.newTenant('0');
    const { secret } = (await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url, events: ['deposit.detected', 'deposit.credited'] } })).body;
    const address = (await service.call('GET', '/v1/deposit-addresses', { apiKey })).body.find((a: { blockchain: string; currency: string }) => a.blockchain === 'SOLANA' && a.currency === 'USDC');
    expect(address.address).toBe(await ataOf(address.ownerAddress, usdc));

    const signature = await sender.transfer([{ mint: usdc, to: address.ownerAddress, units: 25_500000n }]);
    const slot = Number(rpc.ledger.transactions.get(signature)!.slot);
    const [detected] = await eventually(async () => ((await deposits(apiKey)).length === 1 ? deposits(apiKey) : undefined));
    expect(detected).toMatchObject({
      blockchain: 'SOLANA', currency: 'USDC', token: usdc, amount: '25.500000', remainderUnits: '0', sender: sender.payer.address,
      depositAddress: address.ownerAddress, txHash: signature, index: 256, height: slot, status: 'detected', source: 'chain', ledgerTransactionId: null,
    });
    expect(await usdcBalance(apiKey)).toBe('0.000000');

    // Not final: a while of watcher passes changes nothing.
    await new Promise((r) => setTimeout(r, 300));
    expect((await deposits(apiKey))[0]!.status).toBe('detected');

    rpc.ledger.finalizeAll();
    const [credited] = await eventually(async () => ((await deposits(apiKey))[0]?.status === 'credited' ? deposits(apiKey) : undefined));
    expect(await usdcBalance(apiKey)).toBe('25.500000');
    const ledger = (await service.call('GET', '/v1/balances/transactions', { apiKey })).body;
    expect(ledger).toEqual([expect.objectContaining({ id: credited!.ledgerTransactionId, kind: 'deposit', amount: '25.500000', currency: 'USDC', txHash: `SOLANA:${signature}:256` })]);

    const sent = await eventually(async () => {
      const mine = hook.received.filter((r) => JSON.parse(r.body).data.id === detected!.id);
      return mine.length === 2 ? mine : undefined;
    });
    expect(sent.map((r) => JSON.parse(r.body)).map((e) => [e.type, e.data.status, e.data.txHash, e.data.index])).toEqual([
      ['deposit.detected', 'detected', signature, 256], ['deposit.credited', 'credited', signature, 256],
    ]);
    for (const r of sent) {
      const t = String(r.headers['webhook-timestamp']);
      expect(r.headers['service-signature']).toBe(`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${r.body}`).digest('hex')}`);
    }

    // More passes over the final slot credit nothing again.
    rpc.ledger.advance(3);
    await new Promise((r) => setTimeout(r, 300));
    expect(await usdcBalance(apiKey)).toBe('25.500000');
    expect(await sql("select count(*)::int as n from ledger_transactions where tenant_id = ? and kind = 'deposit'", [tenantId])).toEqual([{ n: 1 }]);
  });

  const ownerOf = async (apiKey: string) =>
    (await service.call('GET', '/v1/deposit-addresses', { apiKey })).body.find((a: { blockchain: string }) => a.blockchain === 'SOLANA').ownerAddress as string;

  it('two transfers in one transaction are two deposits; another mint sent alongside is a finding, never credited', async () => {
    const { tenantId, apiKey } = await service.newTenant('0');
    const to = await ownerOf(apiKey);
    const signature = await sender.transfer([{ mint: usdc, to, units: 1_000000n }, { mint: usdt, to, units: 2_000000n, checked: false }, { mint: foreign, to, units: 3_000000n }]);
    await eventually(async () => ((await deposits(apiKey)).length === 2 ? true : undefined));
    rpc.ledger.finalizeAll();
    const credited = await eventually(async () => {
      const all = await deposits(apiKey);
      return all.length === 2 && all.every((d) => d.status === 'credited') ? all : undefined;
    });
    expect(credited.map((d) => [d.currency, d.amount, d.txHash, d.index]).sort()).toEqual([['USDC', '1.000000', signature, 256], ['USDT', '2.000000', signature, 768]]);
    const findings = await eventually(async () => {
      const rows = await sql<{ kind: string; token: string; units: string; transfer_index: number }>(
        'select kind, token, units::text, transfer_index from deposit_findings where tenant_id = ?', [tenantId]);
      return rows.length === 1 ? rows : undefined;
    });
    expect(findings).toEqual([{ kind: 'foreign_token', token: foreign, units: '3000000', transfer_index: 5 * 256 }]);
    expect(await sql("select count(*)::int as n from ledger_transactions where tenant_id = ? and kind = 'deposit'", [tenantId])).toEqual([{ n: 2 }]);
  });

  it('another mint sent alone to the owner (its own account for that mint, no watched account touched) is a finding operators see, never credited', async () => {
    const { tenantId, apiKey } = await service.newTenant('0');
    const admin = await service.newAdminKey();
    const to = await ownerOf(apiKey);
    const signature = await sender.transfer([{ mint: foreign, to, units: 4_500000n }]);
    rpc.ledger.finalizeAll();
    const finding = await eventually(async () => {
      const all = (await service.call('GET', '/v1/admin/deposit-findings?limit=500', { apiKey: admin })).body as Array<{ tenantId: string; kind: string; txHash: string; token: string; units: string; decimals: number }>;
      return all.find((x) => x.tenantId === tenantId && x.kind === 'foreign_token');
    });
    expect(finding).toMatchObject({ txHash: signature, token: foreign, units: '4500000', decimals: 6 });
    expect(await deposits(apiKey)).toEqual([]);
    expect(await sql('select count(*)::int as n from deposits where tx_hash = ?', [signature])).toEqual([{ n: 0 }]);
    expect(await usdcBalance(apiKey)).toBe('0.000000');
  });

  it('a transaction a fork removed before finality is dropped at finality; the balance never moved', async () => {
    const { apiKey } = await service.newTenant('0');
    const signature = await sender.transfer([{ mint: usdc, to: await ownerOf(apiKey), units: 9_000000n }]);
    await eventually(async () => ((await deposits(apiKey)).length === 1 ? true : undefined));
    rpc.ledger.drop(signature);
    rpc.ledger.finalizeAll();
    const [dropped] = await eventually(async () => ((await deposits(apiKey))[0]?.status === 'dropped' ? deposits(apiKey) : undefined));
    expect(dropped).toMatchObject({ txHash: signature, status: 'dropped', ledgerTransactionId: null });
    expect(await usdcBalance(apiKey)).toBe('0.000000');
  });
});
