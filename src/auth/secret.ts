/**
 * Secret: an opaque signing key that redacts itself (docs/auth.md#results-and-errors).
 *
 * The key bytes live in a module-private WeakMap, not on the object, so no inspector, spread,
 * Object.keys or structured clone can reach them. Every printing path (String(), template
 * literals, JSON.stringify, util.inspect / console.log, and the Deno and Bun inspectors) yields the
 * same placeholder.
 */
import { inspectHooks } from "../runtime/inspect.ts";
import { readEnv } from "../runtime/env.ts";

/** What a `Secret` prints as, wherever it is logged, inspected or serialised. */
export const SECRET_PLACEHOLDER = "[redacted Secret]";
/** docs/auth.md#limits: minimum secret length. */
export const MIN_SECRET_BYTES = 32;

const keyBytes = new WeakMap<Secret, Uint8Array>();
/** Secrets read from an environment variable that was not set: refused as missing, not as short. */
const unset = new WeakSet<Secret>();
const utf8 = new TextEncoder();
declare const secretBrand: unique symbol;

/** An opaque HMAC signing key of at least 32 bytes that never prints its value (docs/auth.md#secrets). */
export class Secret {
  /** Type-level brand: lets the claims type refuse a Secret (docs/auth.md#tokens). */
  declare readonly [secretBrand]: true;
  /** Where the key came from, for error messages ("env SVC_AUTH_TOKEN_SECRET"); never the key. */
  readonly source: string;

  private constructor(bytes: Uint8Array, source: string) {
    keyBytes.set(this, bytes);
    this.source = source;
    Object.freeze(this);
  }

  /**
   * A secret from a runtime string: a key fetched from a secret manager, or a test's. At least 32
   * bytes, or signing refuses it with "secret_too_short".
   *
   * @example
   * ```ts
   * import { Auth, Secret } from "svc-live";
   *
   * declare function fetchKeyFromVault(name: string): Promise<string>;
   * const secret = Secret.fromString(await fetchKeyFromVault("auth-token-key"));
   * const token = Auth.signToken(secret, { sub: 42 }, 3600);
   * ```
   */
  static fromString(value: string): Secret {
    return new Secret(utf8.encode(typeof value === "string" ? value : ""), "string");
  }

  /**
   * A secret from the environment variable `name`, read now (not at import time). An unset or
   * empty variable gives a secret that every signing and verifying call refuses with
   * "secret_missing" (a set but short one is "secret_too_short").
   *
   * @example
   * ```ts
   * import { Auth, Secret } from "svc-live";
   *
   * const secret = Secret.fromEnv("SVC_AUTH_TOKEN_SECRET");
   * const token = Auth.signToken(secret, { sub: 42, role: "admin" }, 3600);
   * if (!token.ok) console.error(token.error.code); // "secret_missing" when the variable is unset
   * ```
   */
  static fromEnv(name: string): Secret {
    const value = typeof name === "string" ? readEnv(name) : undefined;
    const secret = new Secret(utf8.encode(value ?? ""), `env ${String(name)}`);
    if (!value) unset.add(secret);
    return secret;
  }

  /** The placeholder, never the key. */
  toString(): string {
    return SECRET_PLACEHOLDER;
  }
  /** The placeholder, so JSON never holds the key. */
  toJSON(): string {
    return SECRET_PLACEHOLDER;
  }
  /** The placeholder, in a template literal or a concatenation. */
  [Symbol.toPrimitive](): string {
    return SECRET_PLACEHOLDER;
  }
  /** "Secret", for `Object.prototype.toString`. */
  get [Symbol.toStringTag](): string {
    return "Secret";
  }
  static {
    for (const hook of inspectHooks) {
      Object.defineProperty(Secret.prototype, hook, { value: () => SECRET_PLACEHOLDER });
    }
  }
}

/** The key bytes, for the token module only (not exported from the public entry points). */
export function secretBytes(secret: Secret): Uint8Array | undefined {
  return keyBytes.get(secret);
}

/** Whether the secret came from an environment variable that was unset or empty. */
export function isUnsetEnvSecret(secret: Secret): boolean {
  return unset.has(secret);
}

export function byteLength(secret: Secret): number {
  return keyBytes.get(secret)?.length ?? 0;
}
