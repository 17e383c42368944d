import { BearerJsonClient, type JsonCall, type JsonRequest } from '../bearer-json-client';
import { z } from 'zod';
import type { FlutterwaveConfig } from './flutterwave-config';

/** What one HTTP call to Flutterwave came to: `answer`, `not_sent` or `maybe_sent` (see `JsonCall`). */
export type FlutterwaveCall = JsonCall;

/**
 * Flutterwave's error body: `{status: "error", message, data}` (v3 API reference samples,
 * https://developer.flutterwave.com/reference/endpoints/transfers/).
 */
export const flutterwaveErrorBody = z.object({ status: z.literal('error'), message: z.string() });

/** Flutterwave's success envelope around `data`: `{status: "success", message, data}` (v3 API reference samples). */
export function flutterwaveEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), message: z.string(), data });
}

/** One request: method, path under the base URL, query and JSON body. */
export type FlutterwaveRequest = JsonRequest;

/**
 * HTTP client of the Flutterwave v3 API (https://developer.flutterwave.com/docs/authentication):
 * `Authorization: Bearer <secret key>` on every call (v3 has no token exchange: the secret key is the credential),
 * JSON in and out, over one keep-alive pool with an explicit connect timeout and response timeout.
 * Never throws for a transport fault: every outcome is a `JsonCall`. Never logs (bearer-json-client.ts).
 */
export class FlutterwaveClient extends BearerJsonClient {
  constructor(config: FlutterwaveConfig) {
    super(config);
  }
}

/** The `message` of a Flutterwave error body, or a generic text naming the HTTP status. */
export function flutterwaveMessage(httpStatus: number, body: unknown): string {
  const parsed = flutterwaveErrorBody.safeParse(body);
  return parsed.success ? parsed.data.message.slice(0, 300) : `HTTP ${httpStatus} without a Flutterwave error body`;
}
