import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import type { PasswordHasher, TokenSource, Totp } from '../../core/operators/operator-ports';

/**
 * Argon2id password hashes (PasswordHasher port) with @node-rs/argon2's defaults (argon2id, 19 MiB,
 * 2 passes, 1 lane: OWASP's password storage cheat sheet minimum), stored as PHC strings.
 */
export const argon2Passwords: PasswordHasher = {
  hash: (password) => hash(password),
  verify: async (stored, password) => {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  },
};

/** TOTP step, seconds (RFC 6238's default, what authenticator apps use). */
const PERIOD_S = 30;

/**
 * RFC 6238 codes with otplib 13 (Totp port): base32 secrets of 20 random bytes, 6 digits, SHA-1,
 * 30-second steps, one step of clock drift accepted either way. otplib 13's `verify` answers
 * `{ valid, delta }` (no longer a boolean as in 12).
 */
export const otplibTotp: Totp = {
  newSecret: () => generateSecret({ length: 20 }),
  uri: (secret, label) => {
    const [issuer, ...account] = label.split(':');
    return generateURI({ issuer: issuer ?? 'Payout gateway', label: account.join(':') || label, secret });
  },
  verify: async (secret, code, now) => {
    if (!/^\d{6}$/.test(code)) return undefined;
    const epoch = Math.floor(now.getTime() / 1000);
    const result = await verifyTotp({ secret, token: code, epoch, period: PERIOD_S, epochTolerance: PERIOD_S });
    // `delta` is the matching step's offset from the current one.
    return result.valid ? Math.floor(epoch / PERIOD_S) + result.delta : undefined;
  },
};

/** 32 random bytes, base64url (TokenSource port); hashes are hex SHA-256, as for API keys. */
export const randomTokens: TokenSource = {
  next: () => randomBytes(32).toString('base64url'),
  hash: (token) => createHash('sha256').update(token).digest('hex'),
};
