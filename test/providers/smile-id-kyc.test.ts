import { startSmileIdSimulator, type SmileIdSimulator } from '../../simulators/smile-id/smile-id-simulator';
import { jobRefOf, SMILE_ID } from '../../src/adapters/providers/smile-id/smile-id-kyc-provider';
import type { Customer, KycOutcome } from '../../src/core/customers/customer';
import { adapterFor, customer, sleep } from './smile-id-harness';

type Adapter = ReturnType<typeof adapterFor>;

/** Runs the adapter's step until it is no longer pending without a reason, or `steps` run out; each pending wait is honoured. */
async function settle(adapter: Adapter, c: Customer, steps = 20): Promise<KycOutcome> {
  let outcome: KycOutcome = { kind: 'pending', afterMs: 0 };
  for (let i = 0; i < steps; i += 1) {
    outcome = await adapter.provider.check(c);
    if (outcome.kind !== 'pending' || outcome.reason) return outcome;
    await sleep(Math.min(outcome.afterMs, 250));
  }
  return outcome;
}

/**
 * The Smile ID adapter over real HTTP against the simulator (docs/providers.md § Smile ID): signed
 * Enhanced KYC jobs, job status as the deciding answer, sandbox behaviours by the last digit.
 */
describe('Smile ID KYC adapter against the simulator', () => {
  let sim: SmileIdSimulator;
  const adapters: Adapter[] = [];
  const make = (overrides: Record<string, string> = {}) => {
    const adapter = adapterFor(sim, overrides);
    adapters.push(adapter);
    return adapter;
  };
  beforeAll(async () => {
    sim = await startSmileIdSimulator({ resultDelayMs: 20, callbacks: false });
  });
  afterAll(async () => {
    await Promise.all(adapters.map((a) => a.close()));
    await sim.close();
  });

  it('approved (last digit 0): a signed job with the customer\'s details, then job status 1012; the answer kept for audit', async () => {
    const adapter = make();
    const c = customer({ idNumber: '12345670' });
    expect(await adapter.provider.check(c)).toEqual({ kind: 'pending', afterMs: 200 });
    const [job] = sim.jobs().filter((j) => j.userId === c.id);
    expect(job).toMatchObject({ jobId: jobRefOf(c.id, 1), country: 'KE', idType: 'NATIONAL_ID', idNumber: '12345670', callbackUrl: adapter.config.callbackUrl });
    await sim.waitForResult(c.id, jobRefOf(c.id, 1));
    expect(await adapter.provider.check(c)).toEqual({ kind: 'approved' });
    const [row] = adapter.checks.rows;
    expect(row).toMatchObject({ customerId: c.id, provider: SMILE_ID, attempt: 1, state: 'completed', resultCode: '1012' });
    expect(JSON.parse(row?.rawAnswer ?? '{}')).toMatchObject({ job_complete: true, result: { ResultCode: '1012', IDNumber: '12345670' } });
    expect(sim.refusedSignatures()).toBe(0);
  });

  it('rejected, not found (last digit 1): 1013', async () => {
    const adapter = make();
    expect(await settle(adapter, customer({ country: 'NG', idType: 'BVN', idNumber: '00000000001' })))
      .toEqual({ kind: 'rejected', reason: 'The ID number was not found at the ID authority' });
  });

  it('rejected, invalid number (last digit 2): 1014', async () => {
    const adapter = make();
    expect(await settle(adapter, customer({ country: 'GH', idType: 'GHANA_CARD', idNumber: 'GHA-000000000-2' })))
      .toEqual({ kind: 'rejected', reason: 'The ID number is not in a valid format for this ID type' });
  });

  it('ID authority unavailable (last digit 3): a new job per attempt with backoff, then pending with the reason', async () => {
    const adapter = make();
    const c = customer({ country: 'NG', idType: 'NIN_V2', idNumber: '00000000003' });
    const started = Date.now();
    const outcome = await settle(adapter, c, 40);
    expect(outcome).toEqual({ kind: 'pending', afterMs: expect.any(Number), reason: 'The ID authority was unavailable (3 attempts); trying again later' });
    // Backoff 100 ms then 200 ms between the three jobs.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(sim.jobs().filter((j) => j.userId === c.id).map((j) => j.jobId)).toEqual([1, 2, 3].map((n) => jobRefOf(c.id, n)));
    expect(adapter.checks.rows.map((r) => [r.attempt, r.resultCode])).toEqual([[1, '1015'], [2, '1015'], [3, '1015']]);
    // Asked again before the held wait is over: the same answer, no fourth job.
    expect(await adapter.provider.check(c)).toMatchObject({ kind: 'pending', reason: expect.stringMatching(/unavailable \(3 attempts\)/) });
    expect(sim.jobs().filter((j) => j.userId === c.id)).toHaveLength(3);
  });

  it('requests are signed as Smile ID documents: with another API key the simulator refuses them and the customer is held', async () => {
    const adapter = make({ SMILE_ID_API_KEY: 'not-the-simulators-api-key-000' });
    const c = customer();
    const refusedBefore = sim.refusedSignatures();
    expect(await adapter.provider.check(c)).toEqual({
      kind: 'pending', afterMs: 60_000, reason: 'The identity provider refused the check (HTTP 401, code 2205); an operator has been told',
    });
    expect(sim.refusedSignatures()).toBe(refusedBefore + 1);
    expect(sim.jobs().filter((j) => j.userId === c.id)).toEqual([]);
  });

  it('an interrupted submission is looked up first, then sent once under the same job reference', async () => {
    const adapter = make();
    const c = customer({ idNumber: '22222220' });
    // A process died after writing the attempt and before (or while) sending it.
    await adapter.checks.begin({
      customerId: c.id, provider: SMILE_ID, attempt: 1, jobRef: jobRefOf(c.id, 1), state: 'submitting', resultCode: null, rawAnswer: null,
      submittedAt: new Date(), completedAt: null,
    });
    const statusBefore = sim.requestCount('POST /v1/job_status');
    expect(await adapter.provider.check(c)).toEqual({ kind: 'pending', afterMs: 200 });
    expect(sim.requestCount('POST /v1/job_status')).toBe(statusBefore + 1);
    expect(sim.jobs().filter((j) => j.userId === c.id).map((j) => j.jobId)).toEqual([jobRefOf(c.id, 1)]);
    expect(await settle(adapter, c)).toEqual({ kind: 'approved' });
    expect(sim.jobs().filter((j) => j.userId === c.id)).toHaveLength(1);
  });

  it('an ID type Smile ID cannot check in the country is rejected naming the accepted ones, and nothing is sent', async () => {
    const adapter = make();
    const before = sim.requestCount('POST /v1/async_id_verification');
    expect(await adapter.provider.check(customer({ country: 'NG', idType: 'PASSPORT', idNumber: 'A00000000' })))
      .toEqual({ kind: 'rejected', reason: 'PASSPORT cannot be verified in NG; accepted: BVN, NIN_V2' });
    expect(sim.requestCount('POST /v1/async_id_verification')).toBe(before);
  });

  it('a job without a final result yet waits the poll interval', async () => {
    const slow = await startSmileIdSimulator({ resultDelayMs: 60_000, callbacks: false });
    const adapter = adapterFor(slow);
    try {
      const c = customer();
      await adapter.provider.check(c);
      expect(await adapter.provider.check(c)).toEqual({ kind: 'pending', afterMs: 200 });
      expect(adapter.checks.rows[0]?.state).toBe('submitted');
    } finally {
      await adapter.close();
      await slow.close();
    }
  });
});
