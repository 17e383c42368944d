/**
 * Hostile input against the graphql-ws transport (subprotocol graphql-transport-ws at /graphql),
 * over raw `ws` sockets. Every case asserts the answer the protocol (node_modules/graphql-ws/
 * PROTOCOL.md, CloseCode) or our own contract (graphql-ws.server.ts) defines; after every case the
 * hostile sockets are closed and afterEach checks that nothing leaked (authenticated sockets,
 * subscription members, bus listeners), that the process saw no unhandled rejection or uncaught
 * exception, and that the service is still healthy: GET /livez answers 200 and a fresh,
 * well-behaved subscription receives `paymentUpdated` for a payment created over REST.
 */
import { randomUUID } from 'node:crypto';
import vm from 'node:vm';
import { CloseCode } from 'graphql-ws';
import WebSocket from 'ws';
import { subscribe, wsUrl } from '../support/graphql-client';
import { RawSocket, type Closed, type Frame } from '../support/raw-socket';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/** Generous waits: each resolves on an event; the limit only turns a hang into a failure. */
const WAIT_MS = 5000;
/** graphql-ws's default connectionInitWaitTimeout (the service does not change it) is 3 s. */
const INIT_TIMEOUT_WAIT_MS = 8000;
const MAX_PAYLOAD = 64 * 1024;
const MAX_SUBSCRIPTIONS = 25;
const NUL = '\u0000';

const UPDATES = 'subscription { paymentUpdated { id status } }';
const UPDATES_BY_ID = 'subscription Updates($paymentId: ID) { paymentUpdated(paymentId: $paymentId) { id status } }';

/** The real `process` (jest hands test code a copy whose listeners never fire). */
const realProcess = vm.runInThisContext('process') as NodeJS.Process;

describe('graphql-ws transport under hostile input', () => {
  let service: TestService;
  /** The attacking tenant (funded: some cases create payments it watches). */
  let attacker: { tenantId: string; apiKey: string };
  /** The tenant of the health probe's subscription and payments. */
  let probe: { tenantId: string; apiKey: string };
  const raws: RawSocket[] = [];
  const faults: unknown[] = [];
  const consoleErrors: string[] = [];
  const onFault = (error: unknown) => void faults.push(error);
  let baseline: { sockets: number; members: number; groups: number };

  const graphql = () => service.container.graphql;
  const counts = () => ({ sockets: graphql().sockets.size, members: graphql().groups.subscriberCount, groups: graphql().groups.groupCount });
  const rateLimits = () => (graphql() as any).deps.access.rateLimits as { consume(principal: unknown): Promise<unknown> };

  /** Opens a raw socket (tracked: afterEach closes it). */
  const connect = async (protocols: string | string[] = 'graphql-transport-ws'): Promise<RawSocket> => {
    const raw = new RawSocket(new WebSocket(wsUrl(service.baseUrl), protocols, { perMessageDeflate: false }));
    raws.push(raw);
    await new Promise<void>((resolve, reject) => {
      raw.ws.once('open', () => resolve());
      raw.ws.once('error', reject);
      raw.ws.once('close', (code) => reject(new Error(`closed (${code}) before opening`)));
    });
    return raw;
  };
  /** A raw socket past connection_ack for the attacker's key. */
  const authed = async (): Promise<RawSocket> => {
    const raw = await connect();
    await raw.init({ authorization: attacker.apiKey });
    return raw;
  };
  const sub = (id: string, query: string, variables?: unknown, operationName?: unknown) => ({
    id, type: 'subscribe', payload: { query, ...(variables !== undefined ? { variables } : {}), ...(operationName !== undefined ? { operationName } : {}) },
  });
  const createPayment = async (apiKey: string): Promise<string> => {
    const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  /**
   * Waits for the `succeeded` event of `paymentId` on subscription `id`: the attacker's payments are
   * followed to their last state, so none of their events reaches a later case's subscriptions.
   */
  const finalEvent = (raw: RawSocket, id: string, paymentId: string) =>
    raw.waitFor((f) => f.id === id && f.type === 'next' && f.payload?.data?.paymentUpdated?.id === paymentId
      && f.payload.data.paymentUpdated.status === 'SUCCEEDED', `succeeded of ${paymentId} on ${id.slice(0, 40)}`, 10_000);
  /** Waits until the service's subscription members reach `count`. */
  const membersReach = (count: number) =>
    eventually(async () => (graphql().groups.subscriberCount === count ? true : undefined), WAIT_MS)
      .catch(() => { throw new Error(`expected ${count} subscription members, have ${graphql().groups.subscriberCount}`); });
  /** The error frame of operation `id`, checked against the protocol and our `extensions.code`. */
  const expectRefused = async (raw: RawSocket, id: string, code: string, message?: RegExp): Promise<Frame> => {
    await raw.waitFor((f) => f.id === id && (f.type === 'error' || f.type === 'next' || f.type === 'complete'), `the answer to ${id.slice(0, 40)}`);
    // The socket stays open; once the pong is back every frame about `id` has arrived.
    await raw.roundTrip();
    // Exactly one `error` message (protocol: no `complete` follows it), no `next`.
    expect(raw.about(id)).toEqual([{ id, type: 'error', payload: expect.any(Array) }]);
    const error = raw.about(id)[0]!;
    expect(error.payload.length).toBeGreaterThan(0);
    for (const e of error.payload) expect(e).toMatchObject({ message: expect.any(String), extensions: { code } });
    if (message) expect(error.payload.map((e: Frame) => e.message).join(' | ')).toMatch(message);
    return error;
  };
  /** A valid subscription gets no answer at all until an event: it is registered as a member. */
  const expectAccepted = async (raw: RawSocket, id: string) => {
    await membersReach(baseline.members + 1);
    await raw.roundTrip();
    expect(raw.about(id)).toEqual([]);
  };
  const expectClosed = async (raw: RawSocket, code: number, timeoutMs = WAIT_MS): Promise<Closed> => {
    const closed = await raw.closeOf(timeoutMs);
    expect(closed.code).toBe(code);
    return closed;
  };

  /** Rate-limit counts held by withRateLimitsLocked so far. */
  let held = 0;
  /** Holds every rate-limit count (the request counter's consume) while `body` runs. */
  const withRateLimitsLocked = async <T>(body: () => Promise<T>): Promise<T> => {
    const counter = (rateLimits() as any).counter as { consume: (...args: unknown[]) => Promise<unknown> };
    const original = counter.consume;
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    held = 0;
    counter.consume = async (...args: unknown[]) => {
      held++;
      await opened;
      return original.apply(counter, args);
    };
    try {
      return await body();
    } finally {
      open();
      delete (counter as Partial<typeof counter>).consume;
    }
  };
  /** Resolves once some rate-limit count is held (the service is mid-count). */
  const blockedOnRateLimits = () => eventually(async () => (held > 0 ? true : undefined), WAIT_MS);
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

  /** GET /livez is 200 and a fresh subscription receives paymentUpdated for a payment made over REST. */
  const assertHealthy = async () => {
    const live = await fetch(`${service.baseUrl}/livez`);
    expect(live.status).toBe(200);
    const socketsBefore = graphql().sockets.size;
    const watching = subscribe(service.baseUrl, probe.apiKey, UPDATES);
    try {
      await eventually(async () => (graphql().bus.listenerCount(probe.tenantId) > 0 ? true : undefined), WAIT_MS);
      const paymentId = await createPayment(probe.apiKey);
      await watching.until((results) => results.some((r) => r.data?.paymentUpdated?.id === paymentId), 10_000);
      expect(watching.errors).toEqual([]);
    } finally {
      await watching.dispose();
    }
    // The probe's own socket and listener are gone before the next case takes its baseline.
    await eventually(async () => (graphql().sockets.size <= socketsBefore && graphql().bus.listenerCount(probe.tenantId) === 0 ? true : undefined), WAIT_MS);
  };

  beforeAll(async () => {
    realProcess.on('unhandledRejection', onFault);
    realProcess.on('uncaughtException', onFault);
    service = await startTestService();
    attacker = await service.newTenant();
    probe = await service.newTenant();
  });
  beforeEach(() => {
    baseline = counts();
    jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void consoleErrors.push(args.map(String).join(' ')));
  });
  afterEach(async () => {
    const problems: string[] = [];
    for (const raw of raws.splice(0)) {
      if (raw.closedWith) continue;
      raw.ws.terminate();
      await raw.closed;
    }
    // Nothing of the hostile sockets survives them: no authenticated socket, member, group or bus listener.
    try {
      await eventually(async () => {
        const now = counts();
        return now.sockets === baseline.sockets && now.members === baseline.members && now.groups === baseline.groups
          && graphql().bus.listenerCount(attacker.tenantId) === 0 ? true : undefined;
      }, 3000);
    } catch {
      problems.push(`leak after the hostile sockets closed: before ${JSON.stringify(baseline)}, now ${JSON.stringify(counts())}, `
        + `attacker bus listeners ${graphql().bus.listenerCount(attacker.tenantId)}`);
    }
    try {
      await assertHealthy();
    } catch (error) {
      problems.push(`service unhealthy: ${error instanceof Error ? error.message : String(error)}`);
    }
    const crashes = consoleErrors.splice(0).filter((line) => /during message handling/.test(line));
    if (crashes.length > 0) problems.push(`graphql-ws reported internal errors in a message handler: ${crashes.join(' || ').slice(0, 1500)}`);
    if (faults.length > 0) problems.push(`unhandled rejections / uncaught exceptions: ${faults.splice(0).map(String).join(' || ')}`);
    jest.restoreAllMocks();
    expect(problems).toEqual([]);
  });
  afterAll(async () => {
    realProcess.off('unhandledRejection', onFault);
    realProcess.off('uncaughtException', onFault);
    await service?.close();
  });

  describe('connection_init', () => {
    const key = () => attacker.apiKey;
    const cases: [string, () => unknown, number | 'ack'][] = [
      ['no payload', () => ({ type: 'connection_init' }), CloseCode.Unauthorized],
      ['payload null', () => ({ type: 'connection_init', payload: null }), CloseCode.Unauthorized],
      ['payload {}', () => ({ type: 'connection_init', payload: {} }), CloseCode.Unauthorized],
      ['payload an array', () => ({ type: 'connection_init', payload: [key()] }), CloseCode.BadRequest],
      ['payload a string', () => ({ type: 'connection_init', payload: key() }), CloseCode.BadRequest],
      ['payload a number', () => ({ type: 'connection_init', payload: 42 }), CloseCode.BadRequest],
      ['payload true', () => ({ type: 'connection_init', payload: true }), CloseCode.BadRequest],
      ['authorization an object', () => ({ type: 'connection_init', payload: { authorization: { key: key() } } }), CloseCode.Unauthorized],
      ['authorization an array', () => ({ type: 'connection_init', payload: { authorization: [key()] } }), CloseCode.Unauthorized],
      ['authorization a number', () => ({ type: 'connection_init', payload: { authorization: 1e308 } }), CloseCode.Unauthorized],
      ['authorization null', () => ({ type: 'connection_init', payload: { authorization: null } }), CloseCode.Unauthorized],
      ['authorization of 60 KB (under maxPayload)', () => ({ type: 'connection_init', payload: { authorization: `Bearer sk_sandbox_${'A'.repeat(60_000)}` } }), CloseCode.Unauthorized],
      ['authorization of 1 MB (over maxPayload)', () => ({ type: 'connection_init', payload: { authorization: 'x'.repeat(1024 * 1024) } }), 1009],
      ['authorization of NUL characters', () => ({ type: 'connection_init', payload: { authorization: NUL.repeat(64) } }), CloseCode.Unauthorized],
      ['a valid key with a NUL appended', () => ({ type: 'connection_init', payload: { authorization: `${key()}${NUL}` } }), CloseCode.Unauthorized],
      ['a valid key with a NUL inside', () => ({ type: 'connection_init', payload: { authorization: `${key().slice(0, 20)}${NUL}${key().slice(21)}` } }), CloseCode.Unauthorized],
      ['"Bearer " only', () => ({ type: 'connection_init', payload: { authorization: 'Bearer ' } }), CloseCode.Unauthorized],
      ['"Bearer" and whitespace only', () => ({ type: 'connection_init', payload: { authorization: 'Bearer \t\n  ' } }), CloseCode.Unauthorized],
      ['"Bearer Bearer <key>"', () => ({ type: 'connection_init', payload: { authorization: `Bearer Bearer ${key()}` } }), CloseCode.Unauthorized],
      ['a valid key, lower-case bearer', () => ({ type: 'connection_init', payload: { authorization: `bearer ${key()}` } }), 'ack'],
      ['a valid key and 5000-deep junk beside it', () => `{"type":"connection_init","payload":{"authorization":"${key()}","junk":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`, 'ack'],
      ['a valid key and a __proto__ member', () => `{"type":"connection_init","payload":{"authorization":"${key()}","__proto__":{"authorization":"x"}}}`, 'ack'],
    ];

    it.each(cases)('%s', async (_name, message, expected) => {
      const raw = await connect();
      const frame = message();
      raw.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
      if (expected === 'ack') {
        await raw.waitFor((f) => f.type === 'connection_ack', 'connection_ack');
        await raw.roundTrip();
      } else {
        await expectClosed(raw, expected);
        expect(raw.frames.filter((f) => f.type === 'connection_ack')).toEqual([]);
      }
    });

    it('a second connection_init after the ack closes with 4429', async () => {
      const raw = await authed();
      raw.send({ type: 'connection_init', payload: { authorization: attacker.apiKey } });
      await expectClosed(raw, CloseCode.TooManyInitialisationRequests);
    });

    // While the first connection_init waits on its rate-limit count (the table is locked), the
    // client does something that ends the socket; when authentication then completes, nothing may stay.
    it.each([
      ['a second connection_init closes with 4429', async (raw: RawSocket) => {
        raw.send({ type: 'connection_init', payload: { authorization: attacker.apiKey } });
        await expectClosed(raw, CloseCode.TooManyInitialisationRequests);
      }],
      ['the client disconnects', async (raw: RawSocket) => {
        raw.ws.close(1000);
        await raw.closeOf();
      }],
      ['a subscribe before the ack closes with 4401', async (raw: RawSocket) => {
        raw.send(sub('too-early', UPDATES));
        await expectClosed(raw, CloseCode.Unauthorized);
      }],
    ] as const)('during connection_init authentication, %s, and leaves nothing behind', async (_name, during) => {
      const consume = jest.spyOn(rateLimits(), 'consume');
      const remove = jest.spyOn(graphql().sockets, 'remove');
      await withRateLimitsLocked(async () => {
        const raw = await connect();
        raw.send({ type: 'connection_init', payload: { authorization: attacker.apiKey } });
        await blockedOnRateLimits();
        await during(raw);
        // The server has seen the close (onClose ran) before the first init's authentication ends.
        await eventually(async () => (remove.mock.calls.length > 0 ? true : undefined), WAIT_MS);
      });
      await Promise.allSettled(consume.mock.results.map((r) => r.value));
      await turn();
      await turn();
      expect(graphql().sockets.size).toBe(baseline.sockets);
      expect(graphql().groups.subscriberCount).toBe(baseline.members);
    });

    it('no connection_init within the timeout closes with 4408 (pings do not count as one)', async () => {
      const silent = await connect();
      const pinging = await connect();
      pinging.send({ type: 'ping' });
      await pinging.waitFor((f) => f.type === 'pong', 'pong before init');
      await Promise.all([
        expectClosed(silent, CloseCode.ConnectionInitialisationTimeout, INIT_TIMEOUT_WAIT_MS),
        expectClosed(pinging, CloseCode.ConnectionInitialisationTimeout, INIT_TIMEOUT_WAIT_MS),
      ]);
    });

    it('subscribe before any connection_init closes with 4401', async () => {
      const raw = await connect();
      raw.send(sub('early', UPDATES));
      await expectClosed(raw, CloseCode.Unauthorized);
      expect(raw.frames).toEqual([]);
    });

    it('ping, pong and complete before connection_init are answered or ignored; the connection then works', async () => {
      const raw = await connect();
      raw.send({ type: 'pong', payload: { unsolicited: true } });
      raw.send({ type: 'complete', id: 'never-subscribed' });
      raw.send({ type: 'ping', payload: { early: 1 } });
      const pong = await raw.waitFor((f) => f.type === 'pong', 'pong');
      expect(pong).toEqual({ type: 'pong', payload: { early: 1 } });
      await raw.init({ authorization: attacker.apiKey });
      raw.send(sub('s1', UPDATES));
      await expectAccepted(raw, 's1');
    });

    it('a socket without the graphql-transport-ws subprotocol closes with 4406', async () => {
      const raw = await connect([]);
      await expectClosed(raw, CloseCode.SubprotocolNotAcceptable);
    });
  });

  describe('malformed frames after the ack', () => {
    const invalid: [string, (raw: RawSocket) => void, number][] = [
      ['non-JSON text', (raw) => raw.send('hello, server'), CloseCode.BadRequest],
      ['an empty text frame', (raw) => raw.send(''), CloseCode.BadRequest],
      ['truncated JSON', (raw) => raw.send('{"type":"subscribe","id":"1","payload":{"query":"subscription'), CloseCode.BadRequest],
      ['a binary frame of garbage', (raw) => raw.sendBinary(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff, 0x7b])), CloseCode.BadRequest],
      ['a text frame that is not UTF-8', (raw) => raw.send(Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d])), 1007],
      ['a JSON array', (raw) => raw.send([{ type: 'ping' }]), CloseCode.BadRequest],
      ['JSON null', (raw) => raw.send('null'), CloseCode.BadRequest],
      ['a JSON number', (raw) => raw.send('42'), CloseCode.BadRequest],
      ['a JSON string', (raw) => raw.send('"subscribe"'), CloseCode.BadRequest],
      ['an object without type', (raw) => raw.send({ id: '1', payload: { query: UPDATES } }), CloseCode.BadRequest],
      ['{type: "unknown"}', (raw) => raw.send({ type: 'unknown' }), CloseCode.BadRequest],
      ['a numeric type', (raw) => raw.send({ type: 7 }), CloseCode.BadRequest],
      ['subscribe without id', (raw) => raw.send({ type: 'subscribe', payload: { query: UPDATES } }), CloseCode.BadRequest],
      ['subscribe with an empty id', (raw) => raw.send(sub('', UPDATES)), CloseCode.BadRequest],
      ['subscribe with a numeric id', (raw) => raw.send({ id: 1, type: 'subscribe', payload: { query: UPDATES } }), CloseCode.BadRequest],
      ['subscribe without payload', (raw) => raw.send({ id: '1', type: 'subscribe' }), CloseCode.BadRequest],
      ['subscribe without query', (raw) => raw.send({ id: '1', type: 'subscribe', payload: {} }), CloseCode.BadRequest],
      ['subscribe with a numeric query', (raw) => raw.send({ id: '1', type: 'subscribe', payload: { query: 42 } }), CloseCode.BadRequest],
      ['subscribe with variables as an array', (raw) => raw.send(sub('1', UPDATES, [1, 2])), CloseCode.BadRequest],
      ['subscribe with variables as a string', (raw) => raw.send(sub('1', UPDATES, 'x')), CloseCode.BadRequest],
      ['subscribe with a numeric operationName', (raw) => raw.send(sub('1', UPDATES, {}, 5)), CloseCode.BadRequest],
      ['complete without id', (raw) => raw.send({ type: 'complete' }), CloseCode.BadRequest],
      ['ping with a string payload', (raw) => raw.send({ type: 'ping', payload: 'x' }), CloseCode.BadRequest],
      ['an id of 1 MB (over maxPayload)', (raw) => raw.send(sub('i'.repeat(1024 * 1024), UPDATES)), 1009],
      ['a query beyond the 64 KiB maxPayload', (raw) => raw.send(sub('big', `subscription { paymentUpdated { id } } # ${'x'.repeat(MAX_PAYLOAD)}`)), 1009],
      ['a query of 10 MB', (raw) => raw.send(sub('huge', 'x'.repeat(10 * 1024 * 1024))), 1009],
      // Messages only a server sends: a client sending them sent an invalid message (4400), not a server fault (4500).
      ['connection_ack from the client', (raw) => raw.send({ type: 'connection_ack' }), CloseCode.BadRequest],
      ['next from the client', (raw) => raw.send({ id: '1', type: 'next', payload: { data: null } }), CloseCode.BadRequest],
      ['error from the client', (raw) => raw.send({ id: '1', type: 'error', payload: [{ message: 'boom' }] }), CloseCode.BadRequest],
    ];

    it.each(invalid)('%s', async (_name, send, code) => {
      const raw = await authed();
      raw.send(sub('alive', UPDATES));
      await expectAccepted(raw, 'alive');
      send(raw);
      await expectClosed(raw, code);
      // The socket's subscription ended with it.
      await membersReach(baseline.members);
    });

    it('a binary frame holding a valid message is handled like text', async () => {
      const raw = await authed();
      raw.sendBinary(Buffer.from(JSON.stringify({ type: 'ping', payload: { binary: true } })));
      expect(await raw.waitFor((f) => f.type === 'pong', 'pong')).toEqual({ type: 'pong', payload: { binary: true } });
    });

    it('a duplicate subscription id closes with 4409 and drops the socket\'s subscriptions', async () => {
      const raw = await authed();
      raw.send(sub('dup', UPDATES));
      await expectAccepted(raw, 'dup');
      raw.send(sub('dup', UPDATES_BY_ID, { paymentId: 'pay_x' }));
      const closed = await expectClosed(raw, CloseCode.SubscriberAlreadyExists);
      expect(closed.reason).toContain('dup');
      await membersReach(baseline.members);
    });

    it('a duplicate subscription id sent back to back (the first still being set up) closes with 4409', async () => {
      const raw = await authed();
      raw.send(sub('twice', UPDATES));
      raw.send(sub('twice', UPDATES));
      await expectClosed(raw, CloseCode.SubscriberAlreadyExists);
      await membersReach(baseline.members);
    });

    it('an id may be reused once its subscription is completed', async () => {
      const raw = await authed();
      raw.send(sub('again', UPDATES));
      await expectAccepted(raw, 'again');
      raw.send({ id: 'again', type: 'complete' });
      await raw.roundTrip();
      await membersReach(baseline.members);
      raw.send(sub('again', UPDATES));
      await expectAccepted(raw, 'again');
    });

    it('an id of 60 KB (under maxPayload) is served and completed like any other', async () => {
      const raw = await authed();
      const id = 'i'.repeat(60_000);
      raw.send(sub(id, UPDATES));
      await expectAccepted(raw, id);
      raw.send({ id, type: 'complete' });
      await raw.roundTrip();
      await membersReach(baseline.members);
    });

    it('complete for unknown ids (never used, completed twice, with NUL, 60 KB) is ignored', async () => {
      const raw = await authed();
      raw.send(sub('kept', UPDATES));
      await expectAccepted(raw, 'kept');
      for (const id of ['nope', `n${NUL}ul`, 'c'.repeat(60_000), '__proto__', 'constructor', 'toString']) raw.send({ id, type: 'complete' });
      raw.send(sub('gone', UPDATES_BY_ID, { paymentId: 'pay_gone' }));
      await membersReach(baseline.members + 2);
      raw.send({ id: 'gone', type: 'complete' });
      raw.send({ id: 'gone', type: 'complete' });
      await raw.roundTrip();
      await membersReach(baseline.members + 1);
      expect(raw.open).toBe(true);
    });

    it('ping/pong: a graphql-ws ping is answered with its payload, an unsolicited pong is ignored, a WebSocket ping frame gets its pong frame', async () => {
      const raw = await authed();
      raw.send({ type: 'ping', payload: { n: 1, nested: { nul: NUL } } });
      expect(await raw.waitFor((f) => f.type === 'pong', 'pong')).toEqual({ type: 'pong', payload: { n: 1, nested: { nul: NUL } } });
      raw.send({ type: 'pong', payload: { whatever: true } });
      raw.send({ type: 'pong' });
      await raw.roundTrip();
      const framePong = new Promise<string>((resolve) => raw.ws.once('pong', (data) => resolve(String(data))));
      raw.ws.ping(Buffer.from('are you there'));
      expect(await framePong).toBe('are you there');
      for (let i = 0; i < 200; i++) raw.send({ type: 'ping' });
      await raw.roundTrip();
      expect(raw.frames.filter((f) => f.type === 'pong' && f.payload === undefined)).toHaveLength(200);
    });
  });

  describe('subscriptions refused with an error message', () => {
    const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const refused: [string, () => string | Frame, string, RegExp?][] = [
      ['variables nested 5000 objects deep', () => `{"id":"r","type":"subscribe","payload":{"query":${JSON.stringify(UPDATES_BY_ID)},"variables":{"paymentId":${deep(5000)}}}}`, 'validation_error', /nested/],
      ['variables nested 30000 arrays deep', () => `{"id":"r","type":"subscribe","payload":{"query":${JSON.stringify(UPDATES_BY_ID)},"variables":{"x":${'['.repeat(30_000)}${']'.repeat(30_000)}}}}`, 'validation_error', /nested/],
      ['a NUL character in a variable', () => sub('r', UPDATES_BY_ID, { paymentId: `pay_${NUL}` }), 'validation_error', /NUL/],
      ['a NUL character in a variable name', () => sub('r', UPDATES_BY_ID, { [`paymentId${NUL}`]: 'x' }), 'validation_error', /NUL/],
      ['a NUL character deep in an unused variable', () => sub('r', UPDATES, { a: [{ b: [`x${NUL}`] }] }), 'validation_error', /NUL/],
      ['a NUL escape in a string literal', () => sub('r', 'subscription { paymentUpdated(paymentId: "pay_\\u0000") { id } }'), 'validation_error', /NUL/],
      ['a raw NUL character in a string literal', () => sub('r', `subscription { paymentUpdated(paymentId: "pay_${NUL}") { id } }`), 'validation_error'],
      ['a raw NUL character in the document', () => sub('r', `subscription { paymentUpdated { id ${NUL} } }`), 'validation_error'],
      ['a syntax error', () => sub('r', 'subscription { paymentUpdated { id '), 'validation_error', /Syntax Error/],
      ['an empty query', () => sub('r', ''), 'validation_error'],
      ['a query of only comments', () => sub('r', '# nothing here'), 'validation_error'],
      ['more than 1000 tokens', () => sub('r', `subscription { paymentUpdated { ${'id '.repeat(1500)} } }`), 'validation_error', /tokens/],
      ['a query just under maxPayload', () => sub('r', `subscription { paymentUpdated { ${'id '.repeat(20_000)} } }`), 'validation_error', /tokens/],
      ['operationName naming no operation', () => sub('r', 'subscription A { paymentUpdated { id } }', {}, 'B'), 'validation_error', /operation/],
      ['an empty operationName', () => sub('r', 'subscription A { paymentUpdated { id } }', {}, ''), 'validation_error', /operation/],
      ['two operations and no operationName', () => sub('r', 'subscription A { paymentUpdated { id } } subscription B { paymentUpdated { status } }'), 'validation_error', /operation/],
      ['a query', () => sub('r', '{ me { tenantId } }'), 'validation_error', /Only subscriptions/],
      ['a named query picked by operationName', () => sub('r', 'subscription S { paymentUpdated { id } } query Q { me { tenantId } }', {}, 'Q'), 'validation_error', /Only subscriptions/],
      ['a mutation', () => sub('r', 'mutation { deleteWebhook(id: "wh_x") }'), 'validation_error', /Only subscriptions/],
      ['an introspection subscription', () => sub('r', 'subscription { __typename }'), 'validation_error'],
      ['two root fields', () => sub('r', 'subscription { a: paymentUpdated { id } b: paymentUpdated { id } }'), 'validation_error'],
      ['an unknown field', () => sub('r', 'subscription { paymentUpdated { nope } }'), 'validation_error'],
      ['a fragment cycle', () => sub('r', 'subscription { paymentUpdated { ...A } } fragment A on Payment { id ...B } fragment B on Payment { status ...A }'), 'validation_error'],
      ['16 aliases', () => sub('r', `subscription { paymentUpdated { ${Array.from({ length: 16 }, (_, i) => `a${i}: id`).join(' ')} } }`), 'validation_error'],
      ['51 directives', () => sub('r', `subscription { paymentUpdated { id ${'@include(if: true) '.repeat(51)} } }`), 'validation_error'],
      ['an undeclared variable', () => sub('r', 'subscription { paymentUpdated(paymentId: $nope) { id } }'), 'validation_error'],
      // The root field skipped away: validation passes it (graphql-js collects no field), execution has nothing to run.
      ['the root field skipped with @skip(if: true)', () => sub('r', 'subscription { paymentUpdated @skip(if: true) { id } }'), 'validation_error'],
      ['the root field dropped with @include(if: $on), on = false', () => sub('r', 'subscription S($on: Boolean!) { paymentUpdated @include(if: $on) { id } }', { on: false }), 'validation_error'],
      // Variable coercion refuses these before any execution: a refusal, like validation.
      ['a variable of the wrong type', () => sub('r', 'subscription S($status: [PaymentStatus!]) { paymentUpdated(status: $status) { id } }', { status: ['nope'] }), 'validation_error'],
      ['a missing required variable', () => sub('r', 'subscription S($id: ID!) { paymentUpdated(paymentId: $id) { id } }', {}), 'validation_error'],
    ];

    // Rows padded to one length: jest would take a missing last argument for a `done` callback.
    it.each(refused.map(([name, message, code, text]) => [name, message, code, text ?? null] as const))('%s', async (_name, message, code, text) => {
      const raw = await authed();
      const frame = message();
      raw.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
      await expectRefused(raw, 'r', code, text ?? undefined);
      expect(graphql().groups.subscriberCount).toBe(baseline.members);
    });

    it('at most 25 subscriptions per socket: the 26th and later get rate_limited; a completed one frees its slot', async () => {
      const raw = await authed();
      for (let i = 1; i <= MAX_SUBSCRIPTIONS + 5; i++) raw.send(sub(`s${i}`, i % 2 ? UPDATES : UPDATES_BY_ID, i % 2 ? undefined : { paymentId: `pay_${i}` }));
      for (let i = MAX_SUBSCRIPTIONS + 1; i <= MAX_SUBSCRIPTIONS + 5; i++) await expectRefused(raw, `s${i}`, 'rate_limited', /25 subscriptions/);
      await membersReach(baseline.members + MAX_SUBSCRIPTIONS);
      for (let i = 1; i <= MAX_SUBSCRIPTIONS; i++) expect(raw.about(`s${i}`)).toEqual([]);
      raw.send({ id: 's1', type: 'complete' });
      raw.send(sub('s-after', UPDATES));
      await raw.roundTrip();
      await membersReach(baseline.members + MAX_SUBSCRIPTIONS);
      expect(raw.about('s-after')).toEqual([]);
      raw.send(sub('s-over', UPDATES));
      await expectRefused(raw, 's-over', 'rate_limited');
    });

    it('a key over its rate limit: subscribe gets rate_limited, a new connection closes with 4429', async () => {
      const admin = await service.newAdminKey();
      const limited = await service.newTenant('0');
      const patched = await service.call('PATCH', `/v1/admin/tenants/${limited.tenantId}`, { apiKey: admin, body: { rateLimitPerMinute: 3 } });
      expect(patched.status).toBe(200);
      const raw = await connect();
      await raw.init({ authorization: limited.apiKey }); // 1 of 3
      raw.send(sub('a', UPDATES)); // 2
      raw.send(sub('b', UPDATES_BY_ID, { paymentId: 'pay_b' })); // 3
      await membersReach(baseline.members + 2);
      raw.send(sub('c', UPDATES));
      await expectRefused(raw, 'c', 'rate_limited', /Too many requests/);
      const second = await connect();
      second.send({ type: 'connection_init', payload: { authorization: limited.apiKey } });
      await expectClosed(second, CloseCode.TooManyInitialisationRequests);
    });
  });

  describe('subscriptions accepted despite odd input', () => {
    const accepted: [string, () => string | Frame][] = [
      ['extensions nested 5000 deep (ignored)', () => `{"id":"ok","type":"subscribe","payload":{"query":${JSON.stringify(UPDATES)},"extensions":${deep5000()}}}`],
      ['unused variables', () => sub('ok', UPDATES, { unused: 1, other: { x: [1, 2, 3] } })],
      ['a __proto__ variable', () => `{"id":"ok","type":"subscribe","payload":{"query":${JSON.stringify(UPDATES_BY_ID)},"variables":{"__proto__":{"paymentId":"x"}}}}`],
      ['variables null', () => sub('ok', UPDATES, null)],
      ['operationName null', () => sub('ok', UPDATES, undefined, null)],
    ];
    function deep5000(): string {
      return `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    }

    it.each(accepted)('%s', async (_name, message) => {
      const raw = await authed();
      const frame = message();
      raw.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
      await expectAccepted(raw, 'ok');
    });

    it('ids named like Object.prototype members (__proto__, constructor, hasOwnProperty) are ordinary ids', async () => {
      const raw = await authed();
      const ids = ['__proto__', 'constructor', 'hasOwnProperty'];
      for (const id of ids) raw.send(sub(id, UPDATES));
      await membersReach(baseline.members + ids.length);
      raw.send(sub('constructor', UPDATES));
      await expectClosed(raw, CloseCode.SubscriberAlreadyExists);
      await membersReach(baseline.members);
    });

    it('an id with NUL, quotes, newlines and unicode is echoed exactly on events', async () => {
      const raw = await authed();
      const id = `"${NUL}\n\u2028<\\/script>💥`;
      raw.send(sub(id, UPDATES));
      await expectAccepted(raw, id);
      const paymentId = await createPayment(attacker.apiKey);
      await finalEvent(raw, id, paymentId);
      const events = raw.frames.filter((f) => f.type === 'next' && f.payload?.data?.paymentUpdated?.id === paymentId);
      expect(events.map((f) => f.id)).toEqual([id, id, id]);
    });
  });

  describe('completion', () => {
    it('after complete, a subscription receives nothing more while its neighbours on the socket still do', async () => {
      const raw = await authed();
      raw.send(sub('stay', UPDATES));
      raw.send(sub('leave-same-group', UPDATES));
      raw.send(sub('leave-own-group', 'subscription { paymentUpdated { id } }'));
      await membersReach(baseline.members + 3);
      raw.send({ id: 'leave-same-group', type: 'complete' });
      raw.send({ id: 'leave-own-group', type: 'complete' });
      await raw.roundTrip();
      await membersReach(baseline.members + 1);
      const completedAt = raw.frames.length;
      const paymentId = await createPayment(attacker.apiKey);
      await finalEvent(raw, 'stay', paymentId);
      const after = raw.frames.slice(completedAt);
      expect(after.filter((f) => f.id === 'stay').map((f) => f.payload?.data?.paymentUpdated?.status)).toEqual(['INITIATED', 'PROVIDER_ACCEPTED', 'SUCCEEDED']);
      expect(after.filter((f) => f.id === 'leave-same-group' || f.id === 'leave-own-group')).toEqual([]);
    });

    it('complete sent while the subscription is still being set up: it never starts, nothing leaks', async () => {
      const consume = jest.spyOn(rateLimits(), 'consume');
      const raw = await authed();
      consume.mockClear();
      await withRateLimitsLocked(async () => {
        raw.send(sub('quick', UPDATES));
        await blockedOnRateLimits();
        raw.send({ id: 'quick', type: 'complete' });
        await raw.roundTrip();
      });
      await Promise.allSettled(consume.mock.results.map((r) => r.value));
      await turn();
      await turn();
      expect(graphql().groups.subscriberCount).toBe(baseline.members);
      expect(graphql().bus.listenerCount(attacker.tenantId)).toBe(0);
      raw.send(sub('watch', UPDATES_BY_ID, { paymentId: null }));
      await expectAccepted(raw, 'watch');
      const paymentId = await createPayment(attacker.apiKey);
      await finalEvent(raw, 'watch', paymentId);
      expect(raw.about('quick')).toEqual([]);
    });

    it('the socket closing while a subscription is being set up leaves nothing behind', async () => {
      const consume = jest.spyOn(rateLimits(), 'consume');
      const remove = jest.spyOn(graphql().sockets, 'remove');
      const raw = await authed();
      consume.mockClear();
      await withRateLimitsLocked(async () => {
        raw.send(sub('orphan', UPDATES));
        await blockedOnRateLimits();
        raw.ws.close(1000);
        await raw.closeOf();
        await eventually(async () => (remove.mock.calls.length > 0 ? true : undefined), WAIT_MS);
      });
      await Promise.allSettled(consume.mock.results.map((r) => r.value));
      await turn();
      await turn();
      expect(graphql().groups.subscriberCount).toBe(baseline.members);
      expect(graphql().bus.listenerCount(attacker.tenantId)).toBe(0);
      expect(graphql().sockets.size).toBe(baseline.sockets);
    });

    it('a socket torn down (no close frame) with 25 subscriptions releases all of them', async () => {
      const raw = await authed();
      for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) raw.send(sub(`t${i}`, UPDATES_BY_ID, { paymentId: `pay_${i % 5}` }));
      await membersReach(baseline.members + MAX_SUBSCRIPTIONS);
      raw.ws.terminate();
      await raw.closed;
      await membersReach(baseline.members);
    });
  });
});
