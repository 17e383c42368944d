import { startSmileIdSimulator, type SmileIdSimulator } from '../../simulators/smile-id/smile-id-simulator';
import { jobRefOf } from '../../src/adapters/providers/smile-id/smile-id-kyc-provider';
import { SMILE_ID_RESULT_CODES } from '../../src/adapters/providers/smile-id/smile-id-result-codes';
import type { KycOutcome } from '../../src/core/customers/customer';
import { adapterFor, customer } from './smile-id-harness';

/**
 * Each Smile ID result code through the adapter over HTTP (docs/providers.md § Smile ID, "Result
 * codes"): the simulator ends a job with the code, the adapter reads it from job status.
 */
describe('Smile ID result codes', () => {
  let sim: SmileIdSimulator;
  let adapter: ReturnType<typeof adapterFor>;
  let sequence = 0;
  beforeAll(async () => {
    sim = await startSmileIdSimulator({ resultDelayMs: 5, callbacks: false });
    // One attempt, so 1015 shows its final reason at once.
    adapter = adapterFor(sim, { SMILE_ID_AUTHORITY_ATTEMPTS: '1' });
  });
  afterAll(async () => {
    await adapter.close();
    await sim.close();
  });

  async function outcomeFor(code: string): Promise<KycOutcome> {
    sequence += 1;
    const idNumber = `5${String(sequence).padStart(7, '0')}`;
    sim.forceResult(idNumber, code);
    const c = customer({ idNumber });
    await adapter.provider.check(c);
    await sim.waitForResult(c.id, jobRefOf(c.id, 1));
    return adapter.provider.check(c);
  }

  const expected: Record<string, KycOutcome> = {
    1012: { kind: 'approved' },
    1020: { kind: 'approved' },
    1021: { kind: 'approved' },
    1013: { kind: 'rejected', reason: 'The ID number was not found at the ID authority' },
    1022: { kind: 'rejected', reason: 'The details given do not match the ID authority\'s record' },
    1023: { kind: 'rejected', reason: 'No matching record was found at the ID authority' },
    1014: { kind: 'rejected', reason: 'The ID number is not in a valid format for this ID type' },
    1015: { kind: 'pending', afterMs: expect.any(Number) as number, reason: 'The ID authority was unavailable (1 attempt); trying again later' },
    1016: { kind: 'pending', afterMs: 60_000, reason: 'Identity checks for this ID type are not enabled yet; an operator has been told' },
    '0001': { kind: 'pending', afterMs: 60_000, reason: 'The identity check failed at the provider; an operator has been told' },
  };

  it('the table and these expectations list the same codes', () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(SMILE_ID_RESULT_CODES).sort());
  });

  it.each(Object.keys(expected))('result code %s', async (code) => {
    expect(await outcomeFor(code)).toEqual(expected[code]);
  });

  it('a code the table does not list is held for an operator, never approved', async () => {
    expect(await outcomeFor('1999')).toEqual({
      kind: 'pending', afterMs: 60_000, reason: 'The identity check ended with a result we do not map (1999); an operator has been told',
    });
  });
});
