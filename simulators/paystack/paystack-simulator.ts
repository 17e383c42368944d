import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleBanks, handleRecipient, handleTransfer, listTransfers, send } from './paystack-simulator-routes';
import { transferBody, type SimFaults, type SimRecipient, type SimTransfer } from './paystack-simulator-ledger';

/** Settings of a simulator; every one has a default fit for tests. */
export interface PaystackSimulatorOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** The secret key it accepts and signs webhooks with (default `sk_test_simulator`). */
  readonly secretKey?: string;
  /** Where it POSTs transfer webhooks (Paystack's dashboard setting); none when unset. */
  readonly webhookUrl?: string;
  /** Time from queueing to the final status, ms (default 20). */
  readonly resultDelayMs?: number;
  /** Extra wait of a "delayed" webhook, ms (default 1000). */
  readonly delayedCallbackMs?: number;
  /** Largest page `GET /transfer` serves (default 100). */
  readonly maxPerPage?: number;
}

/** Shared state the routes work on. */
export interface SimulatorState {
  readonly secretKey: string;
  readonly domain: 'test' | 'live';
  readonly recipients: Map<string, SimRecipient>;
  readonly transfers: Map<string, SimTransfer>;
  readonly requests: Record<string, number>;
  readonly held: ServerResponse[];
  faults: SimFaults;
  webhookUrl: string | undefined;
  readonly resultDelayMs: number;
  readonly delayedCallbackMs: number;
  readonly maxPerPage: number;
  /** Moves a transfer to `status` and tells whoever waits on it. */
  change(transfer: SimTransfer, status: string): void;
  /** POSTs a signed `{event, data}` for `transfer` to the webhook URL (errors ignored, no retries). */
  sendWebhook(event: string, transfer: SimTransfer): void;
  /** Timers to cancel on close. */
  readonly timers: Set<NodeJS.Timeout>;
}

/** A running simulator. */
export interface PaystackSimulator {
  /** Base URL to give the adapter as PAYSTACK_BASE_URL. */
  readonly url: string;
  readonly secretKey: string;
  /** The ledger: every transfer recorded, one per disbursement. */
  transfers(): SimTransfer[];
  /** Requests received per route (`POST /transferrecipient`, `POST /transfer`, …). */
  requestCount(route: string): number;
  /** Faults for later requests (replaces the previous set; `{}` clears). */
  setFaults(faults: SimFaults): void;
  setWebhookUrl(url: string | undefined): void;
  /** Answers the held `POST /transfer` responses. */
  release(): void;
  /** Resolves once the transfer with `reference` has `status`. */
  waitFor(reference: string, status: string): Promise<SimTransfer>;
  close(): Promise<void>;
}

/**
 * Starts a Paystack Transfers protocol double over real HTTP (https://paystack.com/docs/transfers/):
 * bearer secret-key auth, recipients, transfers with Paystack's reference rules and duplicate
 * refusal, verify, list, banks and account resolution, signed transfer webhooks, and fault modes
 * chosen by the account number's last two digits (`planFor`) or by `POST /__simulator/faults`.
 * `GET /__simulator/transfers` lists the ledger; `POST /__simulator/release` answers held submits.
 */
export async function startPaystackSimulator(options: PaystackSimulatorOptions = {}): Promise<PaystackSimulator> {
  const secretKey = options.secretKey ?? 'sk_test_simulator';
  const waiters = new Set<{ reference: string; status: string; resolve: (transfer: SimTransfer) => void }>();
  const state: SimulatorState = {
    secretKey,
    domain: secretKey.startsWith('sk_live_') ? 'live' : 'test',
    recipients: new Map(), transfers: new Map(), requests: {}, held: [], faults: {},
    webhookUrl: options.webhookUrl,
    resultDelayMs: options.resultDelayMs ?? 20,
    delayedCallbackMs: options.delayedCallbackMs ?? 1000,
    maxPerPage: options.maxPerPage ?? 100,
    timers: new Set(),
    change(transfer, status) {
      transfer.status = status;
      transfer.updatedAt = new Date().toISOString();
      for (const waiter of waiters) {
        if (waiter.reference === transfer.reference && waiter.status === status) {
          waiters.delete(waiter);
          waiter.resolve(transfer);
        }
      }
    },
    sendWebhook(event, transfer) {
      if (!state.webhookUrl) return;
      const body = JSON.stringify({ event, data: transferBody(transfer, state.domain) });
      const signature = createHmac('sha512', secretKey).update(body).digest('hex');
      fetch(state.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paystack-signature': signature }, body })
        .then((response) => response.arrayBuffer())
        .catch(() => undefined);
    },
  };

  const server = createServer((req, res) => {
    route(state, req, res).catch((error: unknown) => send(res, 500, { status: false, message: `simulator fault: ${String(error)}` }));
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    secretKey,
    transfers: () => [...state.transfers.values()],
    requestCount: (name) => state.requests[name] ?? 0,
    setFaults: (faults) => { state.faults = { ...faults }; },
    setWebhookUrl: (url) => { state.webhookUrl = url; },
    release: () => releaseHeld(state),
    waitFor(reference, status) {
      const current = state.transfers.get(reference);
      if (current?.status === status) return Promise.resolve(current);
      return new Promise((resolve) => waiters.add({ reference, status, resolve }));
    },
    async close() {
      for (const timer of state.timers) clearTimeout(timer);
      for (const res of state.held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function route(state: SimulatorState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://simulator');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const body = await readJson(req);
  const name = `${req.method} ${path.startsWith('/transfer/verify/') ? '/transfer/verify' : path}`;
  state.requests[name] = (state.requests[name] ?? 0) + 1;

  if (path === '/__simulator/transfers' && req.method === 'GET') {
    return send(res, 200, { transfers: [...state.transfers.values()].map((transfer) => transferBody(transfer, state.domain)) });
  }
  if (path === '/__simulator/faults' && req.method === 'POST') {
    state.faults = typeof body === 'object' && body !== null ? (body as SimFaults) : {};
    return send(res, 200, { faults: state.faults });
  }
  if (path === '/__simulator/release' && req.method === 'POST') {
    const count = releaseHeld(state);
    return send(res, 200, { released: count });
  }
  if (req.headers.authorization !== `Bearer ${state.secretKey}`) return send(res, 401, { status: false, message: 'Invalid key' });

  if (req.method === 'GET' && (path === '/bank' || path === '/bank/resolve')) return handleBanks(path, url, res);
  if (req.method === 'POST' && path === '/transferrecipient') return handleRecipient(state, body, res);
  if (req.method === 'POST' && path === '/transfer') return handleTransfer(state, body, res);
  if (req.method === 'GET' && path === '/transfer') return listTransfers(state, url, res);
  if (req.method === 'GET' && path.startsWith('/transfer/verify/')) {
    if (state.faults.verify === 'error') return send(res, 500, { status: false, message: 'An error occurred' });
    const transfer = state.transfers.get(decodeURIComponent(path.slice('/transfer/verify/'.length)));
    if (!transfer) return send(res, 404, { status: false, message: 'Transfer not found' });
    return send(res, 200, { status: true, message: 'Transfer retrieved', data: transferBody(transfer, state.domain) });
  }
  return send(res, 404, { status: false, message: 'Entity not found' });
}

function releaseHeld(state: SimulatorState): number {
  const held = state.held.splice(0);
  for (const res of held) {
    const pending = (res as ServerResponse & { heldBody?: unknown }).heldBody;
    send(res, 200, pending);
  }
  return held.length;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
