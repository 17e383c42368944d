import { constants, generateKeyPairSync, privateDecrypt, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  conversationId, darajaOriginatorId, faultOfParty, FAULT_MODES, FAULT_RESPONSE_CODES, outcomeOf, paymentResultBody, receipt,
  RESPONSE_CACHED, RESPONSE_DESCRIPTIONS, statusResultBody, type FaultMode, type SimTransfer,
} from './mpesa-simulator-ledger';
import { validateB2b, validateB2c, validateStatus, type Fields } from './mpesa-simulator-validation';

/** Options of the M-Pesa Daraja simulator; every credential has a development default. */
export interface MpesaSimulatorOptions {
  /** 0 picks a free port. */
  readonly port?: number;
  readonly host?: string;
  readonly consumerKey?: string;
  readonly consumerSecret?: string;
  readonly initiatorName?: string;
  readonly initiatorPassword?: string;
  /** Shortcodes allowed as PartyA. */
  readonly shortcodes?: readonly string[];
  /** Lifetime of issued tokens, in seconds (Daraja: 3599). */
  readonly tokenTtlSeconds?: number;
  /** Wait before posting a result, in milliseconds; `delay` faults wait `delayedCallbackMs`. */
  readonly callbackDelayMs?: number;
  readonly delayedCallbackMs?: number;
}

/** A running simulator. `publicKeyPem` stands in for the M-Pesa certificate (MPESA_CERTIFICATE_PATH). */
export interface MpesaSimulator {
  readonly url: string;
  readonly publicKeyPem: string;
  readonly options: Required<Omit<MpesaSimulatorOptions, 'port' | 'host'>>;
  /** Disbursements held, oldest first. */
  transfers(): SimTransfer[];
  /** Tokens issued since start. */
  tokensIssued(): number;
  /** Queues fault modes for the next payment requests, before the PartyB digits are looked at. */
  queueFaults(...modes: FaultMode[]): void;
  /**
   * Queues non-zero ResponseCodes for the next payment requests, before any fault mode: each is
   * answered HTTP 200 with that code; `100000000` (cached) is recorded and processed later, any
   * other is recorded nothing.
   */
  queueResponseCodes(...codes: string[]): void;
  close(): Promise<void>;
}

/**
 * Starts a protocol double of Safaricom Daraja over HTTP (https://developer.safaricom.co.ke/apis):
 * OAuth client-credentials tokens (each new one invalidates the previous one), B2C v3 and B2B
 * payment requests validated as documented, results POSTed to ResultURL or QueueTimeOutURL,
 * Transaction Status queries answered on their ResultURL, duplicate OriginatorConversationIDs
 * refused with 500.002.1001. The SecurityCredential is checked by decrypting it with the
 * simulator's own RSA key. Control: `POST /__simulator/faults {"next": [modes], "responseCodes": [codes]}`,
 * `GET /__simulator/transfers`. Faults: see FAULT_MODES.
 */
export async function startMpesaSimulator(options: MpesaSimulatorOptions = {}): Promise<MpesaSimulator> {
  const opts = {
    consumerKey: 'sim-consumer-key', consumerSecret: 'sim-consumer-secret', initiatorName: 'sim-initiator',
    initiatorPassword: 'Sim#Pass1', shortcodes: ['600000'], tokenTtlSeconds: 3599, callbackDelayMs: 20, delayedCallbackMs: 1500,
    ...options,
  };
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ledger = new Map<string, SimTransfer>();
  const queued: FaultMode[] = [];
  const queuedCodes: string[] = [];
  const held = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  let token: { value: string; expiresAt: number } | undefined;
  let issued = 0;
  let closing = false;

  const post = (url: string, body: object, delayMs: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (closing) return;
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).catch(() => undefined);
    }, delayMs);
    timers.add(timer);
  };
  const initiatorOk = (f: Fields, nameField: string) =>
    f[nameField] === opts.initiatorName && decryptCredential(privateKey, f.SecurityCredential ?? '') === opts.initiatorPassword;

  const payment = (api: 'b2c' | 'b2b', f: Fields, res: ServerResponse) => {
    const invalid = api === 'b2c' ? validateB2c(f, opts.shortcodes) : validateB2b(f, opts.shortcodes);
    if (invalid) return gatewayError(res, 400, '400.002.02', `Bad Request - Invalid ${invalid}`);
    const ocid = api === 'b2c' ? f.OriginatorConversationID! : darajaOriginatorId();
    if (ledger.has(ocid)) return gatewayError(res, 500, '500.002.1001', 'Duplicate OriginatorConversationID.');
    const responseCode = queuedCodes.shift();
    const fault = responseCode === undefined ? queued.shift() ?? faultOfParty(f.PartyB!) : 'none';
    if (fault === 'error_5xx') return gatewayError(res, 500, '500.003.1001', 'Internal Server Error');
    if (fault === 'throttle') return gatewayError(res, 500, '500.003.02', 'Error Occurred: Spike Arrest Violation');
    const code = responseCode ?? FAULT_RESPONSE_CODES[fault] ?? '0';
    const acknowledge = (conversation: string) => json(res, 200, {
      ConversationID: conversation, OriginatorConversationID: ocid, ResponseCode: code,
      ResponseDescription: code === '0' ? 'Accept the service request successfully.' : RESPONSE_DESCRIPTIONS[code] ?? 'Undocumented response (simulator)',
    });
    // A refused request is not recorded; a cached one is, and is processed once "resent" (after delayedCallbackMs).
    if (code !== '0' && code !== RESPONSE_CACHED) return acknowledge(conversationId());
    const transfer: SimTransfer = {
      originatorConversationId: ocid, conversationId: conversationId(), api, commandId: f.CommandID!, partyA: f.PartyA!,
      partyB: f.PartyB!, ...(api === 'b2b' ? { accountReference: f.AccountReference } : {}), amount: f.Amount!, receipt: receipt(),
      ...outcomeOf(api, fault, initiatorOk(f, api === 'b2c' ? 'InitiatorName' : 'Initiator')),
      fault, resultUrl: f.ResultURL!, queueTimeOutUrl: f.QueueTimeOutURL!, createdAt: new Date().toISOString(),
    };
    ledger.set(ocid, transfer);
    if (fault === 'queue_timeout') post(transfer.queueTimeOutUrl, { simulated: 'queue timeout', OriginatorConversationID: ocid }, opts.callbackDelayMs);
    else if (fault !== 'missing' && fault !== 'unknown_status_word') {
      const delayed = fault === 'delay' || code === RESPONSE_CACHED;
      post(transfer.resultUrl, paymentResultBody(transfer), delayed ? opts.delayedCallbackMs : opts.callbackDelayMs);
      if (fault === 'duplicate') post(transfer.resultUrl, paymentResultBody(transfer), opts.callbackDelayMs * 3);
    }
    if (fault === 'hang') return void held.add(res);
    if (fault === 'reset') return void res.socket?.destroy();
    acknowledge(transfer.conversationId);
  };

  const status = (f: Fields, res: ServerResponse) => {
    const invalid = validateStatus(f, opts.shortcodes);
    if (invalid) return gatewayError(res, 400, '400.002.02', `Bad Request - Invalid ${invalid}`);
    const query = { ocid: darajaOriginatorId(), conversationId: conversationId() };
    const found = f.OriginalConversationID
      ? ledger.get(f.OriginalConversationID)
      : [...ledger.values()].find((t) => t.receipt === f.TransactionID);
    json(res, 200, { ConversationID: query.conversationId, OriginatorConversationID: query.ocid, ResponseCode: '0', ResponseDescription: 'Accept the service request successfully.' });
    const body = initiatorOk(f, 'Initiator')
      ? statusResultBody(query, found)
      : { Result: { ResultType: 0, ResultCode: 2001, ResultDesc: 'The initiator information is invalid.', OriginatorConversationID: query.ocid, ConversationID: query.conversationId } };
    post(f.ResultURL!, body, opts.callbackDelayMs);
  };

  const server = createServer((req, res) => {
    void route(req, res).catch(() => gatewayError(res, 500, '500.003.1001', 'Internal Server Error'));
  });
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const raw = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/__simulator/transfers') return json(res, 200, { transfers: [...ledger.values()] });
    if (req.method === 'POST' && url.pathname === '/__simulator/faults') {
      const { next = [], responseCodes = [] } = (parseJson(raw) ?? {}) as { next?: unknown; responseCodes?: unknown };
      if (!Array.isArray(next) || !next.every((m) => FAULT_MODES.includes(m))) return json(res, 400, { error: `next must list ${FAULT_MODES.join(', ')}` });
      if (!Array.isArray(responseCodes) || !responseCodes.every((c) => typeof c === 'string' && /^[1-9]\d{0,9}$/.test(c))) {
        return json(res, 400, { error: 'responseCodes must list non-zero ResponseCodes as strings' });
      }
      queued.push(...(next as FaultMode[]));
      queuedCodes.push(...(responseCodes as string[]));
      return json(res, 200, { queued: [...queued], responseCodes: [...queuedCodes] });
    }
    if (url.pathname === '/oauth/v1/generate' && req.method === 'GET') {
      if (url.searchParams.get('grant_type') !== 'client_credentials') return gatewayError(res, 400, '400.008.02', 'Invalid grant type passed');
      // Daraja documents no separate code for wrong credentials: its "Invalid authentication type" is used.
      if (!basicMatches(req.headers.authorization, opts.consumerKey, opts.consumerSecret)) return gatewayError(res, 400, '400.008.01', 'Invalid authentication type passed');
      token = { value: randomBytes(21).toString('base64url'), expiresAt: Date.now() + opts.tokenTtlSeconds * 1000 };
      issued += 1;
      return json(res, 200, { access_token: token.value, expires_in: opts.tokenTtlSeconds });
    }
    const handler = req.method === 'POST' ? {
      '/mpesa/b2c/v3/paymentrequest': (f: Fields) => payment('b2c', f, res),
      '/mpesa/b2b/v1/paymentrequest': (f: Fields) => payment('b2b', f, res),
      '/mpesa/transactionstatus/v1/query': (f: Fields) => status(f, res),
    }[url.pathname] : undefined;
    if (!handler) return gatewayError(res, 404, '404.001.01', 'Resource not found');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || bearer !== token.value || Date.now() >= token.expiresAt) return gatewayError(res, 401, '401.002.01', 'Error Occurred - Invalid Access Token');
    const fields = parseJson(raw);
    if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return gatewayError(res, 400, '400.002.05', 'Invalid Request Payload');
    handler(stringFields(fields as Record<string, unknown>));
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    options: opts,
    transfers: () => [...ledger.values()],
    tokensIssued: () => issued,
    queueFaults: (...modes) => void queued.push(...modes),
    queueResponseCodes: (...codes) => void queuedCodes.push(...codes),
    close: async () => {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      for (const res of held) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Decrypts a SecurityCredential (base64 of RSA PKCS #1 v1.5). Node 20 refuses PKCS #1 v1.5 private
 * decryption (CVE-2023-46809), so the padding (00 02 nonzero-bytes 00 message) is removed by hand.
 */
function decryptCredential(privateKey: KeyObject, credential: string): string | undefined {
  try {
    const block = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(credential, 'base64'));
    const end = block.indexOf(0, 2);
    if (block[0] !== 0 || block[1] !== 2 || end < 10) return undefined;
    return block.subarray(end + 1).toString('utf8');
  } catch {
    return undefined;
  }
}

function basicMatches(header: string | undefined, key: string, secret: string): boolean {
  const given = Buffer.from(/^Basic (.+)$/.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(Buffer.from(`${key}:${secret}`).toString('base64'));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Daraja sends and accepts numbers as strings or numbers; the simulator validates their text. */
function stringFields(body: Record<string, unknown>): Fields {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === 'string' || typeof v === 'number').map(([k, v]) => [k, String(v)]));
}

function gatewayError(res: ServerResponse, status: number, errorCode: string, errorMessage: string): void {
  json(res, status, { requestId: randomBytes(8).toString('hex'), errorCode, errorMessage });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
