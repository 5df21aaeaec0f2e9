/**
 * CSRF tokens bound to the session: the signed double-submit pattern (docs/security.md#csrf).
 *
 * The browser holds a random value in the CSRF cookie (one per browser, so apps mounted side by
 * side share it), and each page gets the token HMAC(key, cookie value, session id). A request
 * passes only when the token it carries is that MAC for the cookie it sends and the session the
 * session cookie selects. A cookie planted from a sibling subdomain (cookie tossing) is not
 * enough: without the key, no one can compute the token that goes with it for the victim's
 * session. Rotating the session re-derives the token; the reply that tells a tab its new session
 * handle also carries its new token (X-Svc-Csrf).
 *
 * The key is the app's `secret` option, else SVC_AUTH_TOKEN_SECRET, else (development, a single
 * process) random per app: tokens then do not survive a restart, which in-memory sessions do not
 * either. Over a Secure context the cookie is named with the __Host- prefix (Secure, Path=/, no
 * Domain), which a sibling subdomain cannot set at all; both spellings are read.
 */
import { constantTimeEqual } from "../../../auth/constant-time.ts";
import { byteLength, MIN_SECRET_BYTES, Secret, secretBytes } from "../../../auth/secret.ts";
import { SvcError } from "../../../errors.ts";
import { CSRF_COOKIE, HOST_PREFIX } from "../../../protocol/mod.ts";
import { readEnv } from "../../../runtime/env.ts";
import { decodeBytes } from "../../../runtime/base64url.ts";
import { hmacSha256Key } from "../../../runtime/hmac.ts";
import { cookieIn, getCookie } from "../../../server/cookies.ts";
import { withRuledCookie } from "../../../server/secure.ts";
import { SECRET_ENV } from "../../../server/production.ts";
import { randomToken } from "../registry/registry.ts";

const COOKIE_ATTRIBUTES = "Path=/; HttpOnly; SameSite=Strict";

function keyBytes(secret: Secret | undefined): Uint8Array {
  if (secret !== undefined) {
    const bytes = secret instanceof Secret ? secretBytes(secret) : undefined;
    if (bytes === undefined) throw new TypeError("Live.app: the secret option must be a Secret (Secret.fromEnv or Secret.fromString)");
    if (byteLength(secret) < MIN_SECRET_BYTES) {
      throw new SvcError("secret_too_short", `Live.app: the secret (${secret.source}) must be at least ${MIN_SECRET_BYTES} bytes`);
    }
    return bytes;
  }
  // checkSecretAtStart has refused a set secret under MIN_SECRET_BYTES before this runs.
  if (readEnv(SECRET_ENV)) return secretBytes(Secret.fromEnv(SECRET_ENV))!;
  return crypto.getRandomValues(new Uint8Array(32));
}

const HOST_CSRF_COOKIE = HOST_PREFIX + CSRF_COOKIE;

/** The CSRF cookie value in a Cookie header, the __Host- spelling first; undefined when empty or missing. */
function csrfCookieIn(cookies: string | null): string | undefined {
  const value = cookieIn(cookies, HOST_CSRF_COOKIE, CSRF_COOKIE);
  return value === "" ? undefined : value;
}

export type TokenState = "current" | "former" | "wrong";

/**
 * What a token is checked against: the session's current id, the ids it rotated away from within
 * the grace period, and the session object itself when there is one (its last expected token is
 * used again).
 */
export type TokenHolder = {
  readonly id: string;
  readonly rotatedIds: () => Iterable<string>;
  readonly session?: object;
};

/** The token a session's current id has under one CSRF cookie value, as last worked out. */
type Expected = { readonly id: string; readonly cookie: string; readonly token: string };

export class CsrfTokens {
  private readonly sign: (data: string) => string;
  /**
   * Per session, the token of its current id under the cookie its last request sent: a tab sends
   * the same cookie and id event after event, and the MAC of the same input is the same, so it is
   * not worked out again. One entry a session, dropped with it. A request with another cookie or
   * id works the MAC out afresh; only whether its cookie equals the remembered one shows in the
   * time it takes, never a part of either.
   */
  private readonly expected = new WeakMap<object, Expected>();

  constructor(secret: Secret | undefined) {
    this.sign = hmacSha256Key(keyBytes(secret)).sign;
  }

  /**
   * Key material for another use of the app's key, kept apart from the tokens by its label (the
   * seal of rotated session ids in the shared store: src/live/store/seal.ts).
   */
  derivedKey(label: string): Uint8Array {
    return decodeBytes(this.sign(`svc-derive\n${label}`));
  }

  /** The browser's CSRF cookie value, the __Host- spelling first. */
  cookieOf(req: Request): string | undefined {
    return csrfCookieIn(req.headers.get("Cookie"));
  }

  /** The browser's cookie value, or a new one for a browser that has none. */
  cookieFor(req: Request): string {
    return this.cookieOf(req) ?? randomToken();
  }

  /** The token of a session under a cookie value. */
  tokenFor(sessionId: string, cookie: string): string {
    return this.sign(`svc-csrf\n${cookie}\n${sessionId}`);
  }

  /** Whether `token` is the token of the session id `id` under the request's CSRF cookie. */
  matches(req: Request, token: string | undefined, id: string): boolean {
    return this.matchesCookie(this.cookieOf(req), token, id);
  }

  /** `matches` for the request's CSRF cookie value, read already. */
  private matchesCookie(cookie: string | undefined, token: string | undefined, id: string, session?: object): boolean {
    if (token === undefined || token === "" || cookie === undefined) return false;
    return constantTimeEqual(session === undefined ? this.tokenFor(id, cookie) : this.expectedFor(session, id, cookie), token);
  }

  /** The token of `session`'s current id `id` under `cookie`, remembered for its next request. */
  private expectedFor(session: object, id: string, cookie: string): string {
    const last = this.expected.get(session);
    if (last !== undefined && last.id === id && last.cookie === cookie) return last.token;
    const token = this.tokenFor(id, cookie);
    this.expected.set(session, { id, cookie, token });
    return token;
  }

  /**
   * A token checked against a session: "current" for the token of its id, "former" for that of
   * an id it rotated away from within the grace period (a tab not told of the rotation yet).
   * `cookies` is the request's Cookie header.
   */
  check(cookies: string | null, token: string | undefined, against: TokenHolder): TokenState {
    const { id, rotatedIds, session } = against;
    const cookie = csrfCookieIn(cookies);
    if (this.matchesCookie(cookie, token, id, session)) return "current";
    if (token === undefined || token === "" || cookie === undefined) return "wrong";
    for (const former of rotatedIds()) if (this.matchesCookie(cookie, token, former)) return "former";
    return "wrong";
  }

  /** The token of session id `id` under this request's CSRF cookie (undefined without one). */
  tokenOf(req: Request, id: string): string | undefined {
    const cookie = this.cookieOf(req);
    return cookie === undefined ? undefined : this.tokenFor(id, cookie);
  }

  /** Writes the CSRF cookie: __Host- prefixed in a Secure context. */
  setCookie(resp: Response, value: string, secure: boolean): Response {
    const name = secure ? HOST_PREFIX + CSRF_COOKIE : CSRF_COOKIE;
    return withRuledCookie(resp, { name, value, attributes: COOKIE_ATTRIBUTES }, { secureContext: secure });
  }

  /**
   * Whether the page response must set the cookie: a browser without one, or a Secure context
   * whose browser holds only the unprefixed spelling (moved to the __Host- one).
   */
  needsCookie(req: Request, secure: boolean): boolean {
    if (this.cookieOf(req) === undefined) return true;
    return secure && getCookie(HOST_PREFIX + CSRF_COOKIE, req) === undefined;
  }
}
