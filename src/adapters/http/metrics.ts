import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Payment } from '../../core/payments/payment';
import { isFinal } from '../../core/payments/payment-state';

/** What the `build_info` series says of the running build: the package version and, when known, the commit. */
export interface BuildInfo {
  /** package.json's `version`. */
  readonly version: string;
  /** BUILD_COMMIT, a git commit hash; undefined when the deployment does not say. */
  readonly commit?: string;
}

/** The fields of a payment its transition metrics read: all of them from bounded sets (statuses, provider names, catalog corridors). */
export type MovedPayment = Pick<Payment, 'status' | 'provider' | 'country' | 'paymentMethod' | 'createdAt' | 'updatedAt'>;

/** The provider label of a payment no provider has had yet (every payment when created). */
export const NO_PROVIDER = 'none';

/** Sources of the work-queue gauges, read on each scrape. */
export interface QueueDepths {
  /** Payments not yet final, webhook deliveries pending, customers awaiting a KYC decision. */
  depths(): Promise<{ payments: number; deliveries: number; kyc: number }>;
}

/** Source of the pending onchain refund gauges, read on each scrape (docs/decisions.md § Ledger). */
export interface PendingRefunds {
  /** Per stablecoin: how many refunds are pending and their total, a decimal string. */
  pendingTotals(): Promise<{ currency: string; count: number; amount: string }[]>;
}

/**
 * Prometheus metrics (docs/decisions.md § Analytics, admin and health; README "Metrics and health"):
 * HTTP requests and latency per route template and status, payment transitions by provider and
 * corridor, time to a final status, payout provider call latency, webhook delivery attempts by
 * outcome, KYC decisions, work-queue depth (counted in SQL on each scrape), the build, process
 * defaults. Every label takes values from a bounded set. Counters are per process: sum them over replicas.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requestCount = new Counter({
    name: 'http_requests_total', help: 'HTTP requests by route template, method and status',
    labelNames: ['route', 'method', 'status'], registers: [this.registry],
  });
  private readonly requests = new Histogram({
    name: 'http_request_duration_seconds', help: 'HTTP request latency by route template, method and status',
    labelNames: ['route', 'method', 'status'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [this.registry],
  });
  private readonly transitions = new Counter({
    name: 'payment_transitions_total',
    help: 'Payment state changes by resulting status, provider (none before one has the payment) and corridor (country, payment_method)',
    labelNames: ['status', 'provider', 'country', 'payment_method'], registers: [this.registry],
  });
  private readonly timeToFinal = new Histogram({
    name: 'payment_time_to_final_seconds', help: 'Seconds from a payment\'s creation (initiated) to its final status, by final status and provider',
    labelNames: ['status', 'provider'], buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21_600, 86_400], registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'webhook_delivery_attempts_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'], registers: [this.registry],
  });
  private readonly kycDecisions = new Counter({
    name: 'customer_kyc_decisions_total', help: 'KYC decisions by resulting status', labelNames: ['status'], registers: [this.registry],
  });

  private readonly reconciliationChecks = new Counter({
    name: 'reconciliation_checks_total', help: 'Status queries of payments stuck in provider_accepted, by provider and answer',
    labelNames: ['provider', 'outcome'], registers: [this.registry],
  });
  private readonly reconciliationMismatches = new Counter({
    name: 'reconciliation_mismatches_total', help: 'Mismatches between our payments and a provider, by provider and kind (reported, never corrected)',
    labelNames: ['provider', 'kind'], registers: [this.registry],
  });

  // Payout providers (docs/decisions.md § Payout providers: routing and failover, § Payout providers: callbacks).
  private readonly payoutSubmissions = new Counter({
    name: 'payout_submissions_total', help: 'Submit calls to payout providers by provider and outcome (accepted, rejected, retry, unknown)',
    labelNames: ['provider', 'outcome'], registers: [this.registry],
  });
  private readonly providerCallbacks = new Counter({
    name: 'provider_callbacks_total', help: 'Provider callbacks by provider and verdict (applied, final, other_provider, unknown_payment, not_ours, duplicate, refused reasons)',
    labelNames: ['provider', 'verdict'], registers: [this.registry],
  });
  private readonly providerCalls = new Histogram({
    name: 'payout_provider_call_duration_seconds',
    help: 'Calls to payout providers by provider, operation (submit, status) and outcome (the answer\'s kind, or error when it threw)',
    labelNames: ['provider', 'operation', 'outcome'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60], registers: [this.registry],
  });
  private readonly routingDecisions = new Counter({
    name: 'payout_routing_decisions_total',
    help: 'Payout routing decisions by first-choice provider, corridor (country/method/code), strategy (ordered, success_rate) and reason (ordered, ranked, hedged, sole)',
    labelNames: ['provider', 'corridor', 'strategy', 'reason'], registers: [this.registry],
  });
  private readonly providerCircuits = new Gauge({
    name: 'payout_provider_circuit_open', help: '1 while a payout provider\'s circuit breaker is open in this process',
    labelNames: ['provider'], registers: [this.registry],
  });

  constructor(queues: QueueDepths, refunds?: PendingRefunds, build?: BuildInfo) {
    collectDefaultMetrics({ register: this.registry });
    if (build) {
      new Gauge({
        name: 'build_info', help: 'Always 1: the running build, by package version, Node.js version and commit (unknown when BUILD_COMMIT is unset)',
        labelNames: ['version', 'node', 'commit'], registers: [this.registry],
      }).set({ version: build.version, node: process.version, commit: build.commit ?? 'unknown' }, 1);
    }
    if (refunds) {
      new Gauge({
        name: 'onchain_refunds_pending', help: "Live payments' refunds waiting for an operator to send them onchain, by stablecoin",
        labelNames: ['currency'], registers: [this.registry],
        async collect() {
          this.reset();
          for (const t of await refunds.pendingTotals()) this.set({ currency: t.currency }, t.count);
        },
      });
      new Gauge({
        name: 'onchain_refunds_pending_amount', help: 'Total of the pending onchain refunds, in stablecoin units (a float: for alerting only, never for accounting)',
        labelNames: ['currency'], registers: [this.registry],
        async collect() {
          this.reset();
          for (const t of await refunds.pendingTotals()) this.set({ currency: t.currency }, Number(t.amount));
        },
      });
    }
    new Gauge({
      name: 'work_queue_depth', help: 'Items waiting in a work queue', labelNames: ['queue'], registers: [this.registry],
      async collect() {
        const d = await queues.depths();
        this.set({ queue: 'payments' }, d.payments);
        this.set({ queue: 'webhook_deliveries' }, d.deliveries);
        this.set({ queue: 'kyc' }, d.kyc);
      },
    });
  }

  /** Times a request; `route` is the route template (never the raw path, which would explode cardinality). */
  observe(route: string): RequestHandler {
    return (req, res, next) => {
      const end = this.requests.startTimer({ route, method: req.method });
      res.on('finish', () => {
        end({ status: String(res.statusCode) });
        this.requestCount.inc({ route, method: req.method, status: String(res.statusCode) });
      });
      next();
    };
  }

  /** Counts a payment created (`initiated`, no provider yet) in its corridor. */
  paymentCreated(corridor: Pick<Payment, 'country' | 'paymentMethod'>): void {
    this.transitions.inc({ status: 'initiated', provider: NO_PROVIDER, country: corridor.country, payment_method: corridor.paymentMethod });
  }

  /**
   * Counts a committed move to `payment.status`, and when that status is final observes the time
   * since creation (`updatedAt` is the move's time), by final status and provider.
   */
  paymentMoved(payment: MovedPayment): void {
    const provider = payment.provider ?? NO_PROVIDER;
    this.transitions.inc({ status: payment.status, provider, country: payment.country, payment_method: payment.paymentMethod });
    if (isFinal(payment.status)) {
      this.timeToFinal.observe({ status: payment.status, provider }, Math.max(0, payment.updatedAt.getTime() - payment.createdAt.getTime()) / 1000);
    }
  }

  /** Records one call to a payout provider: `operation` (submit, status), its outcome and how long it took, in seconds. */
  providerCalled(provider: string, operation: string, outcome: string, seconds: number): void {
    this.providerCalls.observe({ provider, operation, outcome }, seconds);
  }

  /** Counts one webhook delivery attempt: delivered, retry, failed, gone (410) or skipped. */
  deliveryAttempted(outcome: string): void {
    this.deliveries.inc({ outcome });
  }

  /** Counts one status query of a stuck payment: the provider's answer, `no_provider` or `error` (docs/decisions.md § Reconciliation). */
  reconciliationChecked(provider: string, outcome: string): void {
    this.reconciliationChecks.inc({ provider, outcome });
  }

  /** Counts one mismatch found by the reconciliation worker or a reconciliation report. */
  reconciliationMismatch(provider: string, kind: string): void {
    this.reconciliationMismatches.inc({ provider, kind });
  }

  /** Counts one committed KYC decision (approved or rejected). */
  kycDecided(status: string): void {
    this.kycDecisions.inc({ status });
  }

  /** Counts one submit call to a payout provider and its outcome. */
  payoutSubmitted(provider: string, outcome: string): void {
    this.payoutSubmissions.inc({ provider, outcome });
  }

  /**
   * Counts one routing decision (docs/decisions.md § Payout providers: routing on measured success):
   * `provider` is the first choice (`none` when no candidate was healthy), `corridor` `KE/MOMO/MPESA`.
   */
  routingDecided(provider: string, corridor: string, strategy: string, reason: string): void {
    this.routingDecisions.inc({ provider, corridor, strategy, reason });
  }

  /** Counts one provider callback by what became of it. */
  providerCallback(provider: string, verdict: string): void {
    this.providerCallbacks.inc({ provider, verdict });
  }

  /** Records a payout provider's circuit opening or closing. */
  providerCircuit(provider: string, open: boolean): void {
    this.providerCircuits.set({ provider }, open ? 1 : 0);
  }
}
