/**
 * A provider callback as received, kept for audit (docs/decisions.md § Payout providers: callbacks).
 * `rawBody` is the request body exactly as it came (stored sealed: it may carry names and numbers);
 * `paymentId`, `providerEventId` and `outcome` (`succeeded`, `failed`, `refunded`, `pending`) are
 * what the verified callback said; `verdict` what the service did with it.
 */
export interface ProviderEvent {
  readonly id: string;
  /** `PayoutProvider.name`. */
  readonly provider: string;
  readonly paymentId: string | null;
  readonly providerEventId: string | null;
  readonly outcome: string | null;
  readonly verdict: string;
  readonly rawBody: string;
  readonly receivedAt: Date;
}

/** Port: the provider-events table. `record` inserts one row; `setVerdict` notes what applying it did. */
export interface ProviderEventLog {
  record(event: ProviderEvent): Promise<void>;
  setVerdict(id: string, verdict: string): Promise<void>;
}
