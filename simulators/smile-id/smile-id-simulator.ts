import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { smileIdSignature, smileIdSignatureMatches } from '../../src/adapters/providers/smile-id/smile-id-signature';

/** Settings of a simulator; every one has a default fit for tests. */
export interface SmileIdSimulatorOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** The partner id and API key it accepts and signs with. */
  readonly partnerId?: string;
  readonly apiKey?: string;
  /** Time from submission to the job's final result (and its callback), ms (default 20). */
  readonly resultDelayMs?: number;
  /** Whether it POSTs results to the job's `callback_url` (default true). */
  readonly callbacks?: boolean;
}

/** One Enhanced KYC job as the simulator keeps it. */
export interface SimJob {
  readonly userId: string;
  readonly jobId: string;
  readonly smileJobId: string;
  readonly country: string;
  readonly idType: string;
  readonly idNumber: string;
  readonly callbackUrl: string;
  /** The result as sent to the callback and by job status, once final. */
  result?: Record<string, unknown>;
}

/** A running simulator. */
export interface SmileIdSimulator {
  /** Base URL to give the adapter as SMILE_ID_BASE_URL (ends in `/v1`). */
  readonly url: string;
  readonly partnerId: string;
  readonly apiKey: string;
  jobs(): SimJob[];
  /** Requests received per route (`POST /v1/async_id_verification`, `POST /v1/job_status`), refused ones included. */
  requestCount(route: string): number;
  /** Requests refused for a wrong signature or partner id. */
  refusedSignatures(): number;
  /** Makes every later job whose ID number is `idNumber` end with `code` (tests of each result code). */
  forceResult(idNumber: string, code: string): void;
  /** Sends no callback for jobs whose ID number is `idNumber` (a lost callback, or a test that sends its own). */
  withoutCallback(idNumber: string): void;
  /** Resolves once the job has its final result. */
  waitForResult(userId: string, jobId: string): Promise<SimJob>;
  /** POSTs the job's result to its callback URL again (a redelivery), resolving with the HTTP status. */
  redeliver(userId: string, jobId: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * The sandbox behaviours by the ID number's last digit, as Smile ID's test data page documents them
 * (https://docs.usesmileid.com/supported-id-types/for-individuals-kyc/backed-by-id-authority/test-data):
 * 0 success (1012), 1 no record found (1013), 2 invalid ID number format (1014), 3 ID authority
 * unavailable (1015), 4 success with custom data (1012). Other digits are not documented: the
 * simulator answers 1014, as Smile ID answers numbers that are not its test data.
 */
export const SANDBOX_RESULTS: Readonly<Record<string, { code: string; text: string }>> = {
  0: { code: '1012', text: 'ID Number Validated' },
  1: { code: '1013', text: 'Unable to Validate ID' },
  2: { code: '1014', text: 'Unsupported ID number format' },
  3: { code: '1015', text: 'Queried Database Unavailable' },
  4: { code: '1012', text: 'ID Number Validated' },
};
const OTHER_RESULT = { code: '1014', text: 'Unsupported ID number format' };

/**
 * Starts a Smile ID Enhanced KYC protocol double over real HTTP (docs/providers.md § Smile ID):
 * `POST /v1/async_id_verification` and `POST /v1/job_status`, both refusing a request whose
 * `signature` is not HMAC-SHA256(timestamp + partner_id + "sid_request") under the API key; results by
 * the ID number's last digit (`SANDBOX_RESULTS`), signed answers, and the result POSTed to the job's
 * `callback_url` with `signature` and `timestamp`, as Smile ID does. The HTTP statuses and bodies of
 * its refusals are the simulator's own (Smile ID documents the error codes, not the statuses).
 */
export async function startSmileIdSimulator(options: SmileIdSimulatorOptions = {}): Promise<SmileIdSimulator> {
  const partnerId = options.partnerId ?? '085';
  const apiKey = options.apiKey ?? 'sim-smile-id-api-key-00000001';
  const delayMs = options.resultDelayMs ?? 20;
  const jobs = new Map<string, SimJob>();
  const requests: Record<string, number> = {};
  const forced = new Map<string, string>();
  const silent = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<{ key: string; resolve: (job: SimJob) => void }>();
  let refused = 0;
  let sequence = 0;
  const keyOf = (userId: string, jobId: string) => `${userId}\0${jobId}`;
  const signed = () => {
    const timestamp = new Date().toISOString();
    return { timestamp, signature: smileIdSignature(apiKey, partnerId, timestamp) };
  };
  const deliver = async (job: SimJob): Promise<number> => {
    const response = await fetch(job.callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...job.result, ...signed() }) });
    await response.arrayBuffer();
    return response.status;
  };
  const finish = (job: SimJob) => {
    const digit = job.idNumber.slice(-1);
    const code = forced.get(job.idNumber) ?? (Object.hasOwn(SANDBOX_RESULTS, digit) ? SANDBOX_RESULTS[digit] : OTHER_RESULT)?.code ?? OTHER_RESULT.code;
    const text = Object.values(SANDBOX_RESULTS).find((r) => r.code === code)?.text ?? `Result ${code}`;
    const verified = code === '1012' || code === '1020' || code === '1021';
    job.result = {
      JSONVersion: '1.0.0', SmileJobID: job.smileJobId,
      PartnerParams: { user_id: job.userId, job_id: job.jobId, job_type: 5 },
      ResultType: 'ID Verification', ResultText: text, ResultCode: code, IsFinalResult: 'true',
      Actions: { Verify_ID_Number: verified ? 'Verified' : 'Not Verified', Return_Personal_Info: verified ? 'Returned' : 'Not Returned' },
      Country: job.country, IDType: job.idType, IDNumber: job.idNumber,
      ...(verified ? { FullName: 'SIMULATED PERSON', DOB: '1990-01-01' } : {}),
    };
    for (const waiter of waiters) {
      if (waiter.key === keyOf(job.userId, job.jobId)) {
        waiters.delete(waiter);
        waiter.resolve(job);
      }
    }
    if (options.callbacks !== false && !silent.has(job.idNumber)) deliver(job).catch(() => undefined);
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://simulator').pathname.replace(/\/+$/, '');
    const name = `${req.method} ${path}`;
    requests[name] = (requests[name] ?? 0) + 1;
    const body = await readJson(req);
    if (req.method !== 'POST' || (path !== '/v1/async_id_verification' && path !== '/v1/job_status')) return send(res, 404, { error: 'not found' });
    if (!body) return send(res, 400, { code: '2203', error: 'Invalid JSON' });
    if (body.partner_id !== partnerId || !smileIdSignatureMatches(apiKey, partnerId, body.timestamp, body.signature)) {
      refused += 1;
      return send(res, 401, { code: '2205', error: 'You are not authorized to do that.' });
    }
    if (path === '/v1/job_status') {
      const job = jobs.get(keyOf(String(body.user_id), String(body.job_id)));
      if (!job) return send(res, 404, { error: 'job not found' });
      return send(res, 200, {
        ...signed(), job_complete: job.result !== undefined, job_success: job.result?.ResultCode === '1012',
        result: job.result ?? null, history: null, image_links: null,
      });
    }
    const params = body.partner_params as Record<string, unknown> | undefined;
    const required = [body.country, body.id_type, body.id_number, body.callback_url, params?.user_id, params?.job_id];
    if (required.some((value) => typeof value !== 'string' || value === '')) return send(res, 400, { code: '2213', error: 'A required parameter is missing' });
    const key = keyOf(String(params?.user_id), String(params?.job_id));
    const existing = jobs.get(key);
    // The same job sent again is the same job (the simulator's choice; Smile ID does not document it).
    if (existing) return send(res, 200, { success: true, smile_job_id: existing.smileJobId });
    sequence += 1;
    const job: SimJob = {
      userId: String(params?.user_id), jobId: String(params?.job_id), smileJobId: String(sequence).padStart(10, '0'),
      country: String(body.country), idType: String(body.id_type), idNumber: String(body.id_number), callbackUrl: String(body.callback_url),
    };
    jobs.set(key, job);
    const timer = setTimeout(() => {
      timers.delete(timer);
      finish(job);
    }, delayMs);
    timers.add(timer);
    return send(res, 200, { success: true, smile_job_id: job.smileJobId });
  };

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => send(res, 500, { error: `simulator fault: ${String(error)}` }));
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    partnerId, apiKey,
    jobs: () => [...jobs.values()],
    requestCount: (route) => requests[route] ?? 0,
    refusedSignatures: () => refused,
    forceResult: (idNumber, code) => { forced.set(idNumber, code); },
    withoutCallback: (idNumber) => { silent.add(idNumber); },
    waitForResult(userId, jobId) {
      const job = jobs.get(keyOf(userId, jobId));
      if (job?.result) return Promise.resolve(job);
      return new Promise((resolve) => waiters.add({ key: keyOf(userId, jobId), resolve }));
    },
    async redeliver(userId, jobId) {
      const job = jobs.get(keyOf(userId, jobId));
      if (!job?.result) throw new Error('no finished job to redeliver');
      return deliver(job);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
