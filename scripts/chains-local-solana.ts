/**
 * The Solana part of `npm run chains:local` (docs/chains.md § Local chains): litesvm behind the
 * JSON-RPC server of test/support on CHAINS_LOCAL_SOLANA_PORT (8899, Solana's usual RPC port),
 * a slot every 400 ms, USDC and USDT as 6-decimal SPL mints, and the development sender funded;
 * and `solana:send`.
 */
import { address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { DEVELOPMENT_MNEMONIC } from '../src/adapters/chains/development-address-deriver';
import { LiteSvmLedger } from '../test/support/chains/litesvm-ledger';
import { startLiteSvmRpc } from '../test/support/chains/litesvm-rpc-server';
import { developmentSender, LocalSolana } from '../test/support/chains/local-solana';

/** Solana's target slot time (https://solana.com/docs/core/fees, "slots … about 400ms"). */
const SLOT_MS = 400;

/** A running local chain: what to print, the variables for the service, how to stop it. */
export interface LocalSolanaChain {
  readonly summary: string[];
  readonly variables: string[];
  stop(): Promise<void>;
}

/**
 * Starts the local Solana: the RPC server, a timer producing a slot every 400 ms (finalized 32
 * slots behind, about 13 s), the two mints, and `funding` whole tokens of each for the development
 * sender (m/44'/501'/0'/0' of the development mnemonic, which also pays the fees).
 */
export async function localSolana(funding: bigint): Promise<LocalSolanaChain> {
  const port = Number(process.env.CHAINS_LOCAL_SOLANA_PORT ?? 8899);
  const rpc = await startLiteSvmRpc(new LiteSvmLedger({ finalityDepth: 32 }), port);
  const timer = setInterval(() => rpc.ledger.advance(1), SLOT_MS);
  const sender = new LocalSolana(rpc.url, await developmentSender());
  await sender.airdrop(1000);
  const usdc = await sender.createMint(6);
  const usdt = await sender.createMint(6);
  for (const mint of [usdc, usdt]) await sender.mintTo(mint, funding * 1_000_000n);
  return {
    summary: [
      `Solana (litesvm)   ${rpc.url}   a slot every ${SLOT_MS} ms; finalized 32 slots behind`,
      `  USDC ${usdc}   USDT ${usdt}   (6 decimals, SPL Token)`,
      `  sender ${sender.payer.address}: ${funding} USDC and ${funding} USDT (m/44'/501'/0'/0' of "${DEVELOPMENT_MNEMONIC}")`,
      "  deposit owners: the development seed, m/44'/501'/1'/0'/i' of the same mnemonic",
      '  send: npm run chains:local -- solana:send USDC <deposit address or owner> <amount>',
    ],
    variables: [`SOLANA_RPC_URLS=${rpc.url}`, `SOLANA_USDC_MINT=${usdc}`, `SOLANA_USDT_MINT=${usdt}`],
    stop: async () => {
      clearInterval(timer);
      await rpc.close();
    },
  };
}

/**
 * `solana:send <USDC|USDT> <to> <amount>`: a transferChecked of `amount` (decimal text, at most 6
 * places) from the development sender. `to` is a deposit address (the owner's associated token
 * account, as GET /v1/deposit-addresses shows it) or an owner, whose associated token account is
 * then created when missing. Prints the signature and its slot.
 */
export async function solanaSend(args: string[]): Promise<void> {
  const [currency, to, amount] = args;
  const mint = { USDC: process.env.SOLANA_USDC_MINT, USDT: process.env.SOLANA_USDT_MINT }[currency as 'USDC' | 'USDT'];
  const url = process.env.SOLANA_RPC_URLS?.split(',')[0]?.trim();
  if (!mint || !url || !to || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(to) || !amount || !/^\d+(\.\d{1,6})?$/.test(amount)) {
    throw new Error('usage: solana:send <USDC|USDT> <address> <amount>, with SOLANA_RPC_URLS and SOLANA_USDC_MINT/SOLANA_USDT_MINT set as chains:local printed them');
  }
  const [whole, fraction = ''] = amount.split('.');
  const units = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  const sender = new LocalSolana(url, await developmentSender());
  const { value: account } = await sender.rpc.getAccountInfo(address(to), { encoding: 'base64' }).send();
  const signature = account?.owner === TOKEN_PROGRAM_ADDRESS
    ? await sender.transferToAccount(mint, to, units)
    : await sender.transfer([{ mint, to, units }]);
  const statuses = await sender.rpc.getSignatureStatuses([signature as never]).send();
  process.stdout.write(`sent ${amount} ${currency} to ${to}: ${signature} (slot ${String(statuses.value[0]?.slot ?? '?')})\n`);
}
