/**
 * The error codes every transport answers, per error shape, each with its HTTP status
 * (docs/decisions.md § Errors: shapes per route family). REST sends them in the shape of the
 * route family; GraphQL puts the same code in `extensions.code` (docs/decisions.md § GraphQL).
 */

/** Codes of error shape A (docs/decisions.md § Errors: shapes per route family), each with its HTTP status. */
export const SHAPE_A_STATUS = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  // An operator session's write without its CSRF token, or with another (docs/decisions.md § Operators: sign-in, sessions, roles, audit log).
  csrf_failed: 403,
  not_found: 404,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  duplicate_reference: 409,
  idempotency_key_in_use: 409,
  duplicate_deposit: 409,
  duplicate_customer: 409,
  duplicate_operator: 409,
  invalid_state: 409,
  tx_hash_is_deposit: 409,
  // A hand-sent refund's transaction not final onchain yet, or not paying the refund (docs/decisions.md § Refunds: reads and operators).
  tx_not_final: 409,
  tx_does_not_pay_refund: 422,
  idempotency_key_reused: 422,
  quote_expired: 422,
  quote_already_used: 422,
  insufficient_balance: 422,
  unsupported_corridor: 422,
  corridor_not_available: 422,
  webhook_limit_reached: 422,
  // A money-out's refundAddress refused for its chain (docs/decisions.md § Refunds: refund addresses).
  refund_address_invalid: 422,
  refund_address_bad_checksum: 422,
  refund_address_is_ours: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  provider_unavailable: 503,
  // No trustworthy live exchange rate for the pair now (docs/decisions.md § FX quotes: live rates).
  rate_unavailable: 503,
  // A live money-out or customer while no sanctions list is loaded and screening is required (docs/decisions.md § Screening).
  screening_unavailable: 503,
  // Starting (the port is bound before the service is built) or shutting down (docs/decisions.md § Running it).
  service_unavailable: 503,
} as const;
/** A code of error shape A. */
export type ShapeACode = keyof typeof SHAPE_A_STATUS;

/** Codes of error shape B (docs/decisions.md § Errors: shapes per route family: the legacy payout's refusals), each with its HTTP status. */
export const SHAPE_B_STATUS = {
  unsupported_corridor: 422,
  insufficient_balance: 422,
  quote_expired: 422,
  quote_already_used: 422,
  tenant_not_configured: 422,
  corridor_not_available: 422,
  refund_address_invalid: 422,
  refund_address_bad_checksum: 422,
  refund_address_is_ours: 422,
  duplicate_reference: 409,
  payout_in_progress: 409,
  provider_unavailable: 503,
  rate_unavailable: 503,
  screening_unavailable: 503,
} as const;
/** A code of error shape B. */
export type ShapeBCode = keyof typeof SHAPE_B_STATUS;

/** Codes of error shape C (docs/decisions.md § Errors: shapes per route family: the resolve and transfer-request endpoints), each with its HTTP status. */
export const SHAPE_C_STATUS = {
  account_not_found: 404,
  not_found: 404,
  duplicate_reference: 409,
  link_expired: 410,
  upstream_unavailable: 502,
} as const;
/** A code of error shape C. */
export type ShapeCCode = keyof typeof SHAPE_C_STATUS;

/**
 * Codes of error shape D (docs/decisions.md § Errors: shapes per route family: FX), each with its
 * HTTP status: the shape A code of the same meaning, sent as `code` beside the numeric `error`.
 */
export const SHAPE_D_STATUS = {
  unsupported_corridor: 422,
  // FX's only 503: no trustworthy live rate (docs/decisions.md § FX quotes: live rates); it calls no payout provider.
  rate_unavailable: 503,
} as const satisfies Partial<Record<ShapeACode, number>>;
/** A code of error shape D. */
export type ShapeDCode = keyof typeof SHAPE_D_STATUS;
