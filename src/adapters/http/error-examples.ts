import type { ShapeACode, ShapeBCode, ShapeCCode } from '../contract/error-codes';

/** A request id as the examples show it: a UUID, what the service makes when the caller sends no X-Request-Id. */
export const EXAMPLE_REQUEST_ID = '6f1c2d7e-8a4b-4c1e-9b0f-3d2a5e7c9b11';

/** A refused field, as a validation_error example lists it. */
export const EXAMPLE_FIELD = { path: 'body.accountNumber', message: 'Too small: expected string to have >=1 characters' } as const;

/**
 * A message each error code is answered with, for the OpenAPI examples (the wording the service
 * uses; the values in it are made up). Exhaustive, so a new code needs its example.
 */
export const EXAMPLE_MESSAGES: Readonly<Record<ShapeACode | ShapeBCode | ShapeCCode, string>> = {
  validation_error: `Invalid request: ${EXAMPLE_FIELD.path}: ${EXAMPLE_FIELD.message}`,
  unauthorized: 'Missing or invalid API key',
  forbidden: 'This key may not call this operation',
  csrf_failed: 'Missing or wrong X-CSRF-Token header: send the csrfToken your sign-in (or GET /v1/operator/session) returned',
  not_found: 'Payment pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ not found',
  request_timeout: 'The request did not arrive in time',
  payload_too_large: 'Request body is too large',
  uri_too_long: 'The request URL is too long',
  unsupported_media_type: 'Unsupported body encoding or charset',
  duplicate_reference: 'A payment with reference order-10045 already exists',
  idempotency_key_in_use: 'A request with this Idempotency-Key header is still being processed',
  duplicate_deposit: 'Deposit 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 on BSC was already credited',
  duplicate_customer: 'A customer with externalId user-8841 already exists',
  duplicate_operator: 'An operator with e-mail ama@example.com already exists',
  invalid_state: 'Payment pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ is already final',
  tx_hash_is_deposit: 'Transaction 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 on BSC is a recorded deposit, not a refund sent',
  tx_not_final: 'Transaction 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 on BSC is in block 48210771, above the finalized 48210769: record it once it is final',
  tx_does_not_pay_refund: 'Transaction 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 on BSC pays 0.000000 USDT to 0x52908400098527886E0F7030069857D2E4169EE7, less than the 100.000000 owed',
  idempotency_key_reused: 'This Idempotency-Key header was used with a different request',
  quote_expired: 'The quote has expired; request a new one',
  quote_already_used: 'The quote was already used by another money-out; request a new one',
  insufficient_balance: 'Available USDC balance does not cover 12.115764',
  unsupported_corridor: 'BANK payouts are not offered in CM',
  corridor_not_available: 'No payout provider serves this corridor: no payout provider routed for MOMO MTN in UG is configured',
  webhook_limit_reached: 'This tenant may have at most 10 webhook registrations: delete one first, or ask an operator to raise its webhookLimit',
  refund_address_invalid: 'refundAddress is not a valid SOLANA address: it decodes to 33 bytes, not the 32 of a public key',
  refund_address_bad_checksum: 'refundAddress is mixed-case but its EIP-55 checksum does not match: check it for a typo, or send it all lower-case',
  refund_address_is_ours: "refundAddress is one of this service's own BSC addresses: a refund must go back to a wallet you control",
  rate_limited: 'Rate limit exceeded; retry after the Retry-After seconds',
  headers_too_large: 'The request line and headers are too large (16 KiB at most)',
  internal_error: 'Internal error',
  provider_unavailable: 'No payout provider is available for this tenant: every payout provider is failing',
  rate_unavailable: 'No live exchange rate for KES/USDC now; retry later',
  screening_unavailable: 'Sanctions screening is unavailable (no sanctions list is loaded); live money-outs are refused until an operator loads the lists',
  service_unavailable: 'The service is starting; retry shortly',
  tenant_not_configured: 'Payout settings (refund address) are not configured for this tenant',
  payout_in_progress: 'A payout with reference order-10045 is still being processed',
  account_not_found: 'No account 0123456789 at bank 058',
  link_expired: 'This transfer link has expired',
  upstream_unavailable: 'The account directory could not be reached',
};
