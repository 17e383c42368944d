import type { Logger } from 'pino';
import type { CallbackAnswer, CallbackEndpoint } from '../adapters/http/provider-callback.routes';
import { parseMpesaCallback } from '../adapters/providers/mpesa/mpesa-callbacks';
import { parseMtnMomoCallback } from '../adapters/providers/mtn-momo/mtn-momo-callbacks';
import { parsePawapayCallback } from '../adapters/providers/pawapay/pawapay-callbacks';
import { parsePaystackCallback } from '../adapters/providers/paystack/paystack-callbacks';
import { parseFlutterwaveCallback } from '../adapters/providers/flutterwave/flutterwave-callbacks';
import { applyProviderReport, type AdvanceDeps } from '../core/payments/advance-payment';
import type { ProviderEventLog } from '../core/payments/provider-event';
import type { ProviderReport } from '../core/payments/provider-report';
import type { PayoutProviderConfigs } from './config';

/** What the callback endpoints need: the payout use case's ports, the provider-events table, a logger. */
export interface CallbackDeps {
  readonly advance: AdvanceDeps;
  readonly events: ProviderEventLog;
  /** A keyed hash of a message's content (the personal-data box's, purpose `provider-callback`): the duplicate key. */
  readonly contentHash: (content: string) => string;
  readonly logger: Logger;
  /** Called with each callback's provider and verdict (what applying it did, or why it was refused), e.g. for a metric. */
  readonly onVerdict?: (provider: string, verdict: string) => void;
}

/** The callback endpoints and a way to wait for the reports they are still applying (at shutdown). */
export interface ProviderCallbacks {
  readonly endpoints: readonly CallbackEndpoint[];
  drain(): Promise<void>;
}

/**
 * The callback routes of the configured providers (docs/decisions.md § Payout providers: callbacks;
 * docs/providers.md lists the URLs):
 * - `POST /callbacks/mpesa/{secret}/{kind}/{paymentId}`: Daraja ResultURL and QueueTimeOutURL;
 *   path secret and MPESA_CALLBACK_ALLOWED_IPS;
 * - `PUT|POST /callbacks/mtn-momo/{secret}`: MTN's `X-Callback-Url`; path secret and
 *   MTN_MOMO_CALLBACK_ALLOWED_IPS. MTN does not sign, so its word only triggers an immediate status
 *   query (`GET` on the transfer), which decides;
 * - `POST /callbacks/paystack`: transfer webhooks, `x-paystack-signature` and PAYSTACK_WEBHOOK_ALLOWED_IPS;
 * - `POST /callbacks/flutterwave`: `transfer.completed` webhooks, `verif-hash` and
 *   FLUTTERWAVE_WEBHOOK_ALLOWED_IPS. The hash is a static shared secret, not a signature of the
 *   body, so its word only triggers an immediate status query, which decides;
 * - `POST /callbacks/pawapay/{secret}`: payout callbacks (the URL set in the pawaPay Dashboard); path
 *   secret and PAWAPAY_CALLBACK_ALLOWED_IPS; like MTN's, its word only triggers a status query, which decides.
 * A verified callback is stored raw (sealed) in `provider_events`, answered, and then applied
 * through the payout use case, where a late one changes nothing. A message already stored (same
 * content, or same provider event id and outcome) is answered alike and not stored again; it is
 * applied again only while the stored one has no verdict yet (`received`: its process may have
 * died before applying it), which changes nothing a second time. A refused one is logged (provider,
 * reason, source address; never the body) and answered with the adapter's status.
 */
export function providerCallbacks(configs: PayoutProviderConfigs, deps: CallbackDeps): ProviderCallbacks {
  const inFlight = new Set<Promise<void>>();
  const json = (status: number, body: unknown): CallbackAnswer => ({ status, contentType: 'application/json', body: JSON.stringify(body) });
  const text = (status: number, body: string): CallbackAnswer => ({ status, contentType: 'text/plain', body });

  /**
   * Stores a verified callback, then applies `applied` (its report unless given) once the provider
   * has its answer. `where` is the part of the path that says what the message is about (M-Pesa's
   * kind and payment id), hashed with the exact body bytes.
   */
  async function accept(
    provider: string, where: string, rawBody: Buffer, report: ProviderReport | null, answer: CallbackAnswer, applied: ProviderReport | null = report,
  ): Promise<CallbackAnswer> {
    const newId = deps.advance.ids.uuid();
    const recorded = await deps.events.record({
      id: newId, provider, paymentId: report?.paymentId ?? null, providerEventId: report?.providerEventId?.slice(0, 200) ?? null,
      outcome: report?.outcome.kind ?? null, verdict: report ? 'received' : 'not_ours', rawBody: rawBody.toString('utf8'),
      contentHash: deps.contentHash(`${provider}\0${where}\0${rawBody.toString('base64')}`),
      receivedAt: deps.advance.clock.now(),
    });
    if (!recorded.stored) {
      deps.onVerdict?.(provider, 'duplicate');
      deps.logger.info({ provider, paymentId: report?.paymentId, providerEventId: report?.providerEventId, storedAs: recorded.existingId }, 'provider callback already stored');
      if (recorded.verdict !== 'received') return answer;
    } else if (!report) deps.onVerdict?.(provider, 'not_ours');
    const id = recorded.stored ? newId : recorded.existingId;
    if (report && applied) {
      const applying = (async () => {
        const verdict = await applyProviderReport(deps.advance, applied);
        await deps.events.setVerdict(id, verdict);
        deps.onVerdict?.(provider, verdict);
        deps.logger.info({ provider, paymentId: report.paymentId, outcome: report.outcome.kind, providerEventId: report.providerEventId, verdict }, 'provider callback');
      })().catch((error: unknown) => {
        // The payment's status queries settle it anyway.
        deps.logger.error({ err: error, provider, paymentId: report.paymentId }, 'provider callback not applied; status queries will settle it');
      }).finally(() => inFlight.delete(applying));
      inFlight.add(applying);
    }
    return answer;
  }
  const refused = (provider: string, reason: string, remoteAddress: string, answer: CallbackAnswer): CallbackAnswer => {
    deps.logger.warn({ provider, reason, remoteAddress }, 'provider callback refused');
    deps.onVerdict?.(provider, `refused_${reason}`);
    return answer;
  };

  const endpoints: CallbackEndpoint[] = [];
  const mpesa = configs.mpesa;
  if (mpesa) {
    endpoints.push({
      method: 'post', path: '/callbacks/mpesa/:secret/:kind/:paymentId',
      handle: async (input) => {
        const parsed = parseMpesaCallback({
          headers: input.headers, rawBody: input.rawBody, remoteAddress: input.remoteAddress,
          pathSecret: input.params.secret, kind: input.params.kind ?? '', paymentId: input.params.paymentId ?? '',
        }, mpesa);
        if (!parsed.ok) return refused('mpesa', parsed.refusal, input.remoteAddress, json(parsed.ack.status, parsed.ack.body));
        return accept('mpesa', `${input.params.kind}/${input.params.paymentId}`, input.rawBody, parsed.report, json(parsed.ack.status, parsed.ack.body));
      },
    });
  }
  const mtn = configs.mtnMomo;
  if (mtn) {
    for (const method of ['put', 'post'] as const) {
      endpoints.push({
        method, path: '/callbacks/mtn-momo/:secret',
        handle: async (input) => {
          const parsed = parseMtnMomoCallback({ headers: input.headers, rawBody: input.rawBody, remoteAddress: input.remoteAddress, pathSecret: input.params.secret }, mtn);
          if (!parsed.ok) return refused('mtn_momo', parsed.refusal, input.remoteAddress, text(parsed.ack.status, parsed.ack.body));
          // Unsigned: confirmed by a status query before anything moves.
          const confirm: ProviderReport = { ...parsed.report, outcome: { kind: 'pending', afterMs: 0 } };
          return accept('mtn_momo', '', input.rawBody, parsed.report, text(parsed.ack.status, parsed.ack.body), confirm);
        },
      });
    }
  }
  const paystack = configs.paystack;
  if (paystack) {
    endpoints.push({
      method: 'post', path: '/callbacks/paystack',
      handle: async (input) => {
        const parsed = parsePaystackCallback(
          { headers: input.headers, rawBody: input.rawBody, remoteAddress: input.remoteAddress },
          { secretKey: paystack.secretKey, allowedIps: paystack.webhookAllowedIps },
        );
        if (!parsed.ok) return refused('paystack', parsed.reason, input.remoteAddress, text(parsed.ack.status, parsed.ack.body));
        return accept('paystack', '', input.rawBody, parsed.report, text(parsed.ack.status, parsed.ack.body));
      },
    });
  }
  const flutterwave = configs.flutterwave;
  if (flutterwave) {
    endpoints.push({
      method: 'post', path: '/callbacks/flutterwave',
      handle: async (input) => {
        const parsed = parseFlutterwaveCallback(
          { headers: input.headers, rawBody: input.rawBody, remoteAddress: input.remoteAddress },
          { secretHash: flutterwave.webhookSecretHash, allowedIps: flutterwave.webhookAllowedIps },
        );
        if (!parsed.ok) return refused('flutterwave', parsed.reason, input.remoteAddress, text(parsed.ack.status, parsed.ack.body));
        // Not a signature of the body: confirmed by a status query before anything moves.
        const confirm: ProviderReport | null = parsed.report ? { ...parsed.report, outcome: { kind: 'pending', afterMs: 0 } } : null;
        return accept('flutterwave', '', input.rawBody, parsed.report, text(parsed.ack.status, parsed.ack.body), confirm);
      },
    });
  }
  const pawapay = configs.pawapay;
  if (pawapay) {
    endpoints.push({
      method: 'post', path: '/callbacks/pawapay/:secret',
      handle: async (input) => {
        const parsed = parsePawapayCallback({ rawBody: input.rawBody, remoteAddress: input.remoteAddress, pathSecret: input.params.secret }, pawapay);
        if (!parsed.ok) return refused('pawapay', parsed.refusal, input.remoteAddress, text(parsed.status, ''));
        // Verified by path and source only: confirmed by a status query before anything moves.
        const confirm: ProviderReport = { ...parsed.report, outcome: { kind: 'pending', afterMs: 0 } };
        return accept('pawapay', '', input.rawBody, parsed.report, text(parsed.status, ''), confirm);
      },
    });
  }
  return {
    endpoints,
    async drain() {
      await Promise.all([...inFlight]);
    },
  };
}
