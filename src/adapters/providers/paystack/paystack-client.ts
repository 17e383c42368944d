import { BearerJsonClient, type JsonCall, type JsonRequest } from '../bearer-json-client';
import { z } from 'zod';
import type { PaystackConfig } from './paystack-config';

/** What one HTTP call to Paystack came to: `answer`, `not_sent` or `maybe_sent` (see `JsonCall`). */
export type PaystackCall = JsonCall;

/** Paystack's error body: `{status: false, message}` (official OpenAPI `components.schemas.Error`). */
export const paystackErrorBody = z.object({ status: z.literal(false), message: z.string() });

/** Paystack's success envelope around `data` (official OpenAPI responses). */
export function paystackEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal(true), message: z.string(), data });
}

/** One request: method, path under the base URL, query and JSON body. */
export type PaystackRequest = JsonRequest;

/**
 * HTTP client of the Paystack API (https://paystack.com/docs/api/): `Authorization: Bearer
 * <secret key>` on every call (Paystack has no token exchange: the secret key is the credential),
 * JSON in and out, over one keep-alive pool with an explicit connect timeout and response timeout.
 * Never throws for a transport fault: every outcome is a `JsonCall`. Never logs (bearer-json-client.ts).
 */
export class PaystackClient extends BearerJsonClient {
  constructor(config: PaystackConfig) {
    super(config);
  }
}

/** The `message` of a Paystack error body, or a generic text naming the HTTP status. */
export function paystackMessage(httpStatus: number, body: unknown): string {
  const parsed = paystackErrorBody.safeParse(body);
  return parsed.success ? parsed.data.message.slice(0, 300) : `HTTP ${httpStatus} without a Paystack error body`;
}
