import type { Logger } from 'pino';
import type { CallbackAnswer, CallbackEndpoint } from '../adapters/http/provider-callback.routes';
import type { LiveKyc } from '../adapters/providers/catalog-routing';
import { parseSmileIdCallback } from '../adapters/providers/smile-id/smile-id-callbacks';
import { SmileIdClient } from '../adapters/providers/smile-id/smile-id-client';
import type { SmileIdConfig } from '../adapters/providers/smile-id/smile-id-config';
import { SMILE_ID_COUNTRIES } from '../adapters/providers/smile-id/smile-id-id-types';
import { SMILE_ID, SmileIdKycProvider } from '../adapters/providers/smile-id/smile-id-kyc-provider';
import { SmileIdJobs } from '../adapters/providers/smile-id/smile-id-jobs';
import type { CustomerStore } from '../core/customers/customer';
import type { KycCheckStore } from '../core/customers/kyc-check';
import type { ProviderEventLog } from '../core/payments/provider-event';
import type { Clock, IdGenerator } from '../core/shared/clock';

/** Smile ID as the live KYC provider, its callback endpoint, and a way to close its connections. */
export interface SmileIdKyc {
  readonly live: LiveKyc;
  readonly callback: CallbackEndpoint;
  close(): Promise<void>;
}

/** What the callback needs: the customers (to make one due now), the provider-events table, ids, clock, logger. */
export interface SmileIdKycDeps {
  readonly customers: CustomerStore;
  readonly checks: KycCheckStore;
  readonly events: ProviderEventLog;
  /** A keyed hash of a message's content (the personal-data box's, purpose `provider-callback`): the duplicate key. */
  readonly contentHash: (content: string) => string;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** Wakes the KYC worker once a callback made a customer due. */
  readonly wakeKyc: () => void;
  /** Each callback's verdict (`woke`, `duplicate`, `refused_<reason>`), e.g. for a metric. */
  readonly onVerdict?: (verdict: string) => void;
}

/** Smile ID posts results that carry the ID authority's photo: up to 1.5 MB (its identity-lookup page). */
const SMILE_ID_CALLBACK_LIMIT = '2mb';

/**
 * Builds Smile ID as live tenants' KYC provider (docs/providers.md § Smile ID) and its callback,
 * `POST /callbacks/smile-id/{secret}`. A callback on the secret path signed with our API key is
 * stored raw (sealed) in `provider_events` once (same body, or same job, is a duplicate), answered
 * 200, and only makes its customer due now: the KYC worker asks Smile ID the job's status, and that
 * answer decides (a callback's signature does not cover its body). A refused one is logged
 * (reason and source address, never the body) and answered with its status.
 */
export function buildSmileIdKyc(config: SmileIdConfig, deps: SmileIdKycDeps): SmileIdKyc {
  const client = new SmileIdClient(config);
  const jobs = new SmileIdJobs(config, client, () => deps.clock.now());
  const provider = new SmileIdKycProvider(config, jobs, deps.checks, () => deps.clock.now());
  const text = (status: number, body: string): CallbackAnswer => ({ status, contentType: 'text/plain', body });
  const callback: CallbackEndpoint = {
    method: 'post', path: '/callbacks/smile-id/:secret', bodyLimit: SMILE_ID_CALLBACK_LIMIT,
    handle: async (input) => {
      const parsed = parseSmileIdCallback({ pathSecret: input.params.secret, rawBody: input.rawBody }, config);
      if (!parsed.ok) {
        deps.logger.warn({ provider: SMILE_ID, reason: parsed.reason, remoteAddress: input.remoteAddress }, 'provider callback refused');
        deps.onVerdict?.(`refused_${parsed.reason}`);
        return text(parsed.status, parsed.message);
      }
      const id = deps.ids.uuid();
      const recorded = await deps.events.record({
        id, provider: SMILE_ID, paymentId: null, providerEventId: `${parsed.customerId}:${parsed.jobRef}`.slice(0, 200), outcome: null,
        verdict: 'received', rawBody: input.rawBody.toString('utf8'),
        contentHash: deps.contentHash(`${SMILE_ID}\0\0${input.rawBody.toString('base64')}`), receivedAt: deps.clock.now(),
      });
      if (!recorded.stored && recorded.verdict !== 'received') {
        deps.onVerdict?.('duplicate');
        deps.logger.info({ provider: SMILE_ID, customerId: parsed.customerId, storedAs: recorded.existingId }, 'provider callback already stored');
        return text(200, 'OK');
      }
      // Due now, only while still pending; the worker's job status query decides.
      await deps.customers.reschedule(parsed.customerId, deps.clock.now());
      await deps.events.setVerdict(recorded.stored ? id : recorded.existingId, 'woke');
      deps.onVerdict?.('woke');
      deps.logger.info({ provider: SMILE_ID, customerId: parsed.customerId, jobRef: parsed.jobRef }, 'provider callback: KYC check due now');
      deps.wakeKyc();
      return text(200, 'OK');
    },
  };
  return { live: { provider, countries: SMILE_ID_COUNTRIES }, callback, close: () => client.close() };
}
