import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { plainJsonBody, plainLimitOf } from '../../src/adapters/http/plain-json-body.reader';

/** Who read the body: the plain reader marks nothing, so the fallback stand-in records its calls. */
let fallbackCalls = 0;
/** What reached each app's handlers: `body` for a body read, the error's type otherwise. */
const reached: string[] = [];

/** An app echoing what the body became (or the error's status and type), behind `reader`. */
function echoApp(reader: RequestHandler): express.Express {
  const app = express();
  app.post('/', reader, (req, res) => {
    reached.push('body');
    res.json({ body: req.body ?? null });
  });
  const errors: ErrorRequestHandler = (error, _req, res, _next) => {
    reached.push(error.type);
    res.status(error.status ?? 500).json({ status: error.status, type: error.type });
  };
  app.use(errors);
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; port: number }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends raw bytes with exactly the given headers (fetch would add or fix some). */
function send(port: number, headers: Record<string, string>, body: Buffer | string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The plain JSON reader in front of /graphql (docs/decisions.md § Performance) reads the plain
 * case itself and must answer every body exactly as body-parser alone does (the same value or the
 * same error status and type); everything else it hands to body-parser.
 */
describe('plainJsonBody', () => {
  const json = express.json({ limit: '1kb', type: ['application/json', 'application/*+json'] });
  const counted: RequestHandler = (req, res, next) => {
    fallbackCalls += 1;
    json(req, res, next);
  };
  let plain: { server: Server; port: number };
  let reference: { server: Server; port: number };

  beforeAll(async () => {
    plain = await listen(echoApp(plainJsonBody(plainLimitOf('1kb'), counted)));
    reference = await listen(echoApp(json));
  });
  afterAll(async () => {
    for (const { server } of [plain, reference]) await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    fallbackCalls = 0;
    reached.length = 0;
  });

  /** Both apps answer the same; returns the answer and whether the plain app handed the body on. */
  const both = async (headers: Record<string, string>, body: Buffer | string) => {
    const withLength = headers['transfer-encoding'] ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers };
    const answer = await send(plain.port, withLength, body);
    expect(answer).toEqual(await send(reference.port, withLength, body));
    return { ...answer, fallback: fallbackCalls > 0 };
  };
  const JSON_TYPE = { 'content-type': 'application/json' };

  it('reads a plain JSON body itself, with or without charset=utf-8, in any letter case', async () => {
    const value = { query: '{ payment(id: "pay_1") { id } }', variables: { id: 'é✓' } };
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
      expect(await both({ 'content-type': type }, JSON.stringify(value))).toEqual({ status: 200, body: { body: value }, fallback: false });
    }
    expect(await both(JSON_TYPE, ` \n[1, 2]`)).toEqual({ status: 200, body: { body: [1, 2] }, fallback: false });
  });

  it('reads an empty body as {} and drops a byte-order mark, as body-parser does', async () => {
    expect(await both(JSON_TYPE, '')).toEqual({ status: 200, body: { body: {} }, fallback: false });
    expect(await both(JSON_TYPE, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]))).toEqual({ status: 200, body: { body: { a: 1 } }, fallback: false });
  });

  it('refuses what body-parser refuses with its status and type: malformed JSON, a top level not an object or array', async () => {
    for (const body of ['{"a":', '"text"', '42', 'null', '\u00a0{}', '{"a":1}x']) {
      expect(await both(JSON_TYPE, body)).toEqual({ status: 400, body: { status: 400, type: 'entity.parse.failed' }, fallback: false });
    }
  });

  it('hands body-parser every other body: another charset or type, an encoding, chunked, over its limit', async () => {
    const value = JSON.stringify({ a: 1 });
    expect(await both({ 'content-type': 'application/json; charset=latin1' }, value)).toMatchObject({ status: 415, fallback: true });
    expect(await both({ 'content-type': 'application/graphql+json' }, value)).toMatchObject({ status: 200, body: { body: { a: 1 } }, fallback: true });
    expect(await both({ 'content-type': 'text/plain' }, value)).toMatchObject({ status: 200, body: { body: null }, fallback: true });
    expect(await both({ ...JSON_TYPE, 'content-encoding': 'gzip' }, gzipSync(value))).toMatchObject({ status: 200, body: { body: { a: 1 } }, fallback: true });
    expect(await both({ ...JSON_TYPE, 'transfer-encoding': 'chunked' }, value)).toMatchObject({ status: 200, fallback: true });
    const large = JSON.stringify({ a: 'x'.repeat(2000) });
    expect(await both(JSON_TYPE, large)).toEqual({ status: 413, body: { status: 413, type: 'entity.too.large' }, fallback: true });
  });

  it("refuses a body cut short by the client as body-parser does (request.aborted), and nothing reads it", async () => {
    for (const [i, port] of [plain.port, reference.port].entries()) {
      await new Promise<void>((resolve) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { ...JSON_TYPE, 'content-length': '100' } });
        req.on('error', () => resolve());
        req.write('{"query":', () => setTimeout(() => req.destroy(), 50));
      });
      for (let wait = 0; wait < 200 && reached.length <= i; wait++) await new Promise((r) => setTimeout(r, 10));
    }
    expect(reached).toEqual(['request.aborted', 'request.aborted']);
    expect(fallbackCalls).toBe(0);
  });

  it('reads the limit as body-parser does, at most 64 KiB; a limit it cannot read sends every body to body-parser', () => {
    expect([plainLimitOf('1kb'), plainLimitOf('100b'), plainLimitOf('512'), plainLimitOf('1mb'), plainLimitOf('1.5kb'), plainLimitOf('lots')])
      .toEqual([1024, 100, 512, 64 * 1024, 0, 0]);
  });
});
