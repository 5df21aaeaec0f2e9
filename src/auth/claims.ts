/**
 * The claims a caller may sign (docs/auth.md#tokens): anything with a JSON form.
 * A function, a Secret, a CryptoKey, a bigint or a symbol anywhere inside fails to type-check
 * (the spec's compile-time refusal; pinned by tests/types).
 */
import { err, ok, type Result } from "../result.ts";
import type { Secret } from "./secret.ts";

type Refused = ((...args: never[]) => unknown) | Secret | CryptoKey | bigint | symbol | undefined;

/** Maps a claims type to itself when it is JSON-able, and to `never` where it is not. */
export type Jsonable<T> = T extends Refused ? never
  : T extends string | number | boolean | null ? T
  : T extends readonly (infer Item)[] ? readonly Jsonable<Item>[]
  : T extends object ? {
      [K in keyof T]: K extends symbol ? never : undefined extends T[K] ? Jsonable<Exclude<T[K], undefined>> | undefined : Jsonable<T[K]>;
    }
  : never;

/** Use as `claims: Claims<C>` with `C` inferred: a non-JSON part makes the argument a type error. */
export type Claims<C> = C & Jsonable<C>;

/** Current time in seconds since the epoch (with the milliseconds as a fraction). */
export function nowSeconds(): number {
  return Date.now() / 1000;
}

/**
 * The clock of an operation's options: the system clock when `now` is absent, else `now` itself,
 * which must be a finite number of seconds. Anything else (NaN, an infinity, a string, an object,
 * null) is an error rather than a time, so that a check against it fails closed: `now >= exp`
 * is false for NaN, and would accept every expired token.
 */
export function clockOf(options: { readonly now?: unknown } | undefined, operation: string): Result<number> {
  const now = options === undefined || options === null ? undefined : options.now;
  if (now === undefined) return ok(nowSeconds());
  return typeof now === "number" && Number.isFinite(now)
    ? ok(now)
    : err("invalid_argument", `${operation}: options.now must be a finite number of seconds since the epoch`);
}

/**
 * The issue-time claims every token gets: `iat` in whole seconds, as most verifiers expect (one
 * that compares a fractional iat with its whole-second clock refuses a fresh token), and `iat_ms`,
 * the same instant in milliseconds. A revoke is stamped in milliseconds, so a token minted later in
 * the same second as the revoke must say so to be told apart from one minted before it
 * (docs/auth.md#revocation-and-suspension; src/auth/revocation.ts); the revocation checks read iat_ms.
 */
export const ISSUED_MS_CLAIM = "iat_ms";

export function issueTimes(now: number): { iat: number; iatMs: number } {
  return { iat: Math.floor(now), iatMs: Math.round(now * 1000) };
}

/** A verified token's issue time in seconds, to the millisecond when it carries iat_ms. */
export function issuedAtOf(claims: { readonly [key: string]: unknown }): number | undefined {
  const ms = claims[ISSUED_MS_CLAIM];
  if (typeof ms === "number" && Number.isFinite(ms)) return ms / 1000;
  return typeof claims.iat === "number" && Number.isFinite(claims.iat) ? claims.iat : undefined;
}
