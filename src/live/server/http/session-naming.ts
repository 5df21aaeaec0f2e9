/**
 * How a live app's requests name their session (docs/auth.md#choosing-a-session-type): by the
 * session cookie, or, for an app built with `{ session: "token" }`, by the signed token in the
 * X-Svc-Session header (src/live/server/http/session-tokens.ts). The routes ask `sessionIdOf` and do
 * not know which, except the event route of a cookie app: it reads the Cookie header once for the
 * session's id and the CSRF cookie both.
 */
import { readSessionId } from "../access/session-cookies.ts";
import type { CsrfTokens } from "./csrf.ts";
import { DEFAULT_SESSION_TOKEN_SECONDS, SessionTokens } from "./session-tokens.ts";

/** What of the app's options says how its requests name their session (src/live/server/app/options.ts). */
export type NamingOptions = {
  readonly session?: "cookie" | "token";
  readonly sessionTokenSeconds?: number;
  readonly name?: string;
  readonly client?: "live" | "split";
};

/** The app's session tokens, or undefined for a cookie app; a bad `session` option throws. */
export function sessionTokensFor(options: NamingOptions, csrf: CsrfTokens, now: () => number): SessionTokens | undefined {
  const kind = options.session ?? "cookie";
  if (kind !== "cookie" && kind !== "token") {
    throw new TypeError(`Live.app: session must be "cookie" or "token", not ${JSON.stringify(kind)}`);
  }
  if (kind === "cookie") {
    if (options.sessionTokenSeconds !== undefined) throw new TypeError(`Live.app: sessionTokenSeconds needs session: "token"`);
    return undefined;
  }
  return new SessionTokens({
    // Its own key, derived from the app's: a session token is never a token of the app's sign-in.
    key: csrf.derivedKey("live-session-token"),
    app: options.name ?? "",
    lifetimeSeconds: options.sessionTokenSeconds ?? DEFAULT_SESSION_TOKEN_SECONDS,
    now,
  });
}

/**
 * The browser client a page loads: the `client` option, else the split client for a token app
 * (only it holds a Session field; the live client cannot name a token session), else the live one.
 */
export function clientFor(options: NamingOptions, tokens: boolean): "live" | "split" {
  if (tokens && options.client === "live") {
    throw new TypeError('Live.app: session "token" needs the split client (client: "split", the default for it)');
  }
  return options.client ?? (tokens ? "split" : "live");
}

/** Reads the secret id of the session a request names. */
export function sessionIdReader(tokens: SessionTokens | undefined, cookieName: string): (req: Request) => string | undefined {
  return tokens === undefined ? (req) => readSessionId(req, cookieName) : (req) => tokens.idOf(req);
}
