import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { PawapaySimLedger, recordOf, submitFaultOf, type SimPayout, type SubmitFault } from './pawapay-sim-ledger';

/** Settings of the simulator; every field has a default suited to tests. Durations in ms. */
export interface PawapaySimulatorOptions {
  readonly port?: number;
  readonly host?: string;
  readonly apiToken?: string;
  readonly processingDelayMs?: number;
  readonly callbackDelayMs?: number;
  /** Where payout callbacks go (pawaPay's Dashboard setting); none: no callbacks until `setCallbackUrl`. */
  readonly callbackUrl?: string;
}

/** A running simulator: its base URL, token, ledger and counters, and `close()`. */
export interface PawapaySimulator {
  readonly url: string;
  readonly apiToken: string;
  /** Emits `settled` (payout) and `callback` (payout, HTTP status or error). */
  readonly events: PawapaySimLedger;
  payouts(): SimPayout[];
  /** How many `POST /v2/payouts` requests arrived for `payoutId` (duplicates included). */
  submissions(payoutId: string): number;
  setCallbackUrl(url: string | undefined): void;
  /** Sets a held payout's status (and failure code) without a callback; false when there is no such payout. */
  setStatus(payoutId: string, status: SimPayout['status'], failureCode?: string): boolean;
  close(): Promise<void>;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** pawaPay's amount rule (initiate payout page): no leading zeros unless below one, at most two decimals. */
const AMOUNT = /^(0|[1-9]\d{0,17})(\.\d{1,2})?$/;
/** The provider codes the simulator knows, with their pawaPay country and currency (pawaPay providers page). */
const PROVIDERS: Record<string, { country: string; currency: string }> = {
  MTN_MOMO_UGA: { country: 'UGA', currency: 'UGX' }, AIRTEL_OAPI_UGA: { country: 'UGA', currency: 'UGX' },
  MTN_MOMO_GHA: { country: 'GHA', currency: 'GHS' }, AIRTEL_TZA: { country: 'TZA', currency: 'TZS' }, TIGO_TZA: { country: 'TZA', currency: 'TZS' },
  MTN_MOMO_ZMB: { country: 'ZMB', currency: 'ZMW' }, AIRTEL_OAPI_ZMB: { country: 'ZMB', currency: 'ZMW' },
  MTN_MOMO_CIV: { country: 'CIV', currency: 'XOF' }, ORANGE_CIV: { country: 'CIV', currency: 'XOF' }, WAVE_CIV: { country: 'CIV', currency: 'XOF' },
  ORANGE_SEN: { country: 'SEN', currency: 'XOF' }, WAVE_SEN: { country: 'SEN', currency: 'XOF' },
  ORANGE_BFA: { country: 'BFA', currency: 'XOF' }, MOOV_BFA: { country: 'BFA', currency: 'XOF' },
  MTN_MOMO_BEN: { country: 'BEN', currency: 'XOF' }, MOOV_BEN: { country: 'BEN', currency: 'XOF' },
  MTN_MOMO_CMR: { country: 'CMR', currency: 'XAF' }, ORANGE_CMR: { country: 'CMR', currency: 'XAF' },
};
const payoutBody = z.strictObject({
  payoutId: z.string(),
  amount: z.string(),
  currency: z.string(),
  recipient: z.strictObject({ type: z.literal('MMO'), accountDetails: z.strictObject({ phoneNumber: z.string(), provider: z.string() }) }),
  customerMessage: z.string().min(4).max(22).optional(),
});
const faultsBody = z.object({
  submit: z.string().regex(/^(error_500|recorded_error_500|hang_recorded|hang_unrecorded|reject_recorded|reject:[A-Z_]*)$/).nullable().optional(),
  /** `error_500`: the status query answers HTTP 500; null clears it. */
  statusQuery: z.enum(['error_500']).nullable().optional(),
  releaseHeld: z.boolean().optional(),
  /**
   * Share (0 to 1) of recorded payouts that end FAILED `UNKNOWN_ERROR` (pawaPay's own fault), drawn
   * from a generator seeded with `seed` (default 1) so a run repeats; 0 or null clears it.
   */
  failShare: z.number().min(0).max(1).nullable().optional(),
  seed: z.number().int().optional(),
});

/** A small seeded generator (mulberry32): uniform numbers in [0, 1), the same sequence for a seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Starts a protocol double of pawaPay's Merchant API v2 payouts on real HTTP: `POST /v2/payouts`
 * (Bearer token; 200 ACCEPTED, DUPLICATE_IGNORED for a known payoutId, REJECTED with a failureReason;
 * 400 INVALID_INPUT / MISSING_PARAMETER / INVALID_PARAMETER, 401 NO_AUTHENTICATION, 403
 * AUTHENTICATION_ERROR, 500 UNKNOWN_ERROR), `GET /v2/payouts/{payoutId}` (FOUND or NOT_FOUND) and
 * payout callbacks to the configured URL. Faults by recipient number (see PawapaySimLedger) or by
 * `POST /__simulator/faults` (`submit`, `statusQuery`, `releaseHeld`, and `failShare` with `seed`:
 * a seeded share of payouts fails); `GET /__simulator/payouts` lists the ledger.
 */
export async function startPawapaySimulator(options: PawapaySimulatorOptions = {}): Promise<PawapaySimulator> {
  const apiToken = options.apiToken ?? 'sim-pawapay-api-token-0123456789abcdef';
  let callbackUrl = options.callbackUrl;
  const ledger = new PawapaySimLedger({
    processingDelayMs: options.processingDelayMs ?? 50, callbackDelayMs: options.callbackDelayMs ?? 500, callbackUrl: () => callbackUrl,
  });
  const held = new Set<ServerResponse>();
  const submissions = new Map<string, number>();
  const state = { forced: null as SubmitFault | null, statusQuery: null as 'error_500' | null, failShare: 0, draw: seeded(1) };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const reject = (res: ServerResponse, http: number, payoutId: string | undefined, failureCode: string, failureMessage: string) =>
    send(res, http, { ...(payoutId ? { payoutId } : {}), status: 'REJECTED', failureReason: { ...(failureCode ? { failureCode } : {}), failureMessage } });

  const payout = (res: ServerResponse, raw: string) => {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return reject(res, 400, undefined, 'INVALID_INPUT', 'Unable to parse the request body');
    }
    const parsed = payoutBody.safeParse(json);
    if (!parsed.success) return reject(res, 400, undefined, 'MISSING_PARAMETER', 'The request does not follow the specification');
    const body = parsed.data;
    if (!UUID_V4.test(body.payoutId)) return reject(res, 400, undefined, 'INVALID_PARAMETER', 'payoutId must be a UUIDv4');
    submissions.set(body.payoutId, (submissions.get(body.payoutId) ?? 0) + 1);
    if (ledger.payouts.has(body.payoutId)) return send(res, 200, { payoutId: body.payoutId, status: 'DUPLICATE_IGNORED', created: new Date().toISOString() });
    const provider = PROVIDERS[body.recipient.accountDetails.provider];
    if (!provider) return reject(res, 200, body.payoutId, 'INVALID_PROVIDER', 'The provider is not valid for the request');
    if (body.currency !== provider.currency) return reject(res, 200, body.payoutId, 'INVALID_CURRENCY', 'The currency is not supported by the provider');
    if (!AMOUNT.test(body.amount) || Number(body.amount) <= 0) return reject(res, 200, body.payoutId, 'INVALID_AMOUNT', 'The amount is not valid');
    const phone = body.recipient.accountDetails.phoneNumber;
    if (!/^\d{9,15}$/.test(phone)) return reject(res, 200, body.payoutId, 'INVALID_PHONE_NUMBER', 'The phone number is not in the MSISDN format');
    const fault = submitFaultOf(phone, state.forced);
    const created = new Date().toISOString();
    const record = () => ledger.record({
      payoutId: body.payoutId, amount: body.amount, currency: body.currency, country: provider.country,
      recipient: body.recipient, created, status: 'ACCEPTED', callbacksSent: 0,
    }, state.failShare > 0 && state.draw() < state.failShare ? 'UNKNOWN_ERROR' : undefined);
    if (fault === 'error_500') return reject(res, 500, body.payoutId, 'UNKNOWN_ERROR', 'Internal error');
    if (fault === 'hang_unrecorded') return void held.add(res);
    if (fault?.startsWith('reject:')) return reject(res, 200, body.payoutId, fault.slice('reject:'.length), 'Simulated rejection');
    record();
    if (fault === 'reject_recorded') return reject(res, 200, body.payoutId, 'INVALID_PARAMETER', 'Simulated rejection of a recorded payout');
    if (fault === 'hang_recorded') return void held.add(res);
    if (fault === 'recorded_error_500') return reject(res, 500, body.payoutId, 'UNKNOWN_ERROR', 'Internal error');
    send(res, 200, { payoutId: body.payoutId, status: 'ACCEPTED', created });
  };

  const control = (res: ServerResponse, raw: string) => {
    let parsed;
    try {
      parsed = faultsBody.safeParse(JSON.parse(raw || '{}'));
    } catch {
      return send(res, 400, { error: 'Body is not JSON' });
    }
    if (!parsed.success) return send(res, 400, { error: 'Unknown fault' });
    const f = parsed.data;
    if (f.submit !== undefined) state.forced = f.submit as SubmitFault | null;
    if (f.statusQuery !== undefined) state.statusQuery = f.statusQuery;
    if (f.releaseHeld) releaseHeld();
    if (f.failShare !== undefined) {
      state.failShare = f.failShare ?? 0;
      state.draw = seeded(f.seed ?? 1);
    }
    send(res, 200, { submit: state.forced, statusQuery: state.statusQuery, failShare: state.failShare });
  };

  const releaseHeld = () => {
    for (const res of held) res.socket?.destroy();
    held.clear();
  };

  const route = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/__simulator/payouts' && req.method === 'GET') return send(res, 200, { payouts: [...ledger.payouts.values()] });
    if (path === '/__simulator/faults' && req.method === 'POST') return control(res, raw);
    const auth = req.headers['authorization'];
    if (!auth || auth.trim() === 'Bearer') return reject(res, 401, undefined, 'NO_AUTHENTICATION', 'No API token in the request headers');
    if (auth !== `Bearer ${apiToken}`) return reject(res, 403, undefined, 'AUTHENTICATION_ERROR', 'The API token is not valid');
    if (path === '/v2/payouts' && req.method === 'POST') return payout(res, raw);
    const status = /^\/v2\/payouts\/([^/]+)$/.exec(path);
    if (status && req.method === 'GET') {
      if (state.statusQuery === 'error_500') return reject(res, 500, undefined, 'UNKNOWN_ERROR', 'Internal error');
      const found = ledger.payouts.get(decodeURIComponent(status[1]!));
      return send(res, 200, found ? { status: 'FOUND', data: recordOf(found) } : { status: 'NOT_FOUND' });
    }
    send(res, 404, { error: 'No such operation' });
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
    apiToken,
    events: ledger,
    payouts: () => [...ledger.payouts.values()],
    submissions: (payoutId) => submissions.get(payoutId) ?? 0,
    setCallbackUrl: (url) => {
      callbackUrl = url;
    },
    setStatus: (payoutId, status, failureCode) => {
      const found = ledger.payouts.get(payoutId);
      if (!found) return false;
      found.status = status;
      if (failureCode === undefined) delete found.failureReason;
      else found.failureReason = { failureCode, failureMessage: 'Set by the test' };
      return true;
    },
    close: async () => {
      ledger.close();
      releaseHeld();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
