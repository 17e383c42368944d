/**
 * The Solana part of `npm run chains:local` (docs/chains.md § Local chains) as a person runs it:
 * it starts the local Solana beside BSC, prints variables that point the service at it,
 * `solana:send` pays a sandbox tenant's development deposit address (the owner's associated token
 * account), and the Solana reader the service would build from those variables sees exactly that
 * transfer; SIGTERM stops it all.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DevelopmentAddressDeriver } from '../../src/adapters/chains/development-address-deriver';
import { solanaChainAdapter } from '../../src/adapters/chains/solana/solana-chain';
import type { WatchedToken } from '../../src/core/deposits/chain-ports';
import { freePort } from '../support/chains/anvil';
import { killChildren, spawnChild } from '../support/child-process';

const dir = mkdtempSync(path.join(tmpdir(), 'chains-local-solana-'));
afterEach(async () => {
  await killChildren();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lineMatching(lines: string[], match: RegExp, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = lines.find((l) => match.test(l));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no line matching ${match} in:\n${lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('starts the local Solana, prints its variables, sends to a development deposit address the reader then sees, and stops on SIGTERM', async () => {
  const envFile = path.join(dir, 'chains.env');
  const tsNode = path.join('node_modules', '.bin', 'ts-node');
  const solanaPort = await freePort();
  const chains = spawnChild(tsNode, ['--transpile-only', 'scripts/chains-local.ts'], {
    CHAINS_LOCAL_BSC_PORT: String(await freePort()), CHAINS_LOCAL_SOLANA_PORT: String(solanaPort), CHAINS_LOCAL_ENV_FILE: envFile,
  });
  await lineMatching(chains.stdout, /^Start the service with them/);
  const variables = Object.fromEntries(readFileSync(envFile, 'utf8').trim().split('\n').map((line) => line.split('=') as [string, string]));
  expect(Object.keys(variables).filter((name) => name.startsWith('SOLANA_'))).toEqual(['SOLANA_RPC_URLS', 'SOLANA_USDC_MINT', 'SOLANA_USDT_MINT']);
  expect(variables.SOLANA_RPC_URLS).toBe(`http://127.0.0.1:${solanaPort}`);

  const tokens: WatchedToken[] = [
    { chain: 'SOLANA', currency: 'USDC', token: variables.SOLANA_USDC_MINT!, decimals: 6 },
    { chain: 'SOLANA', currency: 'USDT', token: variables.SOLANA_USDT_MINT!, decimals: 6 },
  ];
  const development = new DevelopmentAddressDeriver(tokens);
  const owner = development.addressAt('SOLANA', 5);
  const depositAddress = await development.paymentAddress('SOLANA', 'USDT', owner);
  const send = spawnChild(tsNode, ['--transpile-only', 'scripts/chains-local.ts', 'solana:send', 'USDT', owner, '12.345678'], variables);
  expect((await send.exited).code).toBe(0);
  const first = /: ([1-9A-HJ-NP-Za-km-z]{64,88}) \(slot \d+\)$/.exec(await lineMatching(send.stdout, /^sent 12.345678 USDT/))![1];
  // Paying the deposit address itself (the token account, now that it exists) works too.
  const again = spawnChild(tsNode, ['--transpile-only', 'scripts/chains-local.ts', 'solana:send', 'USDT', depositAddress, '1'], variables);
  expect((await again.exited).code).toBe(0);
  const second = /: ([1-9A-HJ-NP-Za-km-z]{64,88}) \(slot \d+\)$/.exec(await lineMatching(again.stdout, /^sent 1 USDT/))![1];

  const supply = solanaChainAdapter({ variables, production: false, tokens, onRpcError: () => undefined })!;
  expect(supply).toMatchObject({ keyId: 'development', developmentKey: true });
  expect(await supply.deriver.addressAt('SOLANA', 5)).toBe(owner);
  const { head } = await supply.reader.heights();
  const { transfers } = await supply.reader.scan([owner], undefined, head);
  expect(transfers.map((t) => ({ txHash: t.txHash, token: t.token, to: t.to, units: t.units, decimals: t.decimals }))).toEqual([
    { txHash: first, token: variables.SOLANA_USDT_MINT, to: owner, units: 12_345678n, decimals: 6 },
    { txHash: second, token: variables.SOLANA_USDT_MINT, to: owner, units: 1_000000n, decimals: 6 },
  ]);

  chains.signal('SIGTERM');
  expect((await chains.exited).code).toBe(0);
  await expect(fetch(variables.SOLANA_RPC_URLS!, { method: 'POST', body: '{}' })).rejects.toThrow();
}, 120_000);
