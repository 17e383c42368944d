import { BaseError, ResponseBodyTooLargeError, TimeoutError, toEventSelector, type Hex, type RpcLog } from 'viem';
import type { ChainTransfer } from '../../../core/deposits/chain-ports';

/**
 * topic0 of the ERC-20 `Transfer(address indexed from, address indexed to, uint256 value)` event
 * (https://eips.ethereum.org/EIPS/eip-20, "Events"): keccak-256 of its signature. ERC-721's
 * `Transfer` has the same signature with the third argument indexed too, so the topic alone does
 * not make a log an ERC-20 transfer: `decodeTransferLog` also checks the shape.
 */
export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');

/** An address as an indexed topic: 12 zero bytes then the 20 address bytes, lower case. */
export function addressTopic(address: string): Hex {
  return `0x${'0'.repeat(24)}${address.slice(2).toLowerCase()}`;
}

const TOPIC_ADDRESS = /^0x0{24}([0-9a-f]{40})$/;
const WORD = /^0x[0-9a-f]{64}$/;
const HASH = /^0x[0-9a-f]{64}$/;

/** A decoded ERC-20 transfer before its token's decimals are known. */
export type DecodedTransfer = Omit<ChainTransfer, 'decimals'>;

/**
 * Decodes one `eth_getLogs` entry as an ERC-20 transfer to one of `wanted` (lower-case addresses)
 * within blocks `from`…`to`, or returns undefined for anything else: a log flagged `removed`
 * (reorganised away), a pending log (no block), another event, an ERC-721 `Transfer` (four topics,
 * no data), a malformed topic or amount, a recipient not ours, a block outside the range asked
 * (an RPC that answers more than asked is not trusted for it). Every text is lower-cased; the
 * amount is the data word as an unsigned integer. Pure.
 * Source: https://ethereum.org/en/developers/docs/apis/json-rpc/#eth_getlogs (log object fields).
 */
export function decodeTransferLog(log: RpcLog, wanted: ReadonlySet<string>, from: bigint, to: bigint): DecodedTransfer | undefined {
  if (log.removed === true) return undefined;
  if (log.blockNumber == null || log.blockHash == null || log.transactionHash == null || log.logIndex == null) return undefined;
  const topics = log.topics.map((t) => t.toLowerCase());
  if (topics.length !== 3 || topics[0] !== TRANSFER_TOPIC) return undefined;
  const sender = TOPIC_ADDRESS.exec(topics[1]!);
  const recipient = TOPIC_ADDRESS.exec(topics[2]!);
  const data = log.data.toLowerCase();
  if (!sender || !recipient || !WORD.test(data)) return undefined;
  const recipientAddress = `0x${recipient[1]}`;
  if (!wanted.has(recipientAddress)) return undefined;
  const height = BigInt(log.blockNumber);
  if (height < from || height > to) return undefined;
  const txHash = log.transactionHash.toLowerCase();
  const blockHash = log.blockHash.toLowerCase();
  if (!HASH.test(txHash) || !HASH.test(blockHash) || !/^0x[0-9a-fA-F]{40}$/.test(log.address)) return undefined;
  return {
    chain: 'BSC',
    txHash,
    index: Number(BigInt(log.logIndex)),
    height,
    blockHash,
    token: log.address.toLowerCase(),
    from: `0x${sender[1]}`,
    to: recipientAddress,
    units: BigInt(data),
  };
}

/** Messages RPC providers answer when an `eth_getLogs` range or its result is too large. */
const RANGE_REFUSAL_TEXT = /block range|range (is )?too (large|wide|big)|too many blocks|exceed(s|ed)? (the )?max(imum)?|more than \d+ (results|logs|blocks)|limit(ed)? (exceeded|to)|response size|query timeout/i;
/** JSON-RPC codes used for such refusals: -32005 limit exceeded (EIP-1474), -32600 invalid request. */
const RANGE_REFUSAL_CODES = new Set([-32005, -32600]);

/**
 * Whether an `eth_getLogs` error means "ask for fewer blocks": an error answer with code -32005 or
 * -32600, or whose message names a block range, a result limit or a response size (providers word
 * it differently: "query exceeds max block range 5000", "query returned more than 10000 results",
 * "exceed maximum block range: 5000"; https://docs.metamask.io/services/reference/linea/json-rpc-methods/eth_getlogs/
 * documents -32005 "query returned more than 10000 results" and "query timeout exceeded"), or an
 * answer larger than the client accepts. Transport faults (no answer, HTTP 429 or 5xx, the
 * client's timeout) are not refusals: the endpoint is down or busy, not the range too wide. Pure.
 */
export function isRangeRefusal(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  if (error.walk((e) => e instanceof TimeoutError)) return false;
  if (error.walk((e) => e instanceof ResponseBodyTooLargeError)) return true;
  // HTTP 429 or 5xx: viem keeps the status on the error, JSON-RPC body or not. (No answer at all
  // carries neither a JSON-RPC code nor the node's words, so it is never taken for a refusal.)
  if (error.walk((e) => busyStatus((e as { status?: unknown } | null)?.status))) return false;
  let refused = false;
  error.walk((e) => {
    if (e === null || typeof e !== 'object') return false;
    const code = (e as { code?: unknown }).code;
    // viem's own messages carry the request body and URL: only the node's words are read.
    const text = e instanceof BaseError ? `${e.shortMessage} ${e.details}` : String((e as { message?: unknown }).message ?? '');
    if ((typeof code === 'number' && RANGE_REFUSAL_CODES.has(code)) || RANGE_REFUSAL_TEXT.test(text)) refused = true;
    return false;
  });
  return refused;
}

function busyStatus(status: unknown): boolean {
  return typeof status === 'number' && (status === 429 || status >= 500);
}
