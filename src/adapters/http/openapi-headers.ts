import { z } from 'zod';
import 'zod-openapi';

/**
 * Response headers the OpenAPI document declares (docs/api.md: § Request ids, § Rate limits,
 * § Lists and paging, § Creating a payout safely), each once as a component.
 */
const header = (id: string, description: string, example: string) => z.string().meta({ description, example, header: { id } });

/** On every response: the request's id, kept from a sane incoming X-Request-Id. */
export const RequestIdHeader = header(
  'Request-Id',
  'Id of this request: your X-Request-Id when you sent 1-128 visible ASCII characters, else a UUID we made. Also in error bodies as details.requestId; quote it when you ask us about a request.',
  '6f1c2d7e-8a4b-4c1e-9b0f-3d2a5e7c9b11',
);
/** On every answer to an authenticated request: the key's budget. */
export const RateLimitPolicyHeader = header('RateLimit-Policy', "The API key's request budget: requests per window of w seconds", '600;w=60');
/** On every answer to an authenticated request: what is left of the budget. */
export const RateLimitHeader = header('RateLimit', 'Requests left in the current window and the seconds until it resets', 'limit=600, remaining=599, reset=60');
/** With 429 and with 409 idempotency_key_in_use (and the starting 503): when to retry. */
export const RetryAfterHeader = header('Retry-After', 'Seconds to wait before retrying the same request (same Idempotency-Key for a money-out)', '1');
/** On a list page that has a next page. */
export const LinkHeader = header(
  'Link',
  'Present when more entries follow: the next page as rel="next", with your filters and an opaque cursor. Follow it as given; its absence means this is the last page.',
  '</v1/payments?limit=50&status=succeeded&cursor=MjAyNi0xMS0yM1QwOTo0MTowNy41MTJafHBheV8wMUpENFpROFcwWThNMlY2TjNDNUI3SzlUUQ>; rel="next"',
);
/** On a replayed money-out (same Idempotency-Key, same body) or legacy payout (same reference, same body). */
export const IdempotentReplayedHeader = header(
  'Idempotent-Replayed',
  'true when this is the stored answer to an earlier request with the same idempotency key and body; absent on the first answer',
  'true',
);
