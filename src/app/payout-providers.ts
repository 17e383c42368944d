import type { Logger } from 'pino';
import { MpesaPayoutProvider } from '../adapters/providers/mpesa/mpesa-payout-provider';
import { MtnMomoClient } from '../adapters/providers/mtn-momo/mtn-momo-client';
import { MtnMomoPayoutProvider } from '../adapters/providers/mtn-momo/mtn-momo-payout-provider';
import { PawapayClient } from '../adapters/providers/pawapay/pawapay-client';
import { PawapayPayoutProvider } from '../adapters/providers/pawapay/pawapay-payout-provider';
import { PaystackClient } from '../adapters/providers/paystack/paystack-client';
import { PaystackPayoutProvider } from '../adapters/providers/paystack/paystack-payout-provider';
import { FlutterwaveClient } from '../adapters/providers/flutterwave/flutterwave-client';
import { FlutterwavePayoutProvider } from '../adapters/providers/flutterwave/flutterwave-payout-provider';
import type { PayoutProvider } from '../core/payments/payout-provider';
import type { Clock } from '../core/shared/clock';
import { BreakerPayoutProvider, type BreakerSettings } from '../adapters/providers/provider-breaker';
import { MeteredPayoutProvider, type ProviderCallObserver } from '../adapters/providers/metered-payout-provider';
import type { Config, PayoutProviderConfigs } from './config';
import { PaystackAccountDirectory } from '../adapters/providers/paystack/paystack-account-directory';
import type { LiveAccountDirectory } from '../core/resolution/resolution-ports';
import { err } from '../core/shared/result';

/** The real payout providers the configuration turns on, with what else their adapters offer. */
export interface LivePayoutProviders {
  /** Every configured provider, by `PayoutProvider.name`. */
  readonly providers: readonly PayoutProvider[];
  readonly mpesa?: MpesaPayoutProvider;
  readonly mtnMomo?: MtnMomoPayoutProvider;
  readonly paystack?: { readonly provider: PaystackPayoutProvider; readonly client: PaystackClient };
  readonly flutterwave?: FlutterwavePayoutProvider;
  readonly pawapay?: PawapayPayoutProvider;
  /** Closes their HTTP connection pools. */
  close(): Promise<void>;
  /** Aborts their calls in flight (outcome unknown) and sends no later one (docs/decisions.md § Running it). */
  abort(): Promise<void>;
}

/**
 * Builds the real payout providers from their configurations (docs/providers.md). Logs which
 * are on and where they point, never a credential.
 */
export function buildLivePayoutProviders(configs: PayoutProviderConfigs, clock: Clock, logger: Logger): LivePayoutProviders {
  const mpesa = configs.mpesa ? MpesaPayoutProvider.create(configs.mpesa) : undefined;
  const mtnClient = configs.mtnMomo ? new MtnMomoClient(configs.mtnMomo, clock) : undefined;
  const mtnMomo = configs.mtnMomo && mtnClient ? new MtnMomoPayoutProvider(configs.mtnMomo, mtnClient) : undefined;
  const paystackClient = configs.paystack ? new PaystackClient(configs.paystack) : undefined;
  const paystack = paystackClient && configs.paystack
    ? { provider: new PaystackPayoutProvider(paystackClient, { resultWaitMs: configs.paystack.resultWaitMs }), client: paystackClient }
    : undefined;
  const flutterwaveClient = configs.flutterwave ? new FlutterwaveClient(configs.flutterwave) : undefined;
  const flutterwave = flutterwaveClient && configs.flutterwave
    ? new FlutterwavePayoutProvider(flutterwaveClient, configs.flutterwave.sender, { resultWaitMs: configs.flutterwave.resultWaitMs })
    : undefined;
  const pawapayClient = configs.pawapay ? new PawapayClient(configs.pawapay) : undefined;
  const pawapay = configs.pawapay && pawapayClient ? new PawapayPayoutProvider(configs.pawapay, pawapayClient) : undefined;
  const providers = [mpesa, mtnMomo, paystack?.provider, flutterwave, pawapay].filter((p): p is NonNullable<typeof p> => p !== undefined);
  if (providers.length > 0) {
    logger.info({
      providers: {
        ...(configs.mpesa ? { mpesa: configs.mpesa.baseUrl } : {}),
        ...(configs.mtnMomo ? { mtn_momo: `${configs.mtnMomo.baseUrl} (${configs.mtnMomo.targetEnvironment})` } : {}),
        ...(configs.paystack ? { paystack: `${configs.paystack.baseUrl} (${configs.paystack.mode})` } : {}),
        ...(configs.flutterwave ? { flutterwave: `${configs.flutterwave.baseUrl} (${configs.flutterwave.mode})` } : {}),
        ...(configs.pawapay ? { pawapay: `${configs.pawapay.baseUrl} (${configs.pawapay.environment})` } : {}),
      },
    }, 'live payout providers configured');
  }
  return {
    providers, mpesa, mtnMomo, paystack, flutterwave, pawapay,
    async close() {
      await Promise.all([mpesa?.close(), mtnClient?.close(), paystackClient?.close(), flutterwaveClient?.close(), pawapayClient?.close()]);
    },
    async abort() {
      await Promise.all([mpesa?.abort(), mtnClient?.abort(), paystackClient?.close(), flutterwaveClient?.close(), pawapayClient?.abort()]);
    },
  };
}

/**
 * Each live provider behind its own circuit breaker (docs/decisions.md § Payout providers: routing
 * and failover), with `isHealthy` for routing. Opening and closing are logged at warn and info.
 * With `observeCall`, each call that passes the breaker to the provider is timed and reported
 * (README "Metrics and health"); calls the open circuit answers itself are not provider calls.
 */
export function guardLivePayoutProviders(
  providers: readonly PayoutProvider[],
  config: Pick<Config, 'PROVIDER_BREAKER_FAILURES' | 'PROVIDER_BREAKER_HALF_OPEN_MS' | 'PROVIDER_CALL_TIMEOUT_MS'>,
  logger: Logger,
  onCircuit: (provider: string, open: boolean) => void = () => undefined,
  observeCall?: ProviderCallObserver,
): { readonly providers: readonly BreakerPayoutProvider[]; isHealthy(name: string): boolean } {
  const settings: BreakerSettings = {
    consecutiveFailures: config.PROVIDER_BREAKER_FAILURES,
    halfOpenAfterMs: config.PROVIDER_BREAKER_HALF_OPEN_MS,
    callTimeoutMs: config.PROVIDER_CALL_TIMEOUT_MS,
  };
  const guarded = providers.map((provider) => new BreakerPayoutProvider(observeCall ? new MeteredPayoutProvider(provider, observeCall) : provider, settings, {
    onOpen: (name) => {
      logger.warn({ provider: name, halfOpenAfterMs: settings.halfOpenAfterMs }, 'payout provider circuit opened; routing skips it');
      onCircuit(name, true);
    },
    onClose: (name) => {
      logger.info({ provider: name }, 'payout provider circuit closed');
      onCircuit(name, false);
    },
  }));
  const byName = new Map(guarded.map((provider) => [provider.name, provider]));
  return { providers: guarded, isHealthy: (name) => byName.get(name)?.healthy ?? false };
}

/**
 * The live tenants' account directory (docs/decisions.md § Payout providers: routing and failover):
 * Paystack's bank list, and its account-name resolution for the banks that list covers; a bank it
 * does not list is `upstream_unavailable`, never a sandbox answer. Undefined without Paystack.
 */
export function liveAccountDirectory(live: LivePayoutProviders): LiveAccountDirectory | undefined {
  if (!live.paystack) return undefined;
  const paystack = new PaystackAccountDirectory(live.paystack.client);
  return {
    banks: (country) => paystack.banks(country),
    merchant: (type, accountNumber) => paystack.merchant(type, accountNumber),
    mobileWallet: (country, phoneNumber) => paystack.mobileWallet(country, phoneNumber),
    async bankAccount(query) {
      const country = query.currency === 'NGN' ? 'NG' : 'KE';
      if (!(await paystack.coversBank(country, query.bankCode))) {
        return err('upstream_unavailable', `No live directory covers bank ${query.bankCode} in ${country}`);
      }
      return paystack.bankAccount(query);
    },
  };
}
