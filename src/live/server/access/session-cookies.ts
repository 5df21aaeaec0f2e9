/**
 * The live app's cookies (docs/protocol.md#sessions-and-cookies): the session cookie
 * (svc_sid, or svc_<name>_sid; __Host- prefixed when Secure, both spellings read). The CSRF cookie
 * is src/live/server/http/csrf.ts's. Each is written with Secure by the Secure-cookie rule
 * (docs/auth.md#secure-rule): a Secure context's cookie is the __Host- one.
 */
import { cookieIn } from "../../../server/cookies.ts";
import { withRuledCookie } from "../../../server/secure.ts";
import { HOST_PREFIX } from "../../../protocol/mod.ts";

export function readSessionId(req: Request, cookieName: string): string | undefined {
  return sessionIdIn(req.headers.get("Cookie"), cookieName);
}

/** The session id in a request's Cookie header (read once by a caller that needs more of it). */
export function sessionIdIn(cookies: string | null, cookieName: string): string | undefined {
  return cookieIn(cookies, HOST_PREFIX + cookieName, cookieName);
}

/** `secure`: the request's Secure context (`RouteContext.secure`). */
export function setSessionCookie(resp: Response, cookieName: string, id: string, secure: boolean): Response {
  const name = secure ? HOST_PREFIX + cookieName : cookieName;
  return withRuledCookie(resp, { name, value: id, attributes: "Path=/; HttpOnly; SameSite=Lax" }, { secureContext: secure });
}

export function clearSessionCookie(resp: Response, cookieName: string, secure: boolean): Response {
  const name = secure ? HOST_PREFIX + cookieName : cookieName;
  return withRuledCookie(resp, { name, value: "", attributes: "Path=/; HttpOnly; SameSite=Lax; Max-Age=0" }, { secureContext: secure });
}
