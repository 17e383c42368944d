import type { z } from 'zod';

/**
 * Compile-time ties between the contract's zod schemas and the types that must follow them, so a
 * field added on one side only fails `tsc` instead of drifting silently (docs/decisions.md § GraphQL).
 */

/** True when A and B are the same type (not merely assignable either way). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * The TypeScript type of what GraphQL hands a resolver for a zod input type: the kind of value
 * (string, number, boolean, list), not its literal domain, which GraphQL enums may state more
 * widely and zod then narrows (money-out takes every FiatCurrency but ETB).
 */
type Wire<T> = T extends string ? string : T extends number ? number : T extends boolean ? boolean : T extends readonly (infer E)[] ? Wire<E>[] : T;

/** Keys of T that may be left out (`?:`). */
type Omittable<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** True when a class field's type `F` (nulls aside) is the zod input's `T` exactly, or its kind (`Wire`). */
type SameValue<F, T> = Equal<Exclude<F, null | undefined>, T> extends true ? true : Equal<Exclude<F, null | undefined>, Wire<T>>;

/**
 * The field names on which a transport's input class `C` (a GraphQL input or argument class)
 * differs from the input of zod schema `S`: a field on one side only, optional on one side only
 * (an optional zod field is `?: T | null` in GraphQL, where null means absent), or of another
 * type: the class states either zod's input type or its kind. A zod input of type `unknown`
 * (coerced numbers) accepts any. `never` when the two agree.
 */
export type FieldDrift<C, S extends z.ZodType, I = z.input<S>> =
  | Exclude<keyof C, keyof I>
  | Exclude<keyof I, keyof C>
  | {
      [K in keyof C & keyof I]: Equal<K extends Omittable<C> ? true : false, K extends Omittable<I> ? true : false> extends false
        ? K
        : unknown extends I[K]
          ? never
          : SameValue<C[K], Exclude<I[K], undefined>> extends true
            ? never
            : K;
    }[keyof C & keyof I];

/**
 * Compiles only when `Drift` is `never`; otherwise `tsc` reports the drifted field names, e.g.
 * `Type '"channel"' does not satisfy the constraint 'never'`. Use as
 * `type _Tie = NoDrift<FieldDrift<MoneyOutInput, typeof MoneyOutBody>>`.
 */
export type NoDrift<Drift extends never> = Drift;

/** The keys on which two object types differ: on one side only. `never` when they have the same keys. */
export type KeyDrift<A, B> = Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>;
