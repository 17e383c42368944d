/** The chain id check of BSC RPC endpoints (docs/chains.md § BSC reader), on a clock the test moves. */
import { BscEndpointGuard, type GuardedEndpoint } from '../../src/adapters/chains/bsc/bsc-endpoint-guard';

/** An endpoint answering `answers` in turn (a number, or 'down' to fail), counting its calls. */
function endpoint(label: string, ...answers: (number | 'down')[]): GuardedEndpoint & { calls: number } {
  const e = {
    label, calls: 0,
    async chainId() {
      const answer = answers[Math.min(e.calls, answers.length - 1)]!;
      e.calls++;
      if (answer === 'down') throw new Error('connection refused');
      return answer;
    },
  };
  return e;
}

describe('BSC endpoint guard', () => {
  it('asks each endpoint once when all serve chain 56', async () => {
    const [a, b] = [endpoint('a', 56), endpoint('b', 56)];
    const guard = new BscEndpointGuard([a, b], 60_000, () => 0);
    await guard.check();
    await guard.check();
    expect([a.calls, b.calls]).toEqual([1, 1]);
  });

  it('asks an endpoint that was down again only after the recheck interval, then no more once it answered 56', async () => {
    let now = 0;
    const down = endpoint('down', 'down', 56);
    const guard = new BscEndpointGuard([endpoint('up', 56), down], 60_000, () => now);
    await guard.check();
    now = 59_999;
    await guard.check();
    expect(down.calls).toBe(1);
    now = 60_000;
    await guard.check();
    now = 200_000;
    await guard.check();
    expect(down.calls).toBe(2);
  });

  it('fails every check once an endpoint answered another chain id, without asking again', async () => {
    const wrong = endpoint('rpc.example.com', 'down', 97);
    let now = 0;
    const guard = new BscEndpointGuard([wrong], 1_000, () => now);
    await guard.check();
    now = 1_000;
    const message = 'BSC RPC endpoint rpc.example.com serves chain id 97, not 56: fix BSC_RPC_URLS';
    await expect(guard.check()).rejects.toThrow(message);
    now = 5_000;
    await expect(guard.check()).rejects.toThrow(message);
    expect(wrong.calls).toBe(2);
  });
});
