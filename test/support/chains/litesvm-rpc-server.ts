/**
 * A small Solana JSON-RPC 2.0 server over HTTP in front of a LiteSvmLedger, answering the calls the
 * Solana reader and a sender make, in the shapes Solana's RPC documentation gives
 * (https://solana.com/docs/rpc/http): getSlot, getBlockHeight, getSignaturesForAddress, getTransaction (`json`
 * encoding), getBlock, getBlockTime, getAccountInfo (`base64`), getTokenAccountsByOwner (`base64`), getLatestBlockhash, getMinimumBalanceForRentExemption, requestAirdrop,
 * sendTransaction (`base64`), getSignatureStatuses, getEpochInfo, getBalance, getTokenAccountBalance, getFeeForMessage, getHealth. Commitments are honoured:
 * `finalized` sees only slots up to the ledger's finalized slot. Listens on a free port.
 */
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { address, getBase58Decoder, getBase64Encoder, getBase64Decoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { LiteSvmLedger, type LedgerTransaction } from './litesvm-ledger';

/** A running server. */
export interface LiteSvmRpc {
  readonly url: string;
  readonly ledger: LiteSvmLedger;
  /** Every method called, in order. */
  readonly calls: string[];
  /** While true every request is answered HTTP 503 (an endpoint that is down). */
  down: boolean;
  /** While true sendTransaction runs its preflight checks even when asked to skip them (as some providers' endpoints do). */
  preflightAlways: boolean;
  close(): Promise<void>;
}

class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

type Params = unknown[];
type Config = Record<string, unknown> | undefined;

/** Starts a server on 127.0.0.1 over `ledger` (a new one by default), on `port` or else a free one. */
export async function startLiteSvmRpc(ledger = new LiteSvmLedger(), port = 0): Promise<LiteSvmRpc> {
  const calls: string[] = [];
  const state = { down: false, preflightAlways: false };
  const server: Server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.down) {
        res.writeHead(503).end();
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
        return;
      }
      const answer = Array.isArray(body) ? body.map((r) => handle(ledger, calls, r, state)) : handle(ledger, calls, body, state);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`, ledger, calls,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    get preflightAlways() {
      return state.preflightAlways;
    },
    set preflightAlways(value: boolean) {
      state.preflightAlways = value;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function handle(ledger: LiteSvmLedger, calls: string[], request: unknown, state: { preflightAlways: boolean }): unknown {
  const { id = null, method, params = [] } = (request ?? {}) as { id?: unknown; method?: string; params?: Params };
  calls.push(String(method));
  try {
    return { jsonrpc: '2.0', id, result: call(ledger, String(method), params, state) };
  } catch (error) {
    const code = error instanceof RpcError ? error.code : -32603;
    const data = error instanceof RpcError && error.data !== undefined ? { data: error.data } : {};
    return { jsonrpc: '2.0', id, error: { code, message: (error as Error).message, ...data } };
  }
}

function call(ledger: LiteSvmLedger, method: string, params: Params, state: { preflightAlways: boolean }): unknown {
  const config = (index: number) => (params[index] ?? undefined) as Config;
  const context = () => ({ slot: ledger.slot, apiVersion: '2.2.0' });
  switch (method) {
    case 'getHealth':
      return 'ok';
    case 'getSlot':
      return ledger.slotAt(commitmentOf(config(0)));
    case 'getEpochInfo': {
      // https://solana.com/docs/rpc/http/getepochinfo: one epoch of 432,000 slots here.
      const slot = ledger.slotAt(commitmentOf(config(0)));
      return { absoluteSlot: slot, blockHeight: ledger.blockHeightOf(slot), epoch: slot / 432_000n, slotIndex: slot % 432_000n, slotsInEpoch: 432_000, transactionCount: null };
    }
    case 'getBlockHeight':
      return ledger.blockHeightOf(ledger.slotAt(commitmentOf(config(0))));
    case 'getLatestBlockhash':
      return { context: context(), value: ledger.latestBlockhash(commitmentOf(config(0))) };
    case 'getBalance':
      // https://solana.com/docs/rpc/http/getbalance: lamports, 0 for an account that does not exist.
      return { context: context(), value: ledger.svm.getBalance(address(String(params[0]))) ?? 0n };
    case 'getTokenAccountBalance':
      return tokenAccountBalance(ledger, String(params[0]), context());
    case 'getFeeForMessage': {
      // https://solana.com/docs/rpc/http/getfeeformessage: the base fee (5,000 lamports a signature), null for an unusable blockhash.
      const message = getCompiledTransactionMessageDecoder().decode(getBase64Encoder().encode(String(params[0])));
      const usable = ledger.blockhashUsable(String(message.lifetimeToken));
      return { context: context(), value: usable ? 5000 * message.header.numSignerAccounts : null };
    }
    case 'getSignaturesForAddress':
      return signaturesForAddress(ledger, String(params[0]), config(1) ?? {});
    case 'getTransaction':
      return transaction(ledger, String(params[0]), config(1) ?? {});
    case 'getBlock':
      return block(ledger, BigInt(params[0] as number), config(1) ?? {});
    case 'getBlockTime': {
      const found = ledger.blocks.get(BigInt(params[0] as number));
      if (!found || found.slot > ledger.slotAt('finalized')) throw new RpcError(-32004, `Block not available for slot ${String(params[0])}`);
      return found.blockTime;
    }
    case 'getMinimumBalanceForRentExemption':
      return ledger.svm.minimumBalanceForRentExemption(BigInt(params[0] as number));
    case 'requestAirdrop': {
      const result = ledger.svm.airdrop(address(String(params[0])), BigInt(params[1] as number) as never);
      if (!result || 'err' in result) throw new RpcError(-32603, 'airdrop failed');
      return getBase58Decoder().decode(result.signature());
    }
    case 'getAccountInfo': {
      const account = ledger.svm.getAccount(address(String(params[0])));
      if (!account.exists) return { context: context(), value: null };
      return {
        context: context(),
        value: { data: [getBase64Decoder().decode(account.data), 'base64'], executable: account.executable, lamports: account.lamports, owner: account.programAddress, rentEpoch: 0, space: account.data.length },
      };
    }
    case 'getTokenAccountsByOwner':
      return tokenAccountsByOwner(ledger, String(params[0]), (params[1] ?? {}) as Record<string, unknown>, (config(2) ?? {}) as Record<string, unknown>, context());
    case 'sendTransaction': {
      const options = config(1) ?? {};
      if (options.encoding !== 'base64') throw new RpcError(-32602, 'only base64 encoded transactions are accepted here');
      const tx = getTransactionDecoder().decode(getBase64Encoder().encode(String(params[0])));
      const { signature, err, included } = ledger.submit(tx);
      // Skipping preflight, a node forwards the transaction and answers its signature whatever becomes of it.
      if (err === null || (options.skipPreflight === true && !state.preflightAlways)) return signature;
      // A preflight refusal carries the simulation's result, `err` the TransactionError JSON (https://solana.com/docs/rpc/http/sendtransaction).
      const simulation = { err, logs: [], accounts: null, unitsConsumed: 0, returnData: null };
      if (!included) throw new RpcError(-32002, `Transaction simulation failed: ${PREFLIGHT_TEXTS[String(err)] ?? String(err)}`, simulation);
      throw new RpcError(-32002, `Transaction simulation failed: ${JSON.stringify(err)}`, simulation);
    }
    case 'getSignatureStatuses': {
      const finalized = ledger.slotAt('finalized');
      return {
        context: context(),
        value: (params[0] as string[]).map((s) => {
          const tx = ledger.transactions.get(s);
          if (!tx) return null;
          const final = tx.slot <= finalized;
          return {
            slot: tx.slot, confirmations: final ? null : Number(ledger.slot - tx.slot), err: tx.meta.err,
            status: tx.meta.err === null ? { Ok: null } : { Err: tx.meta.err }, confirmationStatus: final ? 'finalized' : 'confirmed',
          };
        }),
      };
    }
    default:
      throw new RpcError(-32601, 'Method not found');
  }
}

/** Preflight messages of transactions a node refuses before execution (the runtime's TransactionError texts). */
const PREFLIGHT_TEXTS: Record<string, string> = {
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
};

/**
 * https://solana.com/docs/rpc/http/gettokenaccountbalance: the SPL token account's amount (base
 * units, string), decimals and UI amounts; error -32602 "could not find account" when it does not
 * exist or is no token account.
 */
function tokenAccountBalance(ledger: LiteSvmLedger, account: string, context: unknown): unknown {
  const found = ledger.svm.getAccount(address(account));
  if (!found.exists || found.programAddress !== TOKEN_PROGRAM_ADDRESS || found.data.length !== 165) {
    throw new RpcError(-32602, 'Invalid param: could not find account');
  }
  const token = getTokenDecoder().decode(found.data);
  const mint = ledger.svm.getAccount(token.mint);
  const decimals = mint.exists ? getMintDecoder().decode(mint.data).decimals : 0;
  const ui = Number(token.amount) / 10 ** decimals;
  return { context, value: { amount: token.amount.toString(), decimals, uiAmount: ui, uiAmountString: String(ui) } };
}

function commitmentOf(config: Config): string {
  return typeof config?.commitment === 'string' ? config.commitment : 'finalized';
}

/** https://solana.com/docs/rpc/http/getsignaturesforaddress: newest first, `before` and `until` excluded, at most `limit` (1 … 1000). */
function signaturesForAddress(ledger: LiteSvmLedger, account: string, config: Record<string, unknown>): unknown {
  const commitment = commitmentOf(config);
  if (commitment === 'processed') throw new RpcError(-32602, 'Invalid params: processed commitment is not supported');
  const limit = config.limit === undefined ? 1000 : Number(config.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RpcError(-32602, 'Invalid limit; max 1000');
  let list = ledger.signaturesFor(account, ledger.slotAt(commitment));
  if (typeof config.before === 'string') {
    const at = list.findIndex((t) => t.signature === config.before);
    list = at === -1 ? [] : list.slice(at + 1);
  }
  if (typeof config.until === 'string') {
    const at = list.findIndex((t) => t.signature === config.until);
    if (at !== -1) list = list.slice(0, at);
  }
  const finalized = ledger.slotAt('finalized');
  return list.slice(0, limit).map((t) => ({
    signature: t.signature, slot: t.slot, err: t.meta.err, memo: null, blockTime: ledger.blocks.get(t.slot)!.blockTime,
    confirmationStatus: t.slot <= finalized ? 'finalized' : 'confirmed',
  }));
}

/** https://solana.com/docs/rpc/http/gettransaction, `json` encoding only; null when unknown or above the commitment. */
function transaction(ledger: LiteSvmLedger, signature: string, config: Record<string, unknown>): unknown {
  const encoding = config.encoding ?? 'json';
  if (encoding !== 'json') throw new RpcError(-32602, `Invalid params: encoding ${String(encoding)} is not supported here (json only)`);
  const tx = ledger.transactions.get(signature);
  if (!tx || tx.slot > ledger.slotAt(commitmentOf(config))) return null;
  if (tx.version !== 'legacy' && config.maxSupportedTransactionVersion === undefined) {
    throw new RpcError(-32015, 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0');
  }
  return view(ledger, tx);
}

function view(ledger: LiteSvmLedger, tx: LedgerTransaction): unknown {
  return {
    slot: tx.slot, blockTime: ledger.blocks.get(tx.slot)!.blockTime, version: tx.version,
    transaction: { signatures: tx.signatures, message: { ...tx.message, ...(tx.version === 0 ? { addressTableLookups: [] } : {}) } },
    meta: {
      ...tx.meta, status: tx.meta.err === null ? { Ok: null } : { Err: tx.meta.err }, rewards: [],
      ...(tx.version === 0 ? { loadedAddresses: { writable: [], readonly: [] } } : {}),
    },
  };
}

/** https://solana.com/docs/rpc/http/getblock: `transactionDetails` none, signatures or full (json). */
function block(ledger: LiteSvmLedger, slot: bigint, config: Record<string, unknown>): unknown {
  const found = ledger.blocks.get(slot);
  if (slot > ledger.slotAt(commitmentOf(config))) throw new RpcError(-32004, `Block not available for slot ${slot}`);
  if (!found) throw new RpcError(-32007, `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`);
  const parent = ledger.blocks.get(found.parentSlot);
  const base = { blockhash: found.blockhash, previousBlockhash: parent?.blockhash ?? found.blockhash, parentSlot: found.parentSlot, blockHeight: ledger.blockHeightOf(found.slot), blockTime: found.blockTime };
  const details = config.transactionDetails ?? 'full';
  if (details === 'none') return base;
  if (details === 'signatures') return { ...base, signatures: found.signatures };
  return { ...base, transactions: found.signatures.map((s) => view(ledger, ledger.transactions.get(s)!)), ...(config.rewards === false ? {} : { rewards: [] }) };
}

/**
 * getTokenAccountsByOwner (https://solana.com/docs/rpc/http/gettokenaccountsbyowner): the owner's
 * SPL Token accounts filtered by `{mint}` or `{programId}` (only the Token program holds any here),
 * as `{pubkey, account}` with `base64` data (cut by `dataSlice` when given); `jsonParsed` is not served.
 */
function tokenAccountsByOwner(ledger: LiteSvmLedger, owner: string, filter: Record<string, unknown>, config: Record<string, unknown>, context: unknown): unknown {
  if (typeof filter.mint !== 'string' && typeof filter.programId !== 'string') throw new RpcError(-32602, 'Invalid params: a mint or programId filter is required');
  if (config.encoding !== undefined && config.encoding !== 'base64') throw new RpcError(-32602, `encoding ${String(config.encoding)} is not served`);
  if (typeof filter.programId === 'string' && filter.programId !== TOKEN_PROGRAM_ADDRESS) return { context, value: [] };
  const slice = config.dataSlice as { offset: number; length: number } | undefined;
  const value = ledger.tokenAccountsOf(owner, typeof filter.mint === 'string' ? filter.mint : undefined).map(({ pubkey, account }) => {
    const data = slice ? account.data.slice(slice.offset, slice.offset + slice.length) : account.data;
    return { pubkey, account: { data: [getBase64Decoder().decode(data), 'base64'], executable: account.executable, lamports: account.lamports, owner: account.programAddress, rentEpoch: 0, space: account.data.length } };
  });
  return { context, value };
}
