import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSmileIdSimulator, type SmileIdSimulator } from '../../simulators/smile-id/smile-id-simulator';
import { parseSmileIdCallback, type SmileIdCallbackResult } from '../../src/adapters/providers/smile-id/smile-id-callbacks';
import { jobRefOf } from '../../src/adapters/providers/smile-id/smile-id-kyc-provider';
import { smileIdSignature } from '../../src/adapters/providers/smile-id/smile-id-signature';
import { adapterFor, CALLBACK_SECRET, customer } from './smile-id-harness';

/**
 * Smile ID callbacks (docs/providers.md § Smile ID, "Callbacks"): received over real HTTP from the
 * simulator, checked by path secret and by the signature over their timestamp.
 */
describe('Smile ID callbacks', () => {
  let sim: SmileIdSimulator;
  let server: Server;
  let url: string;
  const received: Array<{ path: string; body: Buffer; result: SmileIdCallbackResult }> = [];
  const settings = () => ({ apiKey: sim.apiKey, partnerId: sim.partnerId, callbackSecret: CALLBACK_SECRET });
  beforeAll(async () => {
    sim = await startSmileIdSimulator({ resultDelayMs: 5 });
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '';
        const body = Buffer.concat(chunks);
        const result = parseSmileIdCallback({ pathSecret: path.split('/').pop(), rawBody: body }, settings());
        received.push({ path, body, result });
        res.writeHead(result.status).end();
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks/smile-id`;
  });
  afterAll(async () => {
    await sim.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a genuine callback from the simulator is accepted and names the customer and job', async () => {
    const adapter = adapterFor(sim, { SMILE_ID_CALLBACK_BASE_URL: url });
    try {
      const c = customer();
      await adapter.provider.check(c);
      await sim.waitForResult(c.id, jobRefOf(c.id, 1));
      const deadline = Date.now() + 5000;
      while (!received.some((r) => r.result.ok && r.result.customerId === c.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const got = received.find((r) => r.result.ok && r.result.customerId === c.id);
      expect(got?.result).toEqual({ ok: true, customerId: c.id, jobRef: jobRefOf(c.id, 1), status: 200 });
      expect(got?.path).toBe(`/callbacks/smile-id/${CALLBACK_SECRET}`);
      // A redelivery of the same result is accepted alike (the service stores it once).
      expect(await sim.redeliver(c.id, jobRefOf(c.id, 1))).toBe(200);
    } finally {
      await adapter.close();
    }
  });

  const body = (fields: Record<string, unknown>) => Buffer.from(JSON.stringify({
    ResultCode: '1012', PartnerParams: { user_id: 'cus_01JCUSTOMER0000000000000000', job_id: 'cus_01JCUSTOMER0000000000000000-1', job_type: 5 }, ...fields,
  }));

  it('a forged signature is refused with 401', () => {
    const timestamp = new Date().toISOString();
    const forged = smileIdSignature('someone-elses-api-key-0000000', sim.partnerId, timestamp);
    expect(parseSmileIdCallback({ pathSecret: CALLBACK_SECRET, rawBody: body({ timestamp, signature: forged }) }, settings()))
      .toMatchObject({ ok: false, reason: 'bad_signature', status: 401 });
  });

  it('a callback without a signature is refused with 401', () => {
    expect(parseSmileIdCallback({ pathSecret: CALLBACK_SECRET, rawBody: body({ timestamp: new Date().toISOString() }) }, settings()))
      .toMatchObject({ ok: false, reason: 'bad_signature', status: 401 });
  });

  it('a callback on another path is refused with 404 before anything is read', () => {
    const timestamp = new Date().toISOString();
    const genuine = smileIdSignature(sim.apiKey, sim.partnerId, timestamp);
    expect(parseSmileIdCallback({ pathSecret: 'guessed-secret-000000000000000', rawBody: body({ timestamp, signature: genuine }) }, settings()))
      .toMatchObject({ ok: false, reason: 'bad_path', status: 404 });
  });

  it('a signed body that is not JSON or names no customer of ours is refused with 400', () => {
    const timestamp = new Date().toISOString();
    const signature = smileIdSignature(sim.apiKey, sim.partnerId, timestamp);
    expect(parseSmileIdCallback({ pathSecret: CALLBACK_SECRET, rawBody: Buffer.from('not json') }, settings()))
      .toMatchObject({ ok: false, reason: 'unparseable', status: 400 });
    expect(parseSmileIdCallback({ pathSecret: CALLBACK_SECRET, rawBody: body({ timestamp, signature, PartnerParams: { user_id: 'someone', job_id: 'x' } }) }, settings()))
      .toMatchObject({ ok: false, reason: 'unparseable', status: 400 });
  });
});
