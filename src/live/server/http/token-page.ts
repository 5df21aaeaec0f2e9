/**
 * The page of a token-session app (docs/protocol.md#token-sessions): which session a page load
 * names, and the reply's headers. The page sets no cookie; it hands the session's first token to
 * the client in the `svc-session-token` meta (src/live/server/http/page.ts) and in the X-Svc-Session
 * header, and says `Referrer-Policy: no-referrer` and `Cache-Control: no-store`, so the token never
 * leaves in a Referer or stays in a cache.
 */
import { SESSION_HEADER } from "../../../protocol/mod.ts";
import type { RouteContext } from "./route-context.ts";
import { readSessionId } from "../access/session-cookies.ts";

/** A page load whose X-Svc-Session header is not a valid token of this app. */
export const BAD_TOKEN = Symbol("bad token");

/**
 * The session a page load names: its cookie's; in a token app, its token's (a browser's own page
 * load sends none and gets a new session), or BAD_TOKEN.
 */
export function pageSessionId<Model>(parts: RouteContext<Model>, req: Request): string | undefined | typeof BAD_TOKEN {
  if (parts.tokens === undefined) return readSessionId(req, parts.cookieName);
  const read = parts.tokens.read(req);
  return read.kind === "session" ? read.id : read.kind === "bad" ? BAD_TOKEN : undefined;
}

/** A token page's reply: no cookie, the token in a header, no referrer, no caching. */
export function tokenPageReply<Model>(
  parts: RouteContext<Model>,
  req: Request,
  resp: Response,
  page: { readonly token: string; readonly signOut: boolean },
): Response {
  resp.headers.set("Referrer-Policy", "no-referrer");
  resp.headers.set(SESSION_HEADER, page.token);
  // A signed-out visitor of an app that binds users from a sign-in cookie: that cookie is cleared.
  return page.signOut ? parts.access.clearTokenCookie(resp, req) : resp;
}
