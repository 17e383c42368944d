import WebSocket from 'ws';
import { wsUrl } from '../support/graphql-client';
import { captureLog } from '../support/captured-log';
import { eventually, startTestService, type TestService } from '../support/test-service';
import { initSocket, type InitSocket } from '../support/ws-socket';

describe('graphql-ws connections per key are capped', () => {
  let service: TestService;
  const open: InitSocket[] = [];
  beforeAll(async () => {
    service = await startTestService({ WS_MAX_CONNECTIONS_PER_KEY: '3' });
  });
  afterEach(async () => {
    for (const s of open.splice(0)) s.ws.close();
    await eventually(async () => (service.container.graphql.sockets.size === 0 ? true : undefined));
  });
  afterAll(() => service.close());
  const connect = (apiKey: string) => {
    const socket = initSocket(service.baseUrl, { authorization: apiKey });
    open.push(socket);
    return socket;
  };

  it('the cap + 1st connection_init is closed with 4420; closing one frees a slot; other keys are not affected', async () => {
    const { apiKey } = await service.newTenant();
    const first = [connect(apiKey), connect(apiKey), connect(apiKey)];
    expect(await Promise.all(first.map((s) => s.outcome))).toEqual(['acked', 'acked', 'acked']);
    expect(await connect(apiKey).outcome).toEqual({ code: 4420, reason: 'Too many open connections for this API key (at most 3)' });
    const other = await service.newTenant();
    expect(await connect(other.apiKey).outcome).toBe('acked');
    first[0]!.ws.close(1000);
    await first[0]!.closed;
    // Three of the key's sockets and the other key's one, until the server has seen the close.
    await eventually(async () => (service.container.graphql.sockets.size === 3 ? true : undefined));
    expect(await connect(apiKey).outcome).toBe('acked');
  });

  it('concurrent connection_inits cannot pass the cap together', async () => {
    const { apiKey } = await service.newTenant();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => connect(apiKey).outcome));
    expect(outcomes.filter((o) => o === 'acked')).toHaveLength(3);
    expect(outcomes.filter((o) => o !== 'acked')).toEqual(Array(7).fill({ code: 4420, reason: expect.any(String) }));
  });
});

describe('graphql-ws socket errors are one warn line', () => {
  let service: TestService;
  const log = captureLog('info');
  beforeAll(async () => {
    service = await startTestService({}, {}, { logger: log.logger });
  });
  afterAll(() => service.close());

  it('a 70 KB frame before connection_init closes the socket (1009) with one warn line, no stack, nothing on the console', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const before = log.lines.length;
      const ws = new WebSocket(wsUrl(service.baseUrl), 'graphql-transport-ws');
      ws.on('error', () => undefined);
      await new Promise((resolve) => ws.on('open', resolve));
      const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
      ws.send('x'.repeat(70 * 1024));
      expect(await closed).toBe(1009);
      await eventually(async () => (log.lines.length > before ? true : undefined));
      const lines = log.lines.slice(before).filter((l) => l.msg !== 'request');
      expect(lines).toEqual([expect.objectContaining({ level: 40, msg: expect.stringMatching(/WebSocket client error/), code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' })]);
      expect(JSON.stringify(lines[0])).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });
});
