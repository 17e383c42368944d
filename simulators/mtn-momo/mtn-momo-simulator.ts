import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { SimLedger, statusBodyOf, submitFaultOf, type SimTransfer, type SubmitFault } from './mtn-momo-sim-ledger';

/** Settings of the simulator; every field has a default suited to tests. Durations in ms, token life in s. */
export interface MtnMomoSimulatorOptions {
  readonly port?: number;
  readonly host?: string;
  readonly subscriptionKey?: string;
  readonly apiUser?: string;
  readonly apiKey?: string;
  readonly targetEnvironment?: string;
  /** The one currency the environment takes (the real sandbox: EUR). */
  readonly currency?: string;
  readonly tokenExpiresInS?: number;
  readonly processingDelayMs?: number;
  readonly callbackDelayMs?: number;
  readonly callbackMethod?: 'POST' | 'PUT';
  /** When set, an `X-Callback-Url` on another host is refused (500 INVALID_CALLBACK_URL_HOST). */
  readonly providerCallbackHost?: string;
}

/** A running simulator: its base URL, its ledger and counters, and `close()`. */
export interface MtnMomoSimulator {
  readonly url: string;
  readonly credentials: { subscriptionKey: string; apiUser: string; apiKey: string; targetEnvironment: string; currency: string };
  /** Emits `settled` (transfer) and `callback` (transfer, HTTP status or error). */
  readonly events: SimLedger;
  transfers(): SimTransfer[];
  /**
   * Moves a held transfer to `status` (with `reason` when FAILED) as MTN's own record, without a
   * callback, e.g. to make its record disagree with a callback; false when no transfer has `referenceId`.
   */
  setStatus(referenceId: string, status: SimTransfer['status'], reason?: string): boolean;
  tokenRequests(): number;
  close(): Promise<void>;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const transferBody = z.object({
  amount: z.string().regex(/^\d+(\.\d+)?$/).refine((v) => Number(v) > 0),
  currency: z.string(),
  externalId: z.string().min(1),
  payee: z.object({ partyIdType: z.literal('MSISDN'), partyId: z.string().regex(/^\d{5,15}$/) }),
  payerMessage: z.string().default(''),
  payeeNote: z.string().default(''),
});
const faultsBody = z.object({
  submit: z.enum(['error_500', 'recorded_error_500', 'hang_recorded', 'hang_unrecorded', 'bad_request', 'conflict_unrecorded']).nullable().optional(),
  /** `error_500`: `GET` on a transfer answers 500 INTERNAL_PROCESSING_ERROR; null clears it. */
  statusQuery: z.enum(['error_500']).nullable().optional(),
  revokeTokens: z.boolean().optional(),
  tokenExpiresInS: z.number().int().positive().optional(),
  releaseHeld: z.boolean().optional(),
});

/**
 * Starts a protocol double of MTN MoMo Disbursements on real HTTP (the endpoints, headers, bodies and
 * answers the MoMo documentation and MTN's SDKs describe): `POST /disbursement/token/` (Basic
 * apiUser:apiKey + subscription key, no body), `POST /disbursement/v1_0/transfer` (202; 409
 * RESOURCE_ALREADY_EXIST on a reused X-Reference-Id, or by fault without a record; 400 on a bad reference, body, >160 characters
 * of note and message, or an apostrophe; 500 INVALID_CURRENCY, NOT_ALLOWED_TARGET_ENVIRONMENT,
 * INVALID_CALLBACK_URL_HOST), `GET /disbursement/v1_0/transfer/{referenceId}` (200 or 404
 * RESOURCE_NOT_FOUND), callbacks to `X-Callback-Url`. Faults by payee number (see SimLedger) or by
 * `POST /__simulator/faults`; `GET /__simulator/transfers` lists the ledger.
 */
export async function startMtnMomoSimulator(options: MtnMomoSimulatorOptions = {}): Promise<MtnMomoSimulator> {
  const credentials = {
    subscriptionKey: options.subscriptionKey ?? 'sim-subscription-key',
    apiUser: options.apiUser ?? '7c1e3b4a-2f5d-4e8a-9b6c-1d2e3f4a5b6c',
    apiKey: options.apiKey ?? 'sim-api-key',
    targetEnvironment: options.targetEnvironment ?? 'sandbox',
    currency: options.currency ?? 'EUR',
  };
  const ledger = new SimLedger({
    processingDelayMs: options.processingDelayMs ?? 50,
    callbackDelayMs: options.callbackDelayMs ?? 500,
    callbackMethod: options.callbackMethod ?? 'POST',
  });
  const tokens = new Map<string, number>();
  const held = new Set<ServerResponse>();
  const state = {
    tokenRequests: 0, tokenExpiresInS: options.tokenExpiresInS ?? 3600, forced: null as SubmitFault | null, statusQuery: null as 'error_500' | null,
  };

  const send = (res: ServerResponse, status: number, body?: unknown) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' }).end(text);
  };
  const error = (res: ServerResponse, status: number, code: string, message: string) => send(res, status, { code, message });

  const token = (req: IncomingMessage, res: ServerResponse, body: string) => {
    state.tokenRequests += 1;
    const basic = `Basic ${Buffer.from(`${credentials.apiUser}:${credentials.apiKey}`).toString('base64')}`;
    if (req.headers['authorization'] !== basic) return error(res, 401, 'UNAUTHORIZED', 'Invalid API user or key');
    // "Inputting a Body in an API that is not supported e.g. /Token API" is a 400 (MoMo common errors).
    if (body.length > 0) return error(res, 400, 'BAD_REQUEST', 'The token API takes no body');
    const issued = randomBytes(24).toString('hex');
    tokens.set(issued, Date.now() + state.tokenExpiresInS * 1000);
    send(res, 200, { access_token: issued, token_type: 'access_token', expires_in: state.tokenExpiresInS });
  };

  const bearerOk = (req: IncomingMessage) => {
    const presented = /^Bearer (.+)$/.exec(req.headers['authorization'] ?? '')?.[1];
    const expiry = presented === undefined ? undefined : tokens.get(presented);
    return expiry !== undefined && expiry > Date.now();
  };

  const transfer = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const referenceId = String(req.headers['x-reference-id'] ?? '');
    if (!UUID_V4.test(referenceId)) return error(res, 400, 'BAD_REQUEST', 'X-Reference-Id must be a UUID version 4');
    if (ledger.transfers.has(referenceId)) return error(res, 409, 'RESOURCE_ALREADY_EXIST', 'Duplicated reference id. Creation of resource failed.');
    let parsed;
    try {
      parsed = transferBody.safeParse(JSON.parse(raw));
    } catch {
      return error(res, 400, 'BAD_REQUEST', 'Body is not JSON');
    }
    if (!parsed.success) return error(res, 400, 'BAD_REQUEST', 'Request does not follow the specification');
    const body = parsed.data;
    if (body.payerMessage.length + body.payeeNote.length > 160) return error(res, 400, 'BAD_REQUEST', 'More than 160 characters in the note and message');
    if (/'/.test(body.payerMessage + body.payeeNote)) return error(res, 400, 'BAD_REQUEST', 'Unsupported special characters');
    if (body.currency !== credentials.currency) return error(res, 500, 'INVALID_CURRENCY', 'Currency not supported.');
    const callbackUrl = req.headers['x-callback-url'] as string | undefined;
    if (callbackUrl && options.providerCallbackHost && hostOf(callbackUrl) !== options.providerCallbackHost) {
      return error(res, 500, 'INVALID_CALLBACK_URL_HOST', 'Callback URL with different host name to configured for API User');
    }
    const fault = submitFaultOf(body.payee.partyId, state.forced);
    if (fault === 'error_500') return error(res, 500, 'INTERNAL_PROCESSING_ERROR', 'An internal error occurred while processing.');
    if (fault === 'bad_request') return error(res, 400, 'BAD_REQUEST', 'Request does not follow the specification');
    if (fault === 'conflict_unrecorded') return error(res, 409, 'RESOURCE_ALREADY_EXIST', 'Duplicated reference id. Creation of resource failed.');
    if (fault === 'hang_unrecorded') return void held.add(res);
    ledger.record({ referenceId, ...body, status: 'PENDING', callbackUrl, callbacksSent: 0 });
    if (fault === 'hang_recorded') return void held.add(res);
    if (fault === 'recorded_error_500') return error(res, 500, 'INTERNAL_PROCESSING_ERROR', 'An internal error occurred while processing.');
    send(res, 202);
  };

  const control = (res: ServerResponse, raw: string) => {
    let parsed;
    try {
      parsed = faultsBody.safeParse(JSON.parse(raw || '{}'));
    } catch {
      return error(res, 400, 'BAD_REQUEST', 'Body is not JSON');
    }
    if (!parsed.success) return error(res, 400, 'BAD_REQUEST', 'Unknown fault');
    const f = parsed.data;
    if (f.submit !== undefined) state.forced = f.submit;
    if (f.statusQuery !== undefined) state.statusQuery = f.statusQuery;
    if (f.tokenExpiresInS !== undefined) state.tokenExpiresInS = f.tokenExpiresInS;
    if (f.revokeTokens) tokens.clear();
    if (f.releaseHeld) releaseHeld();
    send(res, 200, { submit: state.forced, statusQuery: state.statusQuery, tokenExpiresInS: state.tokenExpiresInS });
  };

  const releaseHeld = () => {
    for (const res of held) res.socket?.destroy();
    held.clear();
  };

  const route = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/__simulator/transfers' && req.method === 'GET') {
      return send(res, 200, { transfers: [...ledger.transfers.values()], tokenRequests: state.tokenRequests });
    }
    if (path === '/__simulator/faults' && req.method === 'POST') return control(res, raw);
    if (!path.startsWith('/disbursement/')) return error(res, 404, 'RESOURCE_NOT_FOUND', 'No such operation');
    if (req.headers['ocp-apim-subscription-key'] !== credentials.subscriptionKey) {
      return error(res, 401, 'ACCESS_DENIED', 'Access denied due to invalid subscription key.');
    }
    if (/^\/disbursement\/token\/?$/.test(path) && req.method === 'POST') return token(req, res, raw);
    if (!bearerOk(req)) return error(res, 401, 'UNAUTHORIZED', 'Access token missing, invalid or expired');
    if (req.headers['x-target-environment'] !== credentials.targetEnvironment) {
      return error(res, 500, 'NOT_ALLOWED_TARGET_ENVIRONMENT', 'Access to target environment is forbidden.');
    }
    if (path === '/disbursement/v1_0/transfer' && req.method === 'POST') return transfer(req, res, raw);
    const status = /^\/disbursement\/v1_0\/transfer\/([^/]+)$/.exec(path);
    if (status && req.method === 'GET') {
      if (state.statusQuery === 'error_500') return error(res, 500, 'INTERNAL_PROCESSING_ERROR', 'An internal error occurred while processing.');
      const found = ledger.transfers.get(decodeURIComponent(status[1]!));
      return found ? send(res, 200, statusBodyOf(found)) : error(res, 404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
    }
    error(res, 404, 'RESOURCE_NOT_FOUND', 'No such operation');
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => route(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    credentials,
    events: ledger,
    transfers: () => [...ledger.transfers.values()],
    setStatus: (referenceId, status, reason) => {
      const found = ledger.transfers.get(referenceId);
      if (!found) return false;
      found.status = status;
      if (reason === undefined) delete found.reason;
      else found.reason = reason;
      return true;
    },
    tokenRequests: () => state.tokenRequests,
    close: async () => {
      ledger.close();
      releaseHeld();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
