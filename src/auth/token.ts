/**
 * HS256 JSON Web Tokens (RFC 7519 over RFC 7515 compact JWS).
 *
 * Verification order is fixed, and each step has its own error code:
 *   1. shape: three strict base64url segments, total length bounded  -> "token_malformed"
 *   2. header: a JSON object whose alg is exactly "HS256"             -> "token_bad_alg"
 *   3. signature: HMAC-SHA256, compared in constant time             -> "bad_signature"
 *   4. payload: a JSON object                                         -> "token_malformed"
 *   5. claims: exp present and now < exp; nbf honoured when present  -> "token_expired" ...
 * No error message ever contains the token or any part of it.
 */
import { isJsonObject, type JsonObject } from "../json.ts";
import { attempt, err, ok, type Result } from "../result.ts";
import { decodeText, encodeText } from "../runtime/base64url.ts";
import { type HmacBase64urlKey, hmacSha256Key } from "../runtime/hmac.ts";
import { hasCanonicalEnd, hasCompactJwsChars, hasUrlAlphabetAt } from "./base64url.ts";
import { expectString } from "./boundary.ts";
import { type Claims, clockOf, ISSUED_MS_CLAIM, issueTimes } from "./claims.ts";
import { byteLength, isUnsetEnvSecret, MIN_SECRET_BYTES, type Secret, secretBytes } from "./secret.ts";

/** Tokens longer than this are refused before any decoding, so a huge header cannot cost memory. */
export const MAX_TOKEN_LENGTH = 8192;
/** The key under which a non-object claims value travels (a JWT payload must be an object). */
export const VALUE_CLAIM = "val";
/** base64url of the header every token we sign carries: {"alg":"HS256","typ":"JWT"}. */
const SIGNED_HEADER = encodeText(JSON.stringify({ alg: "HS256", typ: "JWT" }));

/** Options of the token functions: the clock, for tests and benchmarks. */
export type ClockOptions = {
  /** The current time in seconds since the epoch; defaults to the system clock. */
  readonly now?: number;
};

const keys = new WeakMap<Secret, Result<HmacBase64urlKey>>();

/** The secret's HMAC key, set up once per Secret (the Result itself is cached: no allocation per call). */
function keyFor(secret: Secret): Result<HmacBase64urlKey> {
  const known = keys.get(secret);
  if (known) return known;
  const bytes = secret instanceof Object ? secretBytes(secret) : undefined;
  if (bytes === undefined) return err("invalid_argument", "expected a Secret (Secret.fromEnv or Secret.fromString)");
  if (isUnsetEnvSecret(secret)) return err("secret_missing", `secret (${secret.source}) is not set`);
  if (byteLength(secret) < MIN_SECRET_BYTES) {
    return err("secret_too_short", `secret (${secret.source}) must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  const key = ok(hmacSha256Key(bytes));
  keys.set(secret, key);
  return key;
}

/** Signs an already-built payload object. Shared by fixed and sliding tokens. */
export function signPayload(secret: Secret, payload: object): Result<string> {
  const key = keyFor(secret);
  if (!key.ok) return key;
  let json: string | undefined;
  try {
    json = JSON.stringify(payload);
  } catch {
    return err("claims_not_json", "claims have no JSON form (a bigint or a cycle)");
  }
  if (json === undefined || !json.startsWith("{")) return err("claims_not_json", "claims have no JSON form");
  return ok(signJson(key.value, json));
}

function signJson(key: HmacBase64urlKey, json: string): string {
  const signingInput = `${SIGNED_HEADER}.${encodeText(json)}`;
  return `${signingInput}.${key.sign(signingInput)}`;
}

/**
 * signPayload(secret, { ...fields, iat, exp }), without building that object when the result is
 * known: on Node 20 (V8 11.3) adding keys to a spread copy leaves it in a slow shape, and building
 * and serialising it was most of a whole signToken's time (bench/auth.bench.ts).
 * The text is the same: JSON.stringify writes an object's keys in order, so the spread's JSON is
 * that of `fields` with `"iat":…,"exp":…` added before the closing brace, provided that `fields`
 * (a fresh copy) holds neither key (the spread would overwrite them in place), has no toJSON
 * (which would replace the whole object) and both times are finite numbers (whose JSON form is
 * their string form). Otherwise the general path runs.
 */
function signStamped(secret: Secret, fields: Record<string, unknown>, iat: number, iatMs: number, exp: number): Result<string> {
  if (
    typeof iat !== "number" ||
    !Number.isFinite(iat) ||
    !Number.isFinite(iatMs) ||
    !Number.isFinite(exp) ||
    Object.hasOwn(fields, "iat") ||
    Object.hasOwn(fields, ISSUED_MS_CLAIM) ||
    Object.hasOwn(fields, "exp") ||
    fields.toJSON !== undefined
  ) {
    return signPayload(secret, { ...fields, iat, [ISSUED_MS_CLAIM]: iatMs, exp });
  }
  const key = keyFor(secret);
  if (!key.ok) return key;
  const json = attempt(() => JSON.stringify(fields), "claims_not_json", "claims have no JSON form (a bigint or a cycle)");
  if (!json.ok) return json;
  const times = `"iat":${iat},"${ISSUED_MS_CLAIM}":${iatMs},"exp":${exp}}`;
  return ok(signJson(key.value, json.value.length === 2 ? `{${times}` : `${json.value.slice(0, -1)},${times}`));
}

/**
 * The payload object for caller claims: an object's own fields, or a non-object value under
 * "val". Time claims stamped by the library are added by the caller of this function and win.
 */
export function claimsObject(claims: unknown): Result<Record<string, unknown>> {
  if (typeof claims === "function" || typeof claims === "symbol" || claims === undefined) {
    return err("claims_not_json", "claims have no JSON form");
  }
  if (typeof claims === "object" && claims !== null && !Array.isArray(claims)) {
    return ok({ ...(claims as Record<string, unknown>) });
  }
  return ok({ [VALUE_CLAIM]: claims });
}

export function isPositiveWholeSeconds(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/**
 * Signs `claims` as an HS256 JWT that expires `expirySeconds` from now. The library stamps `iat`
 * (now, whole seconds), `iat_ms` (now, milliseconds) and `exp` (iat + expirySeconds); caller-supplied
 * values of those three are replaced.
 *
 * @returns Ok with the token, or Err `invalid_argument`, `secret_missing` or `secret_too_short`
 *
 * @example
 * ```ts
 * import { Auth, Secret } from "svc-live";
 *
 * const secret = Secret.fromEnv("SVC_AUTH_TOKEN_SECRET");
 * // A one-hour link to download an export: the claims say what it grants.
 * const token = Auth.signToken(secret, { sub: 42, export: "invoices-2026" }, 3600);
 * if (token.ok) console.log(`https://app.example.com/export?token=${token.value}`);
 * ```
 */
export function signToken<C>(secret: Secret, claims: Claims<C>, expirySeconds: number, options?: ClockOptions): Result<string> {
  if (!isPositiveWholeSeconds(expirySeconds)) {
    return err("invalid_argument", "signToken: expirySeconds must be a positive whole number of seconds");
  }
  const stamped = claimsAtNow(claims, options, "signToken");
  if (!stamped.ok) return stamped;
  const { fields, iat, iatMs } = stamped.value;
  return signStamped(secret, fields, iat, iatMs, iat + expirySeconds);
}

/**
 * A token's caller claims as a payload object, and the issue times of now by the options' clock:
 * what every signer stamps its time claims onto. `operation` names the signer in errors.
 */
export function claimsAtNow(
  claims: unknown,
  options: ClockOptions | undefined,
  operation: string,
): Result<{ readonly fields: Record<string, unknown>; readonly iat: number; readonly iatMs: number }> {
  const now = clockOf(options, operation);
  if (!now.ok) return now;
  const payload = claimsObject(claims);
  if (!payload.ok) return payload;
  return ok({ fields: payload.value, ...issueTimes(now.value) });
}

/** The JSON object a base64url segment holds; undefined when it is not UTF-8, not JSON or not an object. */
function jsonObjectOf(segment: string): JsonObject | undefined {
  const text = decodeText(segment);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function checkHeader(segment: string): Result<void> {
  if (segment === SIGNED_HEADER) return ok();
  const header = jsonObjectOf(segment);
  if (header === undefined) return err("token_bad_alg", "token header is not a JSON object");
  if (header.alg !== "HS256") return err("token_bad_alg", "token alg must be HS256");
  // RFC 7515 §4.1.11: a "crit" extension we do not understand must be refused.
  if ("crit" in header) return err("token_bad_alg", "token header has unsupported critical parameters");
  return ok();
}

function checkTimes(payload: JsonObject, now: number): Result<JsonObject> {
  const { exp, nbf, iat } = payload;
  if (typeof exp !== "number" || !Number.isFinite(exp)) return err("token_bad_claims", "token has no numeric exp");
  if (nbf !== undefined && (typeof nbf !== "number" || !Number.isFinite(nbf))) {
    return err("token_bad_claims", "token nbf is not a number");
  }
  if (iat !== undefined && (typeof iat !== "number" || !Number.isFinite(iat))) {
    return err("token_bad_claims", "token iat is not a number");
  }
  if (now >= exp) return err("token_expired", "token has expired");
  if (nbf !== undefined && now < nbf) return err("token_not_yet_valid", "token is not valid yet (nbf)");
  return ok(payload);
}

/** Whether the signature segment, from `start` to the end, is empty or strict base64url. */
function signatureShape(token: string, start: number): boolean {
  return start === token.length || (hasUrlAlphabetAt(token, start, token.length) && hasCanonicalEnd(token, start, token.length));
}

function malformed(): Result<never> {
  return err("token_malformed", "token segments must be strict base64url");
}

/**
 * Verifies an HS256 JWT and returns its payload (the verified claims), checking in a fixed order:
 * shape, algorithm, signature (in constant time), then `exp` and `nbf` (docs/auth.md#tokens). The
 * token never appears in an error.
 *
 * @example
 * ```ts
 * import { Auth, Secret } from "svc-live";
 *
 * const secret = Secret.fromEnv("SVC_AUTH_TOKEN_SECRET");
 * const url = new URL("https://app.example.com/export?token=...");
 * const claims = Auth.verifyToken(secret, url.searchParams.get("token") ?? "");
 * if (!claims.ok) console.log(claims.error.code); // "token_expired", "bad_signature", ...
 * else console.log(claims.value["export"]);
 * ```
 */
export function verifyToken(secret: Secret, token: string, options?: ClockOptions): Result<JsonObject> {
  if (typeof token !== "string") return expectString("verifyToken", token) as Result<never>;
  const key = keyFor(secret);
  if (!key.ok) return key;
  // The clock is checked first: a bad one must refuse every token, not only an expired one.
  const now = clockOf(options, "verifyToken");
  if (!now.ok) return now;

  // 1. Shape. The segments are checked in place, not cut out: verification is a hot path.
  // An empty signature is well-formed (an unsecured JWS, RFC 7515 §A.5): step 2 refuses its alg.
  if (token.length > MAX_TOKEN_LENGTH) return err("token_malformed", "token is too long");
  const firstDot = token.indexOf(".");
  const secondDot = token.indexOf(".", firstDot + 1);
  if (firstDot < 0 || secondDot < 0 || token.indexOf(".", secondDot + 1) >= 0) {
    return err("token_malformed", "token must have three segments");
  }
  const signatureStart = secondDot + 1;
  // The header we sign is a canonical constant, and a signature that spells the MAC we compute is
  // canonical by construction: with our header only the payload is checked here, and the
  // signature's spelling only when it does not match (still reported as malformed, step 1 before
  // step 3). Any other token has all three segments checked at once.
  const ourHeader = firstDot === SIGNED_HEADER.length && token.startsWith(SIGNED_HEADER);
  const wellFormed = ourHeader
    ? hasUrlAlphabetAt(token, firstDot + 1, secondDot) && hasCanonicalEnd(token, firstDot + 1, secondDot)
    : hasCompactJwsChars(token) &&
      hasCanonicalEnd(token, 0, firstDot) &&
      hasCanonicalEnd(token, firstDot + 1, secondDot) &&
      (signatureStart === token.length || hasCanonicalEnd(token, signatureStart, token.length));
  if (!wellFormed) return malformed();

  // 2. Header and the pinned algorithm (the header we sign is recognised without decoding it).
  if (!ourHeader) {
    const headerOk = checkHeader(token.slice(0, firstDot));
    if (!headerOk.ok) return headerOk;
  }

  // 3. Signature, in constant time. A signature of another length (another algorithm's MAC)
  // cannot match: refused here, not in step 1.
  if (!key.value.verify(token, secondDot, signatureStart)) {
    return ourHeader && !signatureShape(token, signatureStart) ? malformed() : err("bad_signature", "token signature does not match");
  }

  // 4. Payload.
  const payload = jsonObjectOf(token.slice(firstDot + 1, secondDot));
  if (payload === undefined) return err("token_malformed", "token payload is not a JSON object");

  // 5. Claims.
  return checkTimes(payload, now.value);
}
