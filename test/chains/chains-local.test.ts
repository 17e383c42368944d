/**
 * `npm run chains:local` (docs/chains.md § Local chains) as a person runs it: it starts the local
 * BSC, prints variables that point the reader at it, `bsc:send` pays a deposit address, and the
 * reader built from those variables sees exactly that transfer; SIGTERM stops it all.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { bscAddressDeriverFromConfig, bscChainReaderFromConfig } from '../../src/adapters/chains/bsc/bsc-chain';
import { parseBscConfig } from '../../src/adapters/chains/bsc/bsc-config';
import { ChainRpcMetrics } from '../../src/adapters/chains/rpc-endpoint-metrics';
import { freePort, jsonRpc } from '../support/chains/anvil';
import { killChildren, spawnChild } from '../support/child-process';

const dir = mkdtempSync(path.join(tmpdir(), 'chains-local-'));
afterEach(async () => {
  await killChildren();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolves once `lines` holds a line matching `match`; rejects after `timeoutMs`. */
async function lineMatching(lines: string[], match: RegExp, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = lines.find((l) => match.test(l));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no line matching ${match} in:\n${lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('starts the local BSC, prints its variables, sends a deposit the reader then sees, and stops on SIGTERM', async () => {
  const port = await freePort();
  const envFile = path.join(dir, 'chains.env');
  const tsNode = path.join('node_modules', '.bin', 'ts-node');
  const chains = spawnChild(tsNode, ['--transpile-only', 'scripts/chains-local.ts'], {
    CHAINS_LOCAL_BSC_PORT: String(port), CHAINS_LOCAL_SOLANA_PORT: String(await freePort()), CHAINS_LOCAL_ENV_FILE: envFile,
  });
  await lineMatching(chains.stdout, /^Start the service with them/);
  const variables = Object.fromEntries(readFileSync(envFile, 'utf8').trim().split('\n').map((line) => line.split('=') as [string, string]));
  expect(Object.keys(variables).filter((name) => name.startsWith('BSC_'))).toEqual(['BSC_RPC_URLS', 'BSC_USDT_CONTRACT', 'BSC_USDC_CONTRACT', 'BSC_START_BLOCK']);
  expect(variables.BSC_RPC_URLS).toBe(`http://127.0.0.1:${port}`);

  const config = parseBscConfig(variables);
  const to = bscAddressDeriverFromConfig(config.depositKey)!.addressAt(5);
  const send = spawnChild(tsNode, ['--transpile-only', 'scripts/chains-local.ts', 'bsc:send', 'USDC', to, '12.345678901234567891'], variables);
  expect((await send.exited).code).toBe(0);
  const hash = /: (0x[0-9a-f]{64})$/.exec(await lineMatching(send.stdout, /^sent 12.345678901234567891 USDC/))![1];

  const reader = bscChainReaderFromConfig(config, new ChainRpcMetrics(new Registry()))!;
  const { head } = await reader.heights();
  const { transfers } = await reader.scan([to], undefined, head);
  expect(transfers.map((t) => ({ txHash: t.txHash, token: t.token, to: t.to, units: t.units, decimals: t.decimals }))).toEqual([
    { txHash: hash, token: variables.BSC_USDC_CONTRACT, to, units: 12_345_678_901_234_567_891n, decimals: 18 },
  ]);

  chains.signal('SIGTERM');
  expect((await chains.exited).code).toBe(0);
  await expect(jsonRpc(variables.BSC_RPC_URLS!, 'eth_chainId')).rejects.toThrow();
}, 120_000);
