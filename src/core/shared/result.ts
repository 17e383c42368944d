/**
 * Expected outcomes of use cases are values, not exceptions (docs/architecture.md).
 * `Ok<T>` carries the value; `Err<C>` carries a code from a closed union per feature and a
 * human-readable message. Exceptions are reserved for bugs and infrastructure faults.
 */
export type Ok<T> = { readonly ok: true; readonly value: T };
export type Err<C extends string> = {
  readonly ok: false;
  readonly code: C;
  readonly message: string;
  /** Optional structured detail (for example which field failed); safe to show to the caller. */
  readonly details?: Readonly<Record<string, unknown>>;
};
export type Result<T, C extends string> = Ok<T> | Err<C>;

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value });

export const err = <C extends string>(
  code: C,
  message: string,
  details?: Record<string, unknown>,
): Err<C> => (details ? { ok: false, code, message, details } : { ok: false, code, message });
