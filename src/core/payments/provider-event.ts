/**
 * A provider callback as received, kept for audit (docs/decisions.md § Payout providers: callbacks).
 * `rawBody` is the request body exactly as it came (stored sealed: it may carry names and numbers);
 * `paymentId`, `providerEventId` and `outcome` (`succeeded`, `failed`, `refunded`, `pending`) are
 * what the verified callback said; `verdict` what the service did with it (`received` until applied).
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
  /**
   * A keyed hash of what the provider sent (the raw body, and the path that names the payment where
   * the provider puts it there): equal for a message sent again, nothing else readable from it.
   */
  readonly contentHash: string;
  readonly receivedAt: Date;
}

/**
 * What `record` did: stored the event, or stored nothing because the same message is already there
 * (same `contentHash`, or same `providerEventId` and `outcome` of the provider), naming that one and
 * its verdict (`received` while it has not been applied).
 */
export type RecordedEvent =
  | { readonly stored: true }
  | { readonly stored: false; readonly existingId: string; readonly verdict: string };

/**
 * Port: the provider-events table. `record` inserts one row unless the message is already stored
 * (decided by the store's unique keys, so two deliveries at once store one row); `setVerdict` notes
 * what applying it did.
 */
export interface ProviderEventLog {
  record(event: ProviderEvent): Promise<RecordedEvent>;
  setVerdict(id: string, verdict: string): Promise<void>;
}
