/**
 * Which `eth_getLogs` entries are ERC-20 transfers to our addresses, and how they decode
 * (docs/chains.md § BSC reader). Every shape of log the reader may be answered gets a case.
 */
import type { RpcLog } from 'viem';
import { TRANSFER_TOPIC, addressTopic, decodeTransferLog } from '../../src/adapters/chains/bsc/bsc-transfer-logs';

const OURS = '0x8c8d35429f74ec245f8ef2f4fd1e551cff97d650';
const SENDER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const TOKEN = '0x55d398326f99059ff775485246999027b3197955';
const TX = `0x${'ab'.repeat(32)}`;
const BLOCK = `0x${'cd'.repeat(32)}`;
const WANTED = new Set([OURS]);

/** A valid ERC-20 Transfer log of 1.5 tokens (18 decimals) to OURS in block 100, log index 3. */
function log(overrides: Partial<RpcLog> = {}): RpcLog {
  return {
    address: '0x55d398326F99059fF775485246999027B3197955',
    topics: [TRANSFER_TOPIC, addressTopic(SENDER), addressTopic(OURS.toUpperCase().replace('0X', '0x'))],
    data: `0x${(1_500_000_000_000_000_000n).toString(16).padStart(64, '0')}`,
    blockNumber: '0x64', blockHash: BLOCK.toUpperCase().replace('0X', '0x') as `0x${string}`,
    transactionHash: TX as `0x${string}`, transactionIndex: '0x0', logIndex: '0x3', removed: false,
    ...overrides,
  } as RpcLog;
}

describe('ERC-20 Transfer log decoding', () => {
  it('decodes a transfer to one of ours, every text in lower case', () => {
    expect(TRANSFER_TOPIC).toBe('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
    expect(decodeTransferLog(log(), WANTED, 100n, 100n)).toEqual({
      chain: 'BSC', txHash: TX, index: 3, height: 100n, blockHash: BLOCK, token: TOKEN, from: SENDER, to: OURS,
      units: 1_500_000_000_000_000_000n,
    });
  });

  it('reads the amount as an unsigned 256-bit integer, up to 2^256 − 1', () => {
    expect(decodeTransferLog(log({ data: `0x${'f'.repeat(64)}` }), WANTED, 0n, 200n)!.units).toBe(2n ** 256n - 1n);
    expect(decodeTransferLog(log({ data: `0x${'0'.repeat(64)}` }), WANTED, 0n, 200n)!.units).toBe(0n);
  });

  it.each([
    ['flagged removed (reorganised away)', { removed: true }],
    ['pending (no block number)', { blockNumber: null }],
    ['pending (no block hash)', { blockHash: null }],
    ['without a transaction hash', { transactionHash: null }],
    ['without a log index', { logIndex: null }],
    ['of another event', { topics: [`0x${'11'.repeat(32)}`, addressTopic(SENDER), addressTopic(OURS)] }],
    ['shaped as ERC-721 (the amount indexed, no data)', { topics: [TRANSFER_TOPIC, addressTopic(SENDER), addressTopic(OURS), `0x${'0'.repeat(63)}1`], data: '0x' }],
    ['with four topics and a data word', { topics: [TRANSFER_TOPIC, addressTopic(SENDER), addressTopic(OURS), `0x${'0'.repeat(63)}1`] }],
    ['with the recipient not indexed', { topics: [TRANSFER_TOPIC, addressTopic(SENDER)] }],
    ['with a recipient topic that is not an address', { topics: [TRANSFER_TOPIC, addressTopic(SENDER), `0x${'1'.repeat(24)}${OURS.slice(2)}`] }],
    ['with a data word of the wrong length', { data: '0x01' }],
    ['to an address that is not ours', { topics: [TRANSFER_TOPIC, addressTopic(OURS), addressTopic(SENDER)] }],
  ] as [string, Partial<RpcLog>][])('leaves out a log %s', (_, overrides) => {
    expect(decodeTransferLog(log(overrides), WANTED, 0n, 200n)).toBeUndefined();
  });

  it('leaves out a log from a block outside the range asked', () => {
    expect(decodeTransferLog(log(), WANTED, 101n, 200n)).toBeUndefined();
    expect(decodeTransferLog(log(), WANTED, 0n, 99n)).toBeUndefined();
    expect(decodeTransferLog(log(), WANTED, 100n, 100n)).toBeDefined();
  });
});
