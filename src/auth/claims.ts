/**
 * The claims a caller may sign (std-auth.md §Value types, Claims): anything with a JSON form.
 * A function, a Secret, a CryptoKey, a bigint or a symbol anywhere inside fails to type-check
 * (the spec's compile-time refusal; pinned by tests/types).
 */
import type { Secret } from "./secret.ts";

type Refused = ((...args: never[]) => unknown) | Secret | CryptoKey | bigint | symbol | undefined;

/** Maps a claims type to itself when it is JSON-able, and to `never` where it is not. */
export type Jsonable<T> = T extends Refused
  ? never
  : T extends string | number | boolean | null
    ? T
    : T extends readonly (infer Item)[]
      ? readonly Jsonable<Item>[]
      : T extends object
        ? { [K in keyof T]: K extends symbol ? never : undefined extends T[K] ? Jsonable<Exclude<T[K], undefined>> | undefined : Jsonable<T[K]> }
        : never;

/** Use as `claims: Claims<C>` with `C` inferred: a non-JSON part makes the argument a type error. */
export type Claims<C> = C & Jsonable<C>;

/** Current time in whole seconds since the epoch, the unit of every JWT time claim (RFC 7519 §2). */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
