import { request } from 'node:http';
import { startTestService, type TestService } from '../support/test-service';

/** GET `path` with the Host header set to `host` (fetch cannot set Host); resolves to the Content-Security-Policy. */
function cspOf(baseUrl: string, path: string, host: string): Promise<{ status: number; csp: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, csp: String(res.headers['content-security-policy'] ?? '') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The sources of one directive of a policy. */
const sourcesOf = (csp: string, directive: string) =>
  csp.split(';').map((part) => part.trim().split(/\s+/)).find(([name]) => name === directive)?.slice(1);

describe('the operations console\'s Content-Security-Policy', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('lets the page connect only to its own origin: \'self\' and the ws:/wss: origin of its own host and port, never any ws:', async () => {
    const host = new URL(service.baseUrl).host;
    for (const path of ['/dashboard/', '/dashboard/dashboard.js', '/dashboard/vendor/graphql-ws.js']) {
      const { status, csp } = await cspOf(service.baseUrl, path, host);
      expect(status).toBe(200);
      expect(sourcesOf(csp, 'connect-src')).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
      expect(sourcesOf(csp, 'default-src')).toEqual(["'self'"]);
      expect(sourcesOf(csp, 'script-src')).toEqual(["'self'"]);
      expect(sourcesOf(csp, 'frame-ancestors')).toEqual(["'none'"]);
    }
    const named = await cspOf(service.baseUrl, '/dashboard/', 'console.example.com');
    expect(sourcesOf(named.csp, 'connect-src')).toEqual(["'self'", 'ws://console.example.com', 'wss://console.example.com']);
    const ipv6 = await cspOf(service.baseUrl, '/dashboard/', '[::1]:8443');
    expect(sourcesOf(ipv6.csp, 'connect-src')).toEqual(["'self'", 'ws://[::1]:8443', 'wss://[::1]:8443']);
  });

  it.each([
    ['a directive smuggled in', "evil.example; connect-src *"],
    ['a second source', 'evil.example ws:'],
    ['a scheme', 'ws://evil.example'],
    ['a path', 'evil.example/x'],
  ])('a Host header with %s adds no WebSocket source and no directive', async (_name, host) => {
    const { csp } = await cspOf(service.baseUrl, '/dashboard/', host);
    expect(sourcesOf(csp, 'connect-src')).toEqual(["'self'"]);
    expect(csp.split(';').filter((part) => part.trim().startsWith('connect-src'))).toHaveLength(1);
    expect(csp).not.toContain('evil');
  });
});
