/**
 * SvcError: the one error type carried by every `Result` (docs/auth.md#results-and-errors).
 *
 * Codes are stable strings that callers branch on; messages are for humans and never contain a
 * token, a password or a secret.
 */

export type ErrorCode =
  // boundary (docs/auth.md#boundary-checks)
  | "expected_string"
  | "invalid_argument"
  // secrets and tokens
  | "secret_too_short"
  | "secret_missing"
  | "claims_not_json"
  | "token_malformed"
  | "token_bad_alg"
  | "bad_signature"
  | "token_expired"
  | "token_not_yet_valid"
  | "token_bad_claims"
  | "sliding_window_too_long"
  | "sliding_cap_reached"
  // passwords
  | "password_too_long"
  | "bad_cost"
  | "bad_hash"
  | "hash_failed"
  // users, revocation and the database (later layers)
  | "email_taken"
  | "bad_email"
  | "empty_password"
  | "bad_credentials"
  | "user_disabled"
  | "user_not_found"
  | "db_error"
  | "unsupported_url"
  /** An operation the database's dialect has no form of (notifications on SQLite). */
  | "db_unsupported"
  /** A live app's model cannot be written to a shared session store as it is (a codec is needed). */
  | "model_not_serialisable"
  /** A live event body over one of its shape limits (nesting depth, string or array size). */
  | "limit_exceeded"
  // configuration read at startup (docs/auth.md#limits: SVC_LIVE_REVOCATION_CACHE_TTL)
  | "bad_config";

/** The one error type of every `Result`: a stable `code` to branch on and a message for people that never holds a token, password or secret. */
export class SvcError extends Error {
  /** Always "SvcError". */
  override readonly name = "SvcError";
  /**
   * An error with its code and message.
   *
   * @param code the stable code callers branch on
   * @param message what happened, for people; never a token, password or secret
   */
  constructor(
    /** The stable code callers branch on. */
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }

  /**
   * The error as JSON: its name, code and message (an Error's message is not an enumerable
   * property, so `JSON.stringify` would drop it), and any field of a subclass. Never the stack.
   *
   * @example
   * ```ts
   * import { Result } from "svc-live";
   *
   * const failed = Result.err("invalid_argument", "quantity must be positive");
   * console.log(JSON.stringify(failed));
   * // {"ok":false,"error":{"name":"SvcError","code":"invalid_argument","message":"quantity must be positive"}}
   * ```
   */
  toJSON(): { readonly name: string; readonly code: ErrorCode; readonly message: string } {
    return Object.assign({ name: this.name, code: this.code, message: this.message }, this);
  }
}
