import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Smile ID's request signature (https://docs.usesmileid.com/integration-options/rest-api/signing-your-api-request/generate-signature):
 * HMAC-SHA256 keyed with the API key over the timestamp (ISO 8601), the partner id and the string
 * "sid_request", in that order, base64-encoded. Smile ID signs its answers and callbacks the same
 * way ("Confirming an incoming signature"); the signature covers no part of the body.
 */
export function smileIdSignature(apiKey: string, partnerId: string, timestamp: string): string {
  return createHmac('sha256', apiKey).update(timestamp, 'utf8').update(partnerId, 'utf8').update('sid_request', 'utf8').digest('base64');
}

/** Whether `signature` is Smile ID's for `timestamp` (constant-time comparison); false for anything not a string. */
export function smileIdSignatureMatches(apiKey: string, partnerId: string, timestamp: unknown, signature: unknown): boolean {
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || timestamp.length > 64 || signature.length > 128) return false;
  const expected = Buffer.from(smileIdSignature(apiKey, partnerId, timestamp));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `{timestamp, signature}` for a request made now (`at`). */
export function signedNow(apiKey: string, partnerId: string, at: Date): { timestamp: string; signature: string } {
  const timestamp = at.toISOString();
  return { timestamp, signature: smileIdSignature(apiKey, partnerId, timestamp) };
}
