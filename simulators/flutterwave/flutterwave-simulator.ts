import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  planFor, SIM_FAILURE_MESSAGE, transferBody, UNDOCUMENTED_STATUS, type SimFaults, type SimTransfer,
} from './flutterwave-simulator-ledger';

/** Settings of a simulator; every one has a default fit for tests. */
export interface FlutterwaveSimulatorOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** The secret key it accepts (default `FLWSECK_TEST-simulator-X`). */
  readonly secretKey?: string;
  /** The secret hash it sends as `verif-hash` (default a fixed 32-character test value). */
  readonly secretHash?: string;
  /** Where it POSTs `transfer.completed` webhooks (the dashboard's webhook URL); none when unset. */
  readonly webhookUrl?: string;
  /** Time from queueing to the final status, ms (default 20). */
  readonly resultDelayMs?: number;
  /** Extra wait of a "delayed" webhook, ms (default 1000). */
  readonly delayedCallbackMs?: number;
  /** Transfers per page of `GET /v3/transfers` (default 10, as Flutterwave's sample pages). */
  readonly pageSize?: number;
}

/** A running simulator. */
export interface FlutterwaveSimulator {
  /** Base URL to give the adapter as FLUTTERWAVE_BASE_URL. */
  readonly url: string;
  readonly secretKey: string;
  readonly secretHash: string;
  /** The ledger: every transfer recorded, one per disbursement. */
  transfers(): SimTransfer[];
  /** Requests received per route (`POST /v3/transfers`, `GET /v3/transfers`, …). */
  requestCount(route: string): number;
  /** Faults for later requests (replaces the previous set; `{}` clears). */
  setFaults(faults: SimFaults): void;
  setWebhookUrl(url: string | undefined): void;
  /** Answers the held `POST /v3/transfers` responses. */
  release(): void;
  /** Resolves once the transfer with `reference` has `status`. */
  waitFor(reference: string, status: string): Promise<SimTransfer>;
  close(): Promise<void>;
}

interface State {
  readonly transfers: Map<string, SimTransfer>;
  readonly requests: Record<string, number>;
  readonly held: Array<{ res: ServerResponse; body: unknown }>;
  readonly timers: Set<NodeJS.Timeout>;
  faults: SimFaults;
  webhookUrl: string | undefined;
}

// Transfer ids start from the clock so that simulators started by different test files on one
// database never hand out the same id: the service keys a webhook by transfer id and status, and a
// repeated id would be taken for an earlier file's webhook and acknowledged without effect.
let sequence = 396_000_000 + (Date.now() % 1_000_000) * 1_000;

/**
 * Starts a Flutterwave Transfers (v3) protocol double over real HTTP: bearer secret-key auth,
 * `POST /v3/transfers` with duplicate-reference refusal, `GET /v3/transfers` (by `reference`, or by
 * `from`/`to` with `page` and `meta.page_info`), `GET /v3/transfers/{id}`, `transfer.completed`
 * webhooks carrying `verif-hash`, and fault modes chosen by the account number's last two digits
 * (`planFor`) or by `POST /__simulator/faults`. `GET /__simulator/transfers` lists the ledger;
 * `POST /__simulator/release` answers held submits.
 */
export async function startFlutterwaveSimulator(options: FlutterwaveSimulatorOptions = {}): Promise<FlutterwaveSimulator> {
  const secretKey = options.secretKey ?? 'FLWSECK_TEST-simulator-X';
  const secretHash = options.secretHash ?? 'sim-hash-7Qv2Lr9Xw4Kp8Zt3Nc6Bm1Hd';
  const resultDelayMs = options.resultDelayMs ?? 20;
  const delayedCallbackMs = options.delayedCallbackMs ?? 1000;
  const pageSize = options.pageSize ?? 10;
  const state: State = { transfers: new Map(), requests: {}, held: [], timers: new Set(), faults: {}, webhookUrl: options.webhookUrl };
  const waiters = new Set<{ reference: string; status: string; resolve: (transfer: SimTransfer) => void }>();

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      state.timers.delete(timer);
      run();
    }, ms);
    state.timers.add(timer);
  };
  const change = (transfer: SimTransfer, status: string, message: string) => {
    transfer.status = status;
    transfer.complete_message = message;
    for (const waiter of waiters) {
      if (waiter.reference === transfer.reference && waiter.status === status) {
        waiters.delete(waiter);
        waiter.resolve(transfer);
      }
    }
  };
  const sendWebhook = (snapshot: Record<string, unknown>) => {
    if (!state.webhookUrl) return;
    const body = JSON.stringify({ event: 'transfer.completed', 'event.type': 'Transfer', data: snapshot });
    fetch(state.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'verif-hash': secretHash }, body })
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
  };
  const deliver = (transfer: SimTransfer) => {
    const snapshot = transferBody(transfer);
    switch (transfer.plan.callback) {
      case 'missing':
        return;
      case 'duplicated':
        sendWebhook(snapshot);
        sendWebhook(snapshot);
        return;
      case 'delayed':
        later(delayedCallbackMs, () => sendWebhook(snapshot));
        return;
      default:
        sendWebhook(snapshot);
    }
  };
  const settle = (transfer: SimTransfer) => {
    later(resultDelayMs, () => {
      switch (transfer.plan.outcome) {
        case 'pending':
          return change(transfer, 'PENDING', '');
        case 'undocumented':
          return change(transfer, UNDOCUMENTED_STATUS, '');
        case 'failed':
          change(transfer, 'FAILED', SIM_FAILURE_MESSAGE);
          return deliver(transfer);
        default:
          change(transfer, 'SUCCESSFUL', 'Transaction was successful');
          return deliver(transfer);
      }
    });
  };

  const handleCreate = (body: Record<string, unknown>, res: ServerResponse) => {
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string).trim() : '');
    for (const name of ['account_bank', 'account_number', 'currency', 'reference']) {
      if (text(name) === '') return send(res, 400, error(`${name} is required`));
    }
    if (typeof body.amount !== 'number' || !(body.amount > 0)) return send(res, 400, error('amount must be a positive number'));
    // Kenyan M-Pesa needs the sender in `meta` (mobile money transfers page, "Kenya (M-PESA)").
    if (text('account_bank') === 'MPS' && text('currency') === 'KES') {
      const meta = (body.meta ?? {}) as Record<string, unknown>;
      const missing = ['sender', 'sender_country', 'mobile_number'].find((name) => typeof meta[name] !== 'string' || meta[name] === '');
      if (missing) return send(res, 400, error(`meta.${missing} is required for M-Pesa Kenya transfers (simulated)`));
    }
    if (state.transfers.has(text('reference'))) return send(res, 400, error('Transfer with this reference already exists (simulated)'));
    const plan = planFor(text('account_number'), state.faults);
    if (plan.submit === 'error_before') return send(res, 500, error('An error occurred (simulated)'));
    if (plan.submit === 'insufficient_balance') return send(res, 400, error('DISBURSE FAILED: Insufficient funds in customer wallet'));
    const transfer: SimTransfer = {
      id: (sequence += 1), reference: text('reference'), account_number: text('account_number'), bank_code: text('account_bank'),
      full_name: text('beneficiary_name') || 'N/A', amount: body.amount, currency: text('currency'), narration: text('narration'),
      plan, status: 'NEW', complete_message: '', created_at: new Date().toISOString(),
    };
    state.transfers.set(transfer.reference, transfer);
    settle(transfer);
    if (plan.submit === 'error_after') return send(res, 500, error('An error occurred (simulated)'));
    const answer = { status: 'success', message: 'Transfer Queued Successfully', data: transferBody(transfer) };
    if (plan.submit === 'hold') {
      state.held.push({ res, body: answer });
      return;
    }
    return send(res, 200, answer);
  };

  const handleList = (url: URL, res: ServerResponse) => {
    if (state.faults.lookup === 'error') return send(res, 500, error('An error occurred (simulated)'));
    const reference = url.searchParams.get('reference');
    const from = url.searchParams.get('from');
    const to = url.searchParams.get('to');
    const day = (iso: string) => iso.slice(0, 10);
    const all = [...state.transfers.values()]
      .filter((t) => (reference === null || t.reference === reference)
        && (from === null || day(t.created_at) >= from) && (to === null || day(t.created_at) <= to))
      .reverse();
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const totalPages = Math.max(1, Math.ceil(all.length / pageSize));
    return send(res, 200, {
      status: 'success', message: 'Transfers fetched',
      meta: { page_info: { total: all.length, current_page: page, total_pages: totalPages } },
      data: all.slice((page - 1) * pageSize, page * pageSize).map(transferBody),
    });
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const body = await readJson(req);
    const name = `${req.method} ${/^\/v3\/transfers\/\d+$/.test(path) ? '/v3/transfers/{id}' : path}`;
    state.requests[name] = (state.requests[name] ?? 0) + 1;
    if (path === '/__simulator/transfers' && req.method === 'GET') return send(res, 200, { transfers: [...state.transfers.values()].map(transferBody) });
    if (path === '/__simulator/faults' && req.method === 'POST') {
      state.faults = typeof body === 'object' && body !== null ? (body as SimFaults) : {};
      return send(res, 200, { faults: state.faults });
    }
    if (path === '/__simulator/release' && req.method === 'POST') return send(res, 200, { released: releaseHeld(state) });
    if (req.headers.authorization !== `Bearer ${secretKey}`) return send(res, 401, error('Invalid authorization key'));
    if (req.method === 'POST' && path === '/v3/transfers') return handleCreate((body ?? {}) as Record<string, unknown>, res);
    if (req.method === 'GET' && path === '/v3/transfers') return handleList(url, res);
    if (req.method === 'GET' && /^\/v3\/transfers\/\d+$/.test(path)) {
      const id = Number(path.slice('/v3/transfers/'.length));
      const transfer = [...state.transfers.values()].find((t) => t.id === id);
      if (!transfer) return send(res, 404, error('Transfer not found'));
      return send(res, 200, { status: 'success', message: 'Transfer fetched', data: transferBody(transfer) });
    }
    return send(res, 404, error('Not found'));
  };

  const server = createServer((req, res) => {
    route(req, res).catch((failure: unknown) => send(res, 500, error(`simulator fault: ${String(failure)}`)));
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    secretKey,
    secretHash,
    transfers: () => [...state.transfers.values()],
    requestCount: (routeName) => state.requests[routeName] ?? 0,
    setFaults: (faults) => { state.faults = { ...faults }; },
    setWebhookUrl: (url) => { state.webhookUrl = url; },
    release: () => { releaseHeld(state); },
    waitFor(reference, status) {
      const current = state.transfers.get(reference);
      if (current?.status === status) return Promise.resolve(current);
      return new Promise((resolve) => waiters.add({ reference, status, resolve }));
    },
    async close() {
      for (const timer of state.timers) clearTimeout(timer);
      for (const held of state.held.splice(0)) held.res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function error(message: string): Record<string, unknown> {
  return { status: 'error', message, data: null };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function releaseHeld(state: State): number {
  const held = state.held.splice(0);
  for (const { res, body } of held) send(res, 200, body);
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
