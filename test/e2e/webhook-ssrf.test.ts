import { randomUUID } from 'node:crypto';
import { AesGcmSecretBox } from '../../src/adapters/providers/secret-box';
import { UndiciWebhookTransport } from '../../src/adapters/providers/webhook-transport';
import { startTestService, type TestService } from '../support/test-service';

describe('webhook targets: IPv4-embedding IPv6 ranges and ports (private targets not allowed)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_ALLOWED_PORTS: '8443,9443' });
  });
  afterAll(() => service.close());

  const register = async (url: string) => {
    const { apiKey } = await service.newTenant();
    return service.call('POST', '/v1/webhooks/register', { apiKey, body: { url } });
  };

  it.each([
    ['IPv4-compatible ::/96', 'https://[::127.0.0.1]/'],
    ['IPv4-compatible ::/96, public IPv4 inside', 'https://[::93.184.216.34]/'],
    ['6to4 2002::/16', 'https://[2002:7f00:1::1]/'],
    ['Teredo 2001::/32', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
    ['a port that is not allowed', 'https://93.184.216.34:6379/'],
    ['port 80 over https', 'https://93.184.216.34:80/'],
    ['a still-refused range (mapped loopback)', 'https://[::ffff:127.0.0.1]/'],
  ])('refuses %s: %s', async (_what, url) => {
    const res = await register(url);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_error', message: expect.stringContaining('not an allowed target') });
  });

  it.each(['https://93.184.216.34/hooks', 'https://93.184.216.34:443/hooks', 'https://93.184.216.34:8443/hooks', 'https://[2606:2800:220:1::1]:9443/h'])(
    'accepts the default port and allow-listed ports: %s', async (url) => {
      expect((await register(url)).status).toBe(201);
    },
  );

  it('refuses the same targets at send time, without connecting', async () => {
    const box = new AesGcmSecretBox(Buffer.alloc(32, 1));
    const transport = new UndiciWebhookTransport(box, false, 1000, { allowedPorts: [8443] });
    const job = {
      id: randomUUID(), registrationId: randomUUID(), registrationActive: true, attempt: 1, secretCiphertext: box.seal(box.newSecret()),
      event: { id: randomUUID(), type: 'payment.succeeded', entityId: 'pay_x', createdAt: new Date(), payload: {} },
    };
    const sent = await Promise.all(['https://[::127.0.0.1]/', 'https://[2002:7f00:1::1]/', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'https://93.184.216.34:6379/']
      .map((url) => transport.send({ ...job, url }, '{}', new Date())));
    await transport.close();
    expect(sent).toEqual(Array(4).fill({ error: expect.stringMatching(/^refused target: /) }));
  });
});
