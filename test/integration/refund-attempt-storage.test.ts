import { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { OnchainRefundTxStore } from '../../src/adapters/persistence/onchain-refund.repository';
import type { OnchainRefund } from '../../src/core/refunds/onchain-refund';
import type { RefundAttempt } from '../../src/core/refunds/refund-sender';
import { bscTxHash, solanaTxHash } from '../support/tx-hashes';

/**
 * The refund attempts on real PostgreSQL (docs/decisions.md § Refunds): what is stored reads back
 * exactly, and the keys that make a refund go out once are PostgreSQL's, not the worker's.
 */
describe('refund attempt storage', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 4));
  });
  afterAll(async () => {
    // Out of every later sender's way: these refunds are older than any other test's.
    await orm.em.fork().execute(`update onchain_refunds set status = 'failed' where created_at < '2002-01-01' and status = 'pending'`);
    await orm.close(true);
  });

  const id = (prefix: string) => `${prefix}_${randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`;
  const wallet = () => `0x${randomBytes(20).toString('hex')}`;
  const inTx = <T>(work: (store: OnchainRefundTxStore) => Promise<T>) => orm.em.fork().transactional((em) => work(new OnchainRefundTxStore(em)));
  /** A pending refund, older than any other test's (they are created now), so `nextPending` meets it first. */
  async function refund(blockchain: OnchainRefund['blockchain'] = 'BSC', createdAt = new Date('2001-01-01T00:00:00.000Z')): Promise<OnchainRefund> {
    const r: OnchainRefund = {
      id: id('rfd'), paymentId: id('pay'), tenantId: id('ten'), amount: '12.115416', currency: 'USDT', blockchain,
      refundAddress: '0x000000000000000000000000000000000000dEaD', status: 'pending', txHash: null, createdAt, sentAt: null, failureReason: null,
    };
    await inTx((s) => s.create(r));
    return r;
  }
  const at = new Date('2026-11-27T01:00:00.000Z');
  const bscAttempt = (refundId: string, w: string, nonce: bigint, over: Partial<RefundAttempt> = {}): RefundAttempt => ({
    id: id('rfa'), refundId, blockchain: 'BSC', wallet: w, txHashes: [bscTxHash()], rawTransaction: `0x02f8${'ab'.repeat(60)}`, nonce, blockhash: null,
    lastValidHeight: null, status: 'signed', attempts: 1, landedHash: null, landedHeight: null, createdAt: at, signedAt: at, ...over,
  });

  it('reads an attempt back exactly, replacements and large nonces included; lastNonce is the highest ever used', async () => {
    const r = await refund();
    const w = wallet();
    const attempt = bscAttempt(r.id, w, 2n ** 63n + 5n);
    await inTx((s) => s.createAttempt(attempt));
    expect(await inTx((s) => s.openAttempt('BSC', w))).toEqual(attempt);
    const replaced = { ...attempt, txHashes: [...attempt.txHashes, bscTxHash()], attempts: 2, status: 'broadcast' as const, rawTransaction: '0x02f9' };
    await inTx((s) => s.updateAttempt(replaced));
    expect(await inTx((s) => s.openAttempt('BSC', w))).toEqual(replaced);
    const landed = { ...replaced, status: 'landed' as const, landedHash: replaced.txHashes[0]!, landedHeight: 2n ** 60n };
    await inTx((s) => s.updateAttempt(landed));
    expect(await inTx((s) => s.openAttempt('BSC', w))).toBeUndefined();
    expect(await inTx((s) => s.lastNonce('BSC', w))).toBe(2n ** 63n + 5n);
    expect(await inTx((s) => s.lastNonce('BSC', wallet()))).toBeNull();
  });

  it('refuses a second attempt for the same wallet and nonce, even once the first is over and for another refund', async () => {
    const [a, b] = [await refund(), await refund()];
    const w = wallet();
    const first = bscAttempt(a.id, w, 7n);
    await inTx((s) => s.createAttempt(first));
    await inTx((s) => s.updateAttempt({ ...first, status: 'dropped' }));
    await expect(inTx((s) => s.createAttempt(bscAttempt(b.id, w, 7n)))).rejects.toThrow(/onchain_refund_attempts_nonce_unique/);
    await inTx((s) => s.createAttempt(bscAttempt(b.id, wallet(), 7n)));
  });

  it('refuses a second open attempt of a hot wallet or of a refund, and a hash stored twice', async () => {
    const [a, b] = [await refund(), await refund()];
    const w = wallet();
    const first = bscAttempt(a.id, w, 1n);
    await inTx((s) => s.createAttempt(first));
    await expect(inTx((s) => s.createAttempt(bscAttempt(b.id, w, 2n)))).rejects.toThrow(/onchain_refund_attempts_open_wallet_unique/);
    await expect(inTx((s) => s.createAttempt(bscAttempt(a.id, wallet(), 1n)))).rejects.toThrow(/onchain_refund_attempts_open_refund_unique/);
    await expect(inTx((s) => s.createAttempt(bscAttempt(b.id, wallet(), 1n, { txHashes: first.txHashes })))).rejects.toThrow(/onchain_refund_attempts_hash_unique/);
    await inTx((s) => s.updateAttempt({ ...first, status: 'landed', landedHash: first.txHashes[0]!, landedHeight: 10n }));
    await inTx((s) => s.createAttempt(bscAttempt(b.id, w, 2n)));
  });

  it('keeps a Solana attempt as blockhash and last valid height, and refuses an attempt with both schemes or neither', async () => {
    const r = await refund('SOLANA');
    const w = 'HotWa11et1111111111111111111111111111111111';
    const solana: RefundAttempt = {
      ...bscAttempt(r.id, w, 0n), blockchain: 'SOLANA', txHashes: [solanaTxHash()], nonce: null, blockhash: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn', lastValidHeight: 300_000_150n,
      rawTransaction: 'AQAB',
    };
    await inTx((s) => s.createAttempt(solana));
    expect(await inTx((s) => s.openAttempt('SOLANA', w))).toEqual(solana);
    await inTx((s) => s.updateAttempt({ ...solana, status: 'dropped' }));
    await expect(inTx((s) => s.createAttempt({ ...solana, id: id('rfa'), txHashes: [solanaTxHash()], nonce: 1n }))).rejects.toThrow(/scheme_check/);
    await expect(inTx((s) => s.createAttempt({ ...solana, id: id('rfa'), txHashes: [solanaTxHash()], blockhash: null, lastValidHeight: null }))).rejects.toThrow(/scheme_check/);
  });

  it('nextPending: the oldest pending refund of the chain with no open attempt, skipping rows another sender holds', async () => {
    const older = await refund('BSC', new Date('2000-01-01T00:00:00.000Z'));
    const newer = await refund('BSC', new Date('2000-01-01T00:00:01.000Z'));
    const open = bscAttempt(older.id, wallet(), 0n);
    expect((await inTx((s) => s.nextPending('BSC')))?.id).toBe(older.id);
    await inTx((s) => s.createAttempt(open));
    expect((await inTx((s) => s.nextPending('BSC')))?.id).toBe(newer.id);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = inTx(async (s) => {
      expect((await s.nextPending('BSC'))?.id).toBe(newer.id);
      locked();
      await held;
    });
    await isLocked;
    expect((await inTx((s) => s.nextPending('BSC')))?.id).not.toBe(newer.id);
    release();
    await holder;
    await inTx((s) => s.setStatus(newer.id, 'pending', 'failed', null, null));
    await inTx((s) => s.updateAttempt({ ...open, status: 'dropped' }));
  });

  it('moves a refund only from the status it is in, and keeps hash and time consistent with the status', async () => {
    const r = await refund();
    const hash = bscTxHash();
    await expect(inTx((s) => s.setStatus(r.id, 'broadcast', 'confirmed', hash, at))).rejects.toThrow(/is not broadcast/);
    await expect(inTx((s) => s.setStatus(r.id, 'pending', 'broadcast', null, null))).rejects.toThrow(/onchain_refunds_tx_hash_check/);
    expect(await inTx((s) => s.setStatus(r.id, 'pending', 'broadcast', hash, null))).toMatchObject({ status: 'broadcast', txHash: hash, sentAt: null });
    await expect(inTx((s) => s.setStatus(r.id, 'broadcast', 'confirmed', hash, null))).rejects.toThrow(/onchain_refunds_sent_check/);
    expect(await inTx((s) => s.setStatus(r.id, 'broadcast', 'confirmed', hash, at))).toMatchObject({ status: 'confirmed', txHash: hash, sentAt: at });
  });
});
