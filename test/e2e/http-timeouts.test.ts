import { connect, type Socket } from 'node:net';
import { startTestService, type TestService } from '../support/test-service';

/** A raw TCP connection to the service that collects what it answers and resolves `closed` when the server closes it. */
interface RawConnection {
  readonly socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves with the ms from opening to the close. */
  readonly closed: Promise<number>;
  /** Writes `text` one byte every `everyMs` until the connection closes. */
  dribble(text: string, everyMs: number): void;
}

function open(port: number): Promise<RawConnection> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let data = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((done) => socket.on('close', () => {
      clearInterval(timer);
      done(Date.now() - started);
    }));
    socket.on('connect', () => resolve({
      socket, closed, received: () => data,
      dribble(text, everyMs) {
        let at = 0;
        timer = setInterval(() => {
          if (socket.destroyed || !socket.writable) return clearInterval(timer);
          socket.write(text[at++ % text.length]!);
        }, everyMs);
      },
    }));
  });
}

/** Resolves once `connection` has received `pattern`. */
async function answered(connection: RawConnection, pattern: RegExp): Promise<string> {
  while (!pattern.test(connection.received())) {
    await new Promise<void>((resolve) => connection.socket.once('data', () => resolve()));
  }
  return connection.received();
}

describe('server timeouts: slow clients are cut off', () => {
  let service: TestService;
  let port: number;
  let apiKey: string;
  beforeAll(async () => {
    service = await startTestService({ HTTP_HEADERS_TIMEOUT_MS: '600', HTTP_REQUEST_TIMEOUT_MS: '1200', HTTP_KEEP_ALIVE_TIMEOUT_MS: '300' });
    port = Number(new URL(service.baseUrl).port);
    ({ apiKey } = await service.newTenant());
  });
  afterAll(() => service.close());

  it('three slow-header connections (one byte every 200 ms) get 408 request_timeout and are closed', async () => {
    const connections = await Promise.all([open(port), open(port), open(port)]);
    for (const c of connections) {
      c.socket.write('GET /v1/balances HTTP/1.1\r\nHost: localhost\r\n');
      c.dribble('X-Slow: aaaaaaaaaaaaaaaaaaaa\r\n', 200);
    }
    const times = await Promise.all(connections.map((c) => c.closed));
    for (const c of connections) {
      expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(c.received()).toMatch(/\r\nRequest-Id: [0-9a-f-]{36}\r\n/);
      expect(JSON.parse(c.received().split('\r\n\r\n')[1]!)).toEqual({ statusCode: 408, code: 'request_timeout', message: expect.any(String), details: { requestId: expect.any(String) } });
    }
    // Headers timeout 600 ms, checked every 150 ms.
    for (const ms of times) expect(ms).toBeLessThan(2500);
  });

  it('three slow-body connections of an authenticated request are closed by the request timeout', async () => {
    const connections = await Promise.all([open(port), open(port), open(port)]);
    for (const c of connections) {
      c.socket.write(`POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
      c.dribble(' ', 200);
    }
    const times = await Promise.all(connections.map((c) => c.closed));
    for (const c of connections) expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    for (const ms of times) expect(ms).toBeLessThan(3500);
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const c = await open(port);
    c.socket.write('GET /livez HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await answered(c, /^HTTP\/1\.1 200 /);
    expect(await c.closed).toBeLessThan(2500);
  });
});

describe('authentication before the body', () => {
  let service: TestService;
  let port: number;
  beforeAll(async () => {
    service = await startTestService();
    port = Number(new URL(service.baseUrl).port);
  });
  afterAll(() => service.close());

  it.each([
    ['no key', ''],
    ['a bad key', 'Authorization: Bearer sk_sandbox_0000000000000000000000000000000000000000\r\n'],
  ])('an unauthenticated POST whose body never finishes gets its 401 at once (%s), and the connection closes', async (_name, auth) => {
    const c = await open(port);
    c.socket.write(`POST /v1/customers HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":`);
    const text = await answered(c, /\r\n\r\n\{.*\}$/s);
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(text.split('\r\n\r\n')[1]!)).toMatchObject({ statusCode: 401, code: 'unauthorized' });
    await c.closed;
  });

  it('the same holds for GraphQL over HTTP', async () => {
    const c = await open(port);
    c.socket.write('POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"query":');
    const text = await answered(c, /\r\n\r\n\{.*\}$/s);
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(JSON.parse(text.split('\r\n\r\n')[1]!).errors[0].extensions).toEqual({ code: 'unauthorized' });
    await c.closed;
  });
});
