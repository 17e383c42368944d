/**
 * The live-rate variant of the lifecycle benchmark's one-tenant service (BENCH_LIVE_RATES=1,
 * bench/lifecycle.bench.ts): the Coinbase, Luno and VALR rate simulators serve USDC/KES and USDT/KES
 * (the benchmark's M-Pesa money-out), the service reads them (RATES_SOURCES, refreshed every
 * RATES_REFRESH_INTERVAL_MS as in production), and its one tenant is live, so every money-out is
 * priced from the in-memory rate book (docs/decisions.md § FX quotes: live rates) and stores that
 * basis (§ FX quotes: pricing records). A live tenant needs a live provider: `mpesa` here is the
 * sandbox provider under that name, answering at once like the sandbox the static target uses, so
 * pricing and routing are the only differences. Not run on its own.
 */
import { SandboxPayoutProvider } from '../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../src/adapters/providers/system';
import type { ContainerOverrides } from '../src/app/container';
import type { Payment } from '../src/core/payments/payment';
import type { PayoutProvider } from '../src/core/payments/payout-provider';
import { startCoinbaseSimulator } from '../simulators/coinbase/coinbase-simulator';
import { startLunoSimulator } from '../simulators/luno/luno-simulator';
import type { RateSimulator } from '../simulators/rate-sim/rate-sim';
import { startValrSimulator } from '../simulators/valr/valr-simulator';

/** The sandbox provider under another provider's name, so a live corridor routes to it. */
class RenamedProvider implements PayoutProvider {
  constructor(readonly name: string, private readonly inner: PayoutProvider) {}
  submit(payment: Payment) {
    return this.inner.submit(payment);
  }
  status(payment: Payment) {
    return this.inner.status(payment);
  }
}

/** Three rate simulators up, and the service settings and overrides that price one live tenant from them. */
export interface LiveRates {
  readonly env: Record<string, string>;
  readonly overrides: ContainerOverrides;
  close(): Promise<void>;
}

/** Starts the three simulators (KES around the catalog's 129.25, within the default band) and answers the settings that use them. */
export async function startLiveRates(): Promise<LiveRates> {
  const sims: RateSimulator[] = [
    await startCoinbaseSimulator({ rates: { 'USDC:KES': '129.25', 'USDT:KES': '129.20' } }),
    await startLunoSimulator({ rates: { USDCKES: '129.40', USDTKES: '129.35' } }),
    await startValrSimulator({ rates: { USDCKES: '129.10', USDTKES: '129.05' } }),
  ];
  const [coinbase, luno, valr] = sims as [RateSimulator, RateSimulator, RateSimulator];
  return {
    env: {
      RATES_SOURCES: 'coinbase,luno,valr',
      RATES_COINBASE_BASE_URL: coinbase.url, RATES_LUNO_BASE_URL: luno.url, RATES_VALR_BASE_URL: valr.url,
      RATES_LUNO_MARKETS: 'USDCKES,USDTKES', RATES_VALR_MARKETS: 'USDCKES,USDTKES',
    },
    overrides: { livePayoutProviders: [new RenamedProvider('mpesa', new SandboxPayoutProvider(systemClock, { acceptDelayMs: 0, resultDelayMs: 0 }))] },
    async close() {
      await Promise.all(sims.map((sim) => sim.close()));
    },
  };
}
