/**
 * The live app's cookies (docs/protocol.md#sessions-and-cookies): the session cookie
 * (svc_sid, or svc_<name>_sid; __Host- prefixed when Secure, both spellings read). The CSRF cookie
 * is src/live/server/http/csrf.ts's. The Secure attribute itself is added by the Secure-cookie rule
 * middleware.
 */
import { cookieIn, withCookie } from "../../../server/cookies.ts";
import { HOST_PREFIX } from "../../../protocol/mod.ts";

export function readSessionId(req: Request, cookieName: string): string | undefined {
  return sessionIdIn(req.headers.get("Cookie"), cookieName);
}

/** The session id in a request's Cookie header (read once by a caller that needs more of it). */
export function sessionIdIn(cookies: string | null, cookieName: string): string | undefined {
  return cookieIn(cookies, HOST_PREFIX + cookieName, cookieName);
}

export function setSessionCookie(resp: Response, cookieName: string, id: string, secure: boolean): Response {
  return withCookie(secure ? HOST_PREFIX + cookieName : cookieName, id, "Path=/; HttpOnly; SameSite=Lax", resp);
}

export function clearSessionCookie(resp: Response, cookieName: string, secure: boolean): Response {
  return withCookie(secure ? HOST_PREFIX + cookieName : cookieName, "", "Path=/; HttpOnly; SameSite=Lax; Max-Age=0", resp);
}
