import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AesGcmSecretBox } from '../../src/adapters/providers/secret-box';
import { parseRetryAfter, signatureHeaders, UndiciWebhookTransport } from '../../src/adapters/providers/webhook-transport';
import type { DeliveryJob, SecretBox } from '../../src/core/webhooks/webhook-ports';

// The webhook transport over real local HTTP (docs/decisions.md § Webhooks): what it signs and
// sends, what it reads back (status, Retry-After), and the targets it refuses without connecting.
interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let server: Server;
let port: number;
const received: Received[] = [];
/** The answer of the receiver, by path: status and headers; `/hang` never answers. */
const answers: Record<string, { status: number; headers?: Record<string, string> }> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/hang') return;
      const answer = answers[req.url ?? ''] ?? { status: 204 };
      res.writeHead(answer.status, answer.headers).end('a body the transport reads to the end');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const box = new AesGcmSecretBox(Buffer.alloc(32, 7));
const secret = box.newSecret();
const sealedSecret = box.seal(secret);
const job = (url: string, over: Partial<DeliveryJob> = {}): DeliveryJob => ({
  id: 'dlv_01JDX0000000000000000000AB', registrationId: 'whr_1', registrationActive: true, url, attempt: 1, secretCiphertext: sealedSecret,
  event: { id: 'evt_1', type: 'payment.succeeded', entityId: 'pay_1', createdAt: new Date(), payload: {} }, ...over,
});
/** A box that counts how often a sealed secret is opened. */
const countingBox = (): SecretBox & { opened: number } => {
  const counting = { opened: 0, seal: (s: string) => box.seal(s), newSecret: () => box.newSecret(), open: (s: string) => {
    counting.opened += 1;
    return box.open(s);
  } };
  return counting as SecretBox & { opened: number };
};

describe('webhook transport: sending', () => {
  it('POSTs the body with both signature header sets over this attempt\'s timestamp, and answers the status', async () => {
    const transport = new UndiciWebhookTransport(box, true, 2_000);
    const now = new Date(1_764_158_400_789);
    const body = '{"type":"payment.succeeded"}';
    const result = await transport.send(job(`http://127.0.0.1:${port}/hooks`), body, now);
    await transport.close();
    expect(result).toEqual({ statusCode: 204 });
    const got = received.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', url: '/hooks', body });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('payout-gateway-webhooks/0.5.0');
    expect(got.headers['service-signature']).toBe(`t=1764158400,v1=${createHmac('sha256', secret).update(`1764158400.${body}`).digest('hex')}`);
    expect(got.headers['webhook-id']).toBe('dlv_01JDX0000000000000000000AB');
    expect(got.headers['webhook-timestamp']).toBe('1764158400');
    const standardKey = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(got.headers['webhook-signature'])
      .toBe(`v1,${createHmac('sha256', standardKey).update(`dlv_01JDX0000000000000000000AB.1764158400.${body}`).digest('base64')}`);
  });

  it('reads Retry-After from the answer, in seconds or as a date, and leaves it out when absent', async () => {
    answers['/busy'] = { status: 503, headers: { 'retry-after': '120' } };
    answers['/dated'] = { status: 429, headers: { 'retry-after': 'Wed, 26 Nov 2025 12:01:30 GMT' } };
    answers['/gone'] = { status: 410 };
    const transport = new UndiciWebhookTransport(box, true, 2_000);
    const now = new Date('2025-11-26T12:00:00Z');
    expect(await transport.send(job(`http://127.0.0.1:${port}/busy`), '{}', now)).toEqual({ statusCode: 503, retryAfterMs: 120_000 });
    expect(await transport.send(job(`http://127.0.0.1:${port}/dated`), '{}', now)).toEqual({ statusCode: 429, retryAfterMs: 90_000 });
    expect(await transport.send(job(`http://127.0.0.1:${port}/gone`), '{}', now)).toStrictEqual({ statusCode: 410 });
    await transport.close();
  });

  it('opens a registration\'s sealed secret once and reuses it; another registration\'s secret is opened on its own', async () => {
    const counting = countingBox();
    const transport = new UndiciWebhookTransport(counting, true, 2_000);
    const url = `http://127.0.0.1:${port}/hooks`;
    await transport.send(job(url), '{}', new Date());
    await transport.send(job(url), '{}', new Date());
    expect(counting.opened).toBe(1);
    const otherSecret = box.newSecret();
    const now = new Date(1_764_158_400_000);
    await transport.send(job(url, { secretCiphertext: box.seal(otherSecret) }), '{"n":2}', now);
    await transport.close();
    expect(counting.opened).toBe(2);
    expect(received.at(-1)!.headers['service-signature']).toBe(`t=1764158400,v1=${createHmac('sha256', otherSecret).update('1764158400.{"n":2}').digest('hex')}`);
  });

  it('an endpoint that never answers is an error after the whole-request timeout; destroy() ends a send in flight at once', async () => {
    const transport = new UndiciWebhookTransport(box, true, 300);
    const started = Date.now();
    const timedOut = await transport.send(job(`http://127.0.0.1:${port}/hang`), '{}', new Date());
    expect(timedOut).toEqual({ error: expect.stringMatching(/time(out|d out)/i) });
    expect(Date.now() - started).toBeLessThan(2_000);

    const patient = new UndiciWebhookTransport(box, true, 10_000);
    const inFlight = patient.send(job(`http://127.0.0.1:${port}/hang`), '{}', new Date());
    await new Promise((resolve) => setTimeout(resolve, 100));
    const aborted = Date.now();
    await patient.destroy();
    expect(await inFlight).toEqual({ error: expect.any(String) });
    expect(Date.now() - aborted).toBeLessThan(1_000);
    await transport.destroy();
  });

  it('a refused connection is an error naming it, never a status', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const transport = new UndiciWebhookTransport(box, true, 2_000);
    expect(await transport.send(job(`http://127.0.0.1:${closedPort}/`), '{}', new Date())).toEqual({ error: expect.stringContaining('ECONNREFUSED') });
    await transport.close();
  });

  it('after close() nothing more is sent', async () => {
    const transport = new UndiciWebhookTransport(box, true, 1_000);
    await transport.close();
    const before = received.length;
    expect(await transport.send(job(`http://127.0.0.1:${port}/hooks`), '{}', new Date())).toEqual({ error: expect.any(String) });
    expect(received.length).toBe(before);
  });
});

describe('webhook signature headers', () => {
  it('only a leading whsec_ is taken off the secret for the Standard Webhooks key', () => {
    const secret = 'AAAAwhsec_BBBB';
    const headers = signatureHeaders(secret, 'dlv_1', 1_764_158_400, '{}');
    expect(headers['webhook-signature']).toBe(`v1,${createHmac('sha256', Buffer.from(secret, 'base64')).update('dlv_1.1764158400.{}').digest('base64')}`);
  });
});

describe('webhook transport: targets refused without private targets allowed', () => {
  it('with no allowed ports configured only 443 is allowed', async () => {
    const transport = new UndiciWebhookTransport(box, false, 1_000);
    expect(await transport.send(job('http://93.184.216.34:8080/'), '{}', new Date())).toEqual({ error: 'refused target: port 8080 is not allowed (443)' });
    await transport.close();
  });

  it('a port other than 443 and the allowed ones is refused before connecting', async () => {
    const before = received.length;
    const transport = new UndiciWebhookTransport(box, false, 1_000, { allowedPorts: [8443, 9443] });
    expect(await transport.send(job(`http://127.0.0.1:${port}/`), '{}', new Date()))
      .toEqual({ error: `refused target: port ${port} is not allowed (443, 8443, 9443)` });
    expect(await transport.send(job('http://93.184.216.34/'), '{}', new Date())).toEqual({ error: 'refused target: port 80 is not allowed (443, 8443, 9443)' });
    await transport.close();
    expect(received.length).toBe(before);
  });

  it('a private address literal on an allowed port is refused before connecting; a name resolving to one at connect time', async () => {
    const before = received.length;
    const transport = new UndiciWebhookTransport(box, false, 1_000, { allowedPorts: [port] });
    expect(await transport.send(job(`http://127.0.0.1:${port}/`), '{}', new Date()))
      .toEqual({ error: 'refused target: 127.0.0.1 is a private, loopback or link-local address' });
    expect(await transport.send(job(`http://[::1]:${port}/`), '{}', new Date()))
      .toEqual({ error: 'refused target: ::1 is a private, loopback or link-local address' });
    expect(await transport.send(job(`http://localhost:${port}/`), '{}', new Date()))
      .toEqual({ error: 'EBLOCKEDTARGET: refused target: 127.0.0.1 is a private, loopback or link-local address' });
    await transport.close();
    expect(received.length).toBe(before);
  });

  it('the same targets are reached when private targets are allowed (development and tests)', async () => {
    const transport = new UndiciWebhookTransport(box, true, 1_000);
    expect(await transport.send(job(`http://localhost:${port}/`), '{}', new Date())).toEqual({ statusCode: 204 });
    await transport.close();
  });
});

describe('Retry-After', () => {
  const now = new Date('2025-11-26T12:00:00Z');

  it('delta seconds, surrounding spaces allowed; the first of repeated headers', () => {
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter(' 7 ', now)).toBe(7_000);
    expect(parseRetryAfter(['5', '60'], now)).toBe(5_000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('a date without its weekday, or with a numeric zone, is a date too', () => {
    expect(parseRetryAfter('26 Nov 2025 12:00:45 GMT', now)).toBe(45_000);
    expect(parseRetryAfter('Wed, 26 Nov 2025 12:00:45 +0000', now)).toBe(45_000);
  });

  it('an HTTP date as the time from now, never negative', () => {
    expect(parseRetryAfter('Wed, 26 Nov 2025 12:00:45 GMT', now)).toBe(45_000);
    expect(parseRetryAfter('Wed, 26 Nov 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('capped at 24 hours', () => {
    expect(parseRetryAfter(String(3 * 86_400), now)).toBe(86_400_000);
    expect(parseRetryAfter('Fri, 28 Nov 2025 12:00:00 GMT', now)).toBe(86_400_000);
    expect(parseRetryAfter(String(86_399), now)).toBe(86_399_000);
  });

  it('absent, empty or unreadable: none', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter([], now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
