/** Time source port (docs/architecture.md): use cases never read the system clock themselves. */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/** Prefixed ULID generator port (docs/decisions.md § Payments: states and events): `next('pay')` returns `pay_<ULID>`. */
export interface IdGenerator {
  next(prefix: IdPrefix): string;
  /** A random RFC 4122 v4 uuid, for ids the interface types as uuid (event ids, webhook ids). */
  uuid(): string;
}

/** Id prefixes in use (docs/decisions.md § Payments: states and events). */
export type IdPrefix = 'pay' | 'quo' | 'cus' | 'whk' | 'key' | 'ten' | 'evt' | 'ldg' | 'trq' | 'dep' | 'rfd' | 'rfa' | 'pin' | 'spr' | 'opr' | 'aud';
