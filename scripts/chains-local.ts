/**
 * Local chains for people (docs/chains.md § Local chains): starts each chain, deploys its tokens,
 * funds a sender, and prints the variables that point the service at them (also written to
 * .data/chains-local.env). One function per chain; each returns its variables and how to stop it.
 * Stops on SIGINT or SIGTERM.
 *
 *   npm run chains:local                              start the chains
 *   npm run chains:local -- bsc:send USDT 0xADDR 25   send 25 USDT on the local BSC from the funded
 *                                                     sender (reads BSC_RPC_URLS and the contracts
 *                                                     from the environment, as printed)
 *   npm run chains:local -- solana:send USDC ADDR 25  send 25 USDC on the local Solana (reads
 *                                                     SOLANA_RPC_URLS and the mints likewise)
 *
 * BSC: anvil on CHAINS_LOCAL_BSC_PORT (8545) mining a block a second, so the `finalized` tag
 * moves on its own. Solana: litesvm behind a JSON-RPC server on CHAINS_LOCAL_SOLANA_PORT (8899),
 * a slot every 400 ms (chains-local-solana.ts). CHAINS_LOCAL_ENV_FILE names another file for the
 * variables.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPublicClient, createWalletClient, defineChain, erc20Abi, http, parseUnits, type Address } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { BSC_DEVELOPMENT_XPUB } from '../src/adapters/chains/bsc/bsc-address-deriver';
import { ANVIL_MNEMONIC } from '../test/support/chains/anvil';
import { LocalBsc } from '../test/support/chains/local-bsc';
import { localSolana, solanaSend } from './chains-local-solana';

/** A running local chain: what to print, the variables for the service, how to stop it. */
interface LocalChain {
  readonly summary: string[];
  readonly variables: string[];
  stop(): Promise<void>;
}

/** Anvil's account that holds the local tokens and pays from the command line. */
const BSC_SENDER_INDEX = 1;
/** Tokens each chain's sender starts with (whole tokens). */
const FUNDING = 1_000_000n;

/**
 * BSC: anvil as chain 56 (a block a second), USDT and USDC as 18-decimal ERC-20s deployed from
 * anvil account 0 (on a fresh node they land at the same addresses every time), 1,000,000 of each
 * minted to anvil account 1.
 */
async function localBsc(): Promise<LocalChain> {
  const port = Number(process.env.CHAINS_LOCAL_BSC_PORT ?? 8545);
  const bsc = await LocalBsc.start({ port, blockTime: 1 });
  const usdt = await bsc.deployToken('Tether USD (local)', 'USDT');
  const usdc = await bsc.deployToken('USD Coin (local)', 'USDC');
  const sender = bsc.account(BSC_SENDER_INDEX).address;
  for (const token of [usdt, usdc]) await bsc.mint(token, sender, FUNDING * 10n ** 18n);
  return {
    summary: [
      `BSC (anvil, chain id 56)   ${bsc.url}   a block a second; the finalized block follows within two`,
      `  USDT ${usdt}   USDC ${usdc}   (18 decimals)`,
      `  sender ${sender}: ${FUNDING} USDT and ${FUNDING} USDC (anvil account ${BSC_SENDER_INDEX} of "${ANVIL_MNEMONIC}")`,
      `  deposit addresses: the development key ${BSC_DEVELOPMENT_XPUB.slice(0, 16)}…, m/44'/60'/1'/0/i of the same mnemonic`,
      '  send: npm run chains:local -- bsc:send USDT <deposit address> <amount>',
    ],
    variables: [
      `BSC_RPC_URLS=${bsc.url}`,
      `BSC_USDT_CONTRACT=${usdt}`,
      `BSC_USDC_CONTRACT=${usdc}`,
      'BSC_START_BLOCK=0',
    ],
    stop: () => bsc.stop(),
  };
}

/**
 * `bsc:send <USDT|USDC> <to> <amount>`: an ERC-20 `transfer` of `amount` whole-token units
 * (decimal text, exact to 18 places) from the funded sender on the local BSC; prints the
 * transaction hash and its block.
 */
async function bscSend(args: string[]): Promise<void> {
  const [currency, to, amount] = args;
  const contract = { USDT: process.env.BSC_USDT_CONTRACT, USDC: process.env.BSC_USDC_CONTRACT }[currency as 'USDT' | 'USDC'];
  const url = process.env.BSC_RPC_URLS?.split(',')[0]?.trim();
  if (!contract || !url || !to || !/^0x[0-9a-fA-F]{40}$/.test(to) || !amount || !/^\d+(\.\d{1,18})?$/.test(amount)) {
    throw new Error('usage: bsc:send <USDT|USDC> <0x address> <amount>, with BSC_RPC_URLS and BSC_USDT_CONTRACT/BSC_USDC_CONTRACT set as chains:local printed them');
  }
  const chain = defineChain({ id: 56, name: 'BSC (local)', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  const wallet = createWalletClient({ account: mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: BSC_SENDER_INDEX }), chain, transport: http(url) });
  const hash = await wallet.writeContract({ address: contract as Address, abi: erc20Abi, functionName: 'transfer', args: [to as Address, parseUnits(amount, 18)] });
  process.stdout.write(`sent ${amount} ${currency} to ${to}: ${hash}\n`);
  // Waited for, so whoever reads the chain next (a test, the watcher) finds it mined.
  const receipt = await createPublicClient({ chain, transport: http(url) }).waitForTransactionReceipt({ hash, pollingInterval: 100 });
  process.stdout.write(`mined in block ${receipt.blockNumber} (${receipt.status})\n`);
}

/** Every local chain, started in turn. */
const CHAINS: (() => Promise<LocalChain>)[] = [localBsc, () => localSolana(FUNDING)];

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'bsc:send') return bscSend(args);
  if (command === 'solana:send') return solanaSend(args);
  if (command !== undefined) throw new Error(`unknown command ${command}: none (start the chains), bsc:send or solana:send`);

  const chains: LocalChain[] = [];
  const stopAll = () => Promise.allSettled(chains.map((c) => c.stop()));
  try {
    for (const start of CHAINS) chains.push(await start());
  } catch (error) {
    await stopAll();
    throw error;
  }
  const envFile = process.env.CHAINS_LOCAL_ENV_FILE ?? path.resolve(__dirname, '..', '.data', 'chains-local.env');
  mkdirSync(path.dirname(envFile), { recursive: true });
  const variables = chains.flatMap((c) => c.variables);
  writeFileSync(envFile, `${variables.join('\n')}\n`, { mode: 0o600 });
  process.stdout.write([
    ...chains.flatMap((c) => [...c.summary, '']),
    `Variables for the service (also in ${envFile}):`,
    ...variables.map((line) => `  ${line}`),
    '',
    'Start the service with them, e.g.: set -a; . ./.data/chains-local.env; set +a; npm start',
    '',
  ].join('\n'));
  const stop = async () => {
    await stopAll();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`chains:local failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
