import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { SecretHasher } from '../../core/auth/api-key';
import type { Clock, IdGenerator, IdPrefix } from '../../core/shared/clock';

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * Uniform draws in [0, 1) from the operating system's CSPRNG, fetched 4 KiB at a time: ulid's
 * default source asks for one byte per character (16 calls per id), a measurable share of a
 * money-out's CPU. Each draw is one byte / 256, so ulid's `floor(draw * 32)` is exactly uniform.
 */
export function bufferedRandom(): () => number {
  let pool = Buffer.alloc(0);
  let next = 0;
  return () => {
    if (next >= pool.length) {
      pool = randomBytes(4096);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}

/** Prefixed, monotonic ULIDs (`pay_01J...`) and v4 uuids (docs/decisions.md § Payments: states and events). */
export function ulidGenerator(): IdGenerator {
  const ulid = monotonicFactory(bufferedRandom());
  return { next: (prefix: IdPrefix) => `${prefix}_${ulid()}`, uuid: () => randomUUID() };
}

/** A stable RFC 4122-shaped uuid (version 8, name-based) from SHA-256 of `text`. */
export function uuidFor(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** SHA-256 hex of a key; keys are 190+ bits of randomness, so a fast hash is the right one. */
export const sha256Hasher: SecretHasher = {
  hash: (secret) => createHash('sha256').update(secret).digest('hex'),
  equal: (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b)),
};
