/**
 * Sliding (rolling) session tokens under an absolute cap (docs/auth.md#sliding-tokens and
 * docs/auth.md#live-sessions-and-the-gate: Sliding token).
 *
 * signSlidingToken stamps iat, exp = iat + w, aexp = iat + maxLifetime and w. A re-issue moves only
 * exp, to min(now + w, aexp): iat, aexp and w never move, so a revocation stamped after iat keeps
 * covering the token however long it slides, and no token outlives aexp.
 */
import type { JsonObject } from "../json.ts";
import { err, ok, type Result } from "../result.ts";
import { type Claims, clockOf, ISSUED_MS_CLAIM } from "./claims.ts";
import type { Secret } from "./secret.ts";
import { claimsAtNow, type ClockOptions, isPositiveWholeSeconds, signPayload, verifyToken } from "./token.ts";

/** A sliding token's window and absolute cap, in whole seconds (docs/auth.md#sliding-tokens). */
export type SlidingParams = {
  /** How long a token lives without activity; each use within it slides it this far again. */
  readonly windowSeconds: number;
  /** The absolute cap from the first issue: no re-issue goes past it, and the user signs in again. */
  readonly maxLifetimeSeconds: number;
};

/** The time claims of a sliding token, as read back from a verified payload. */
export type SlidingTimes = {
  /** When this token was issued, in seconds since the epoch. */
  iat: number;
  /** When it expires unless re-issued, in seconds since the epoch. */
  exp: number;
  /** The absolute expiry (the first issue plus the cap), in seconds since the epoch. */
  aexp: number;
  /** The window, in whole seconds. */
  w: number;
};

/**
 * Signs a sliding token (docs/auth.md#sliding-tokens): valid for `windowSeconds` from now, and
 * re-issuable on activity until `maxLifetimeSeconds` after its first issue.
 *
 * @param claims the token's claims; `sub` names the user
 * @param params the window and the cap, positive whole seconds, the window not longer than the cap
 * @returns Ok with the token, or Err `invalid_argument`, `sliding_window_too_long`, `secret_missing` or `secret_too_short`
 *
 * @example
 * ```ts
 * import { Auth, Secret } from "svc-live";
 *
 * const secret = Secret.fromEnv("SVC_AUTH_TOKEN_SECRET");
 * // 15 minutes without activity, 12 hours at most.
 * const token = Auth.signSlidingToken(secret, { sub: 42 }, { windowSeconds: 900, maxLifetimeSeconds: 43_200 });
 * ```
 */
export function signSlidingToken<C>(secret: Secret, claims: Claims<C>, params: SlidingParams, options?: ClockOptions): Result<string> {
  const { windowSeconds, maxLifetimeSeconds } = params ?? ({} as SlidingParams);
  if (!isPositiveWholeSeconds(windowSeconds) || !isPositiveWholeSeconds(maxLifetimeSeconds)) {
    return err("invalid_argument", "signSlidingToken: windowSeconds and maxLifetimeSeconds must be positive whole seconds");
  }
  if (windowSeconds > maxLifetimeSeconds) {
    return err("sliding_window_too_long", "signSlidingToken: windowSeconds must not exceed maxLifetimeSeconds");
  }
  const stamped = claimsAtNow(claims, options, "signSlidingToken");
  if (!stamped.ok) return stamped;
  const { fields, iat, iatMs } = stamped.value;
  return signPayload(secret, {
    ...fields,
    iat,
    [ISSUED_MS_CLAIM]: iatMs,
    exp: iat + windowSeconds,
    aexp: iat + maxLifetimeSeconds,
    w: windowSeconds,
  });
}

/**
 * Reads and cross-checks the sliding claims of a verified payload: Err "token_bad_claims" for a
 * token that is not a sliding one or whose times disagree.
 *
 * @example
 * ```ts
 * import { Auth, Secret } from "svc-live";
 *
 * const secret = Secret.fromEnv("SVC_AUTH_TOKEN_SECRET");
 * declare const token: string;
 * const claims = Auth.verifySlidingToken(secret, token);
 * const times = claims.ok ? Auth.slidingTimes(claims.value) : claims;
 * if (times.ok) console.log(`signed out at ${new Date(times.value.aexp * 1000).toISOString()} at the latest`);
 * ```
 */
export function slidingTimes(claims: JsonObject): Result<SlidingTimes> {
  const { iat, exp, aexp, w } = claims;
  // Times may carry milliseconds as a fraction (src/auth/claims.ts); the window is whole seconds.
  const time = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
  if (!time(iat) || !time(exp) || !time(aexp) || typeof w !== "number" || !Number.isSafeInteger(w) || w <= 0) {
    return err("token_bad_claims", "not a sliding token: iat, exp, aexp must be times and w whole seconds");
  }
  if (exp > aexp || aexp < iat + w) {
    return err("token_bad_claims", "sliding token claims are inconsistent");
  }
  return ok({ iat, exp, aexp, w });
}

/**
 * Verifies a sliding token: `Auth.verifyToken`, then the sliding-claim checks (the token must
 * carry iat, aexp and w). `Server.slidingSession` does this for each request; this is for a
 * token that arrives another way.
 *
 * @example
 * ```ts
 * import { Auth, Secret } from "svc-live";
 *
 * const secret = Secret.fromEnv("SVC_AUTH_TOKEN_SECRET");
 * declare const request: Request;
 * const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
 * const claims = Auth.verifySlidingToken(secret, token);
 * const userId = claims.ok ? claims.value["sub"] : undefined;
 * ```
 */
export function verifySlidingToken(secret: Secret, token: string, options?: ClockOptions): Result<JsonObject> {
  const verified = verifyToken(secret, token, options);
  if (!verified.ok) return verified;
  const times = slidingTimes(verified.value);
  return times.ok ? verified : times;
}

/**
 * The re-issue step of the sliding middleware: from the verified claims of a live sliding token,
 * a new token with exp = min(now + w, aexp) and every other claim unchanged. Refused once
 * now >= aexp (the absolute cap) or now >= exp (the token already lapsed).
 *
 * @example
 * ```ts
 * import { Auth, Secret } from "svc-live";
 *
 * const secret = Secret.fromEnv("SVC_AUTH_TOKEN_SECRET");
 * declare const token: string;
 * const claims = Auth.verifySlidingToken(secret, token);
 * const fresh = claims.ok ? Auth.reissueSlidingToken(secret, claims.value) : claims;
 * // Err "sliding_cap_reached": the 12 hours are up, the user signs in again.
 * ```
 */
export function reissueSlidingToken(secret: Secret, claims: JsonObject, options?: ClockOptions): Result<string> {
  const clock = clockOf(options, "reissueSlidingToken");
  if (!clock.ok) return clock;
  const now = clock.value;
  const times = slidingTimes(claims);
  if (!times.ok) return times;
  const { exp, aexp, w } = times.value;
  if (now >= aexp) return err("sliding_cap_reached", "sliding token reached its absolute lifetime");
  if (now >= exp) return err("token_expired", "sliding token has lapsed");
  return signPayload(secret, { ...claims, exp: Math.min(Math.floor(now) + w, aexp) });
}
