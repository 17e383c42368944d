import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SmileIdClient } from '../../src/adapters/providers/smile-id/smile-id-client';
import { idTypesIn, smileIdTypeFor } from '../../src/adapters/providers/smile-id/smile-id-id-types';
import { ENHANCED_KYC_JOB_TYPE, SmileIdJobs } from '../../src/adapters/providers/smile-id/smile-id-jobs';
import { jobRefOf, SMILE_ID, SmileIdKycProvider } from '../../src/adapters/providers/smile-id/smile-id-kyc-provider';
import { smileIdSignature } from '../../src/adapters/providers/smile-id/smile-id-signature';
import { customer, MemoryKycChecks } from './smile-id-harness';

/**
 * The Smile ID adapter against answers its simulator does not give on demand, from a server of the
 * test's own over real HTTP (docs/providers.md § Smile ID): each HTTP status class of a submission
 * and of a job status, an unsigned or unreadable job status, and transport faults.
 */
const API_KEY = 'test-api-key-0123456789abcdef';
const PARTNER_ID = '085';
const NOW = new Date('2026-11-27T06:00:00.000Z');

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server;
let url: string;
let handler: Handler;
let received: { path: string; body: unknown }[];
const clients: SmileIdClient[] = [];

beforeEach(async () => {
  received = [];
  handler = (_req, _body, res) => res.end('{}');
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(body) as unknown });
      handler(req, body, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function clientFor(baseUrl = url, responseTimeoutMs = 2000) {
  const client = new SmileIdClient({ baseUrl, connectTimeoutMs: 1000, responseTimeoutMs });
  clients.push(client);
  return client;
}
const jobsFor = (client = clientFor()) => new SmileIdJobs({ partnerId: PARTNER_ID, apiKey: API_KEY, callbackUrl: 'https://us.example/cb/secret' }, client, () => NOW);
const answer = (status: number, body: unknown): Handler => (_req, _body, res) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const signed = (fields: Record<string, unknown>) => ({ timestamp: NOW.toISOString(), signature: smileIdSignature(API_KEY, PARTNER_ID, NOW.toISOString()), ...fields });

describe('Smile ID job submission answers', () => {
  it('sends the signed Enhanced KYC request with the customer\'s details to /async_id_verification', async () => {
    const c = customer({ idNumber: '12345670' });
    expect(await jobsFor().submit(c, 'NATIONAL_ID', 'job-1')).toEqual({ kind: 'accepted' });
    expect(received).toEqual([{
      path: '/v1/async_id_verification',
      body: {
        partner_id: PARTNER_ID, timestamp: NOW.toISOString(), signature: smileIdSignature(API_KEY, PARTNER_ID, NOW.toISOString()),
        source_sdk: 'rest_api', source_sdk_version: '1.0.0', country: 'KE', id_type: 'NATIONAL_ID', id_number: '12345670',
        first_name: 'Wanjiru', last_name: 'Kamau', dob: '1990-01-01', callback_url: 'https://us.example/cb/secret',
        partner_params: { job_id: 'job-1', user_id: c.id, job_type: ENHANCED_KYC_JOB_TYPE },
      },
    }]);
    expect(ENHANCED_KYC_JOB_TYPE).toBe(5);
  });

  it.each([200, 201, 299])('HTTP %i is accepted', async (status) => {
    handler = answer(status, {});
    expect(await jobsFor().submit(customer(), 'NATIONAL_ID', 'job-1')).toEqual({ kind: 'accepted' });
  });

  it('a 4xx is refused with its code (a number as text, at most 10 characters), or none when the body has no code', async () => {
    const jobs = jobsFor();
    handler = answer(400, { code: '2203', error: 'Invalid signature' });
    expect(await jobs.submit(customer(), 'NATIONAL_ID', 'job-1')).toEqual({ kind: 'refused', httpStatus: 400, code: '2203' });
    handler = answer(499, { code: 2204 });
    expect(await jobs.submit(customer(), 'NATIONAL_ID', 'job-1')).toEqual({ kind: 'refused', httpStatus: 499, code: '2204' });
    handler = answer(422, { code: '12345678901234' });
    expect(await jobs.submit(customer(), 'NATIONAL_ID', 'job-1')).toEqual({ kind: 'refused', httpStatus: 422, code: '1234567890' });
    handler = answer(403, 'Forbidden');
    expect(await jobs.submit(customer(), 'NATIONAL_ID', 'job-1')).toEqual({ kind: 'refused', httpStatus: 403, code: null });
  });

  it.each([300, 500, 503])('HTTP %i throws (retried later)', async (status) => {
    handler = answer(status, {});
    await expect(jobsFor().submit(customer(), 'NATIONAL_ID', 'job-1')).rejects.toThrow(`Smile ID submission answered HTTP ${status}`);
  });
});

describe('Smile ID job status answers', () => {
  it('asks /job_status signed, by user and job, without images or history', async () => {
    handler = answer(200, signed({ job_complete: false }));
    expect(await jobsFor().status('cus_1', 'job-1')).toEqual({ kind: 'incomplete' });
    expect(received).toEqual([{
      path: '/v1/job_status',
      body: {
        partner_id: PARTNER_ID, timestamp: NOW.toISOString(), signature: smileIdSignature(API_KEY, PARTNER_ID, NOW.toISOString()),
        user_id: 'cus_1', job_id: 'job-1', image_links: false, history: false,
      },
    }]);
  });

  it('a signed complete answer with a four-digit ResultCode is final, kept whole; without one it is incomplete', async () => {
    const jobs = jobsFor();
    const body = signed({ job_complete: true, result: { ResultCode: '1012', ResultText: 'ID Number Validated' } });
    handler = answer(200, body);
    expect(await jobs.status('cus_1', 'job-1')).toEqual({ kind: 'complete', resultCode: '1012', rawAnswer: JSON.stringify(body) });
    for (const result of [{ ResultCode: '101' }, { ResultCode: 1012 }, 'pending', undefined]) {
      handler = answer(200, signed({ job_complete: true, result }));
      expect(await jobs.status('cus_1', 'job-1')).toEqual({ kind: 'incomplete' });
    }
    handler = answer(200, signed({ job_complete: false, result: { ResultCode: '1012' } }));
    expect(await jobs.status('cus_1', 'job-1')).toEqual({ kind: 'incomplete' });
  });

  it.each([400, 404, 499])('HTTP %i: Smile ID does not know the job', async (status) => {
    handler = answer(status, { error: 'no job' });
    expect(await jobsFor().status('cus_1', 'job-1')).toEqual({ kind: 'unknown_job', httpStatus: status });
  });

  it('a 3xx or 5xx, an unreadable answer, or one not signed with our key throws', async () => {
    const jobs = jobsFor();
    handler = answer(300, {});
    await expect(jobs.status('cus_1', 'job-1')).rejects.toThrow('Smile ID job status answered HTTP 300');
    handler = answer(500, {});
    await expect(jobs.status('cus_1', 'job-1')).rejects.toThrow('Smile ID job status answered HTTP 500');
    handler = answer(200, 'not json');
    await expect(jobs.status('cus_1', 'job-1')).rejects.toThrow('Smile ID job status answer is not one we can read');
    handler = answer(200, { ...signed({ job_complete: true, result: { ResultCode: '1012' } }), signature: smileIdSignature('another-key-0123456789', PARTNER_ID, NOW.toISOString()) });
    await expect(jobs.status('cus_1', 'job-1')).rejects.toThrow('Smile ID job status answer is not signed with our API key');
  });

  it('an accepted job Smile ID no longer knows is for an operator: the step throws and sends nothing again', async () => {
    const checks = new MemoryKycChecks();
    const c = customer();
    await checks.begin({
      customerId: c.id, provider: SMILE_ID, attempt: 1, jobRef: jobRefOf(c.id, 1), state: 'submitted', resultCode: null, rawAnswer: null, submittedAt: NOW, completedAt: null,
    });
    const provider = new SmileIdKycProvider({ pollMs: 200, authorityAttempts: 3, authorityRetryMs: 100, heldRecheckMs: 60_000 }, jobsFor(), checks, () => NOW);
    handler = answer(404, {});
    await expect(provider.check(c)).rejects.toThrow(`Smile ID does not know accepted job ${jobRefOf(c.id, 1)} (HTTP 404)`);
    expect(received.map((r) => r.path)).toEqual(['/v1/job_status']);
  });
});

describe('Smile ID transport faults', () => {
  it('no connection: not sent, naming the socket error', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const call = await clientFor(`http://127.0.0.1:${port}/v1`).post('/job_status', {});
    expect(call).toEqual({ kind: 'not_sent', reason: expect.stringMatching(/^ECONNREFUSED: /) });
    await expect(jobsFor(clientFor(`http://127.0.0.1:${port}/v1`)).submit(customer(), 'NATIONAL_ID', 'j')).rejects.toThrow(/^Smile ID submission not_sent: ECONNREFUSED/);
    await expect(jobsFor(clientFor(`http://127.0.0.1:${port}/v1`)).status('cus_1', 'j')).rejects.toThrow(/^Smile ID job status not_sent: ECONNREFUSED/);
  });

  it('a connection cut after the request, or no answer within the response timeout: maybe sent', async () => {
    handler = (req) => req.socket.destroy();
    expect(await clientFor().post('/async_id_verification', {})).toEqual({ kind: 'maybe_sent', reason: expect.stringMatching(/^UND_ERR_SOCKET: /) });
    handler = () => undefined;
    expect(await clientFor(url, 200).post('/async_id_verification', {})).toEqual({ kind: 'maybe_sent', reason: expect.stringMatching(/^UND_ERR_HEADERS_TIMEOUT: /) });
  });

  it('an answer that is not JSON has no body; after close() nothing is sent, and a second close() is harmless', async () => {
    handler = answer(502, '<html>Bad gateway</html>');
    const client = clientFor();
    expect(await client.post('/job_status', {})).toEqual({ kind: 'answer', httpStatus: 502, body: undefined });
    await client.close();
    await client.close();
    expect(await client.post('/job_status', {})).toEqual({ kind: 'not_sent', reason: 'the service is stopping' });
    expect(received).toHaveLength(1);
  });
});

describe('Smile ID ID types', () => {
  it('a country Smile ID does not check, or an inherited key, has no type and accepts none', () => {
    expect([smileIdTypeFor('KE', 'PASSPORT'), smileIdTypeFor('KE', 'BVN'), smileIdTypeFor('TZ', 'NATIONAL_ID')]).toEqual(['PASSPORT', undefined, undefined]);
    expect(smileIdTypeFor('constructor', 'NATIONAL_ID')).toBeUndefined();
    expect(smileIdTypeFor('KE', 'constructor' as never)).toBeUndefined();
    expect([idTypesIn('GH'), idTypesIn('TZ'), idTypesIn('toString')]).toEqual([['GHANA_CARD', 'PASSPORT'], [], []]);
  });
});
