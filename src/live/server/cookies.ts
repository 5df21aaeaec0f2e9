/**
 * The live app's cookies (live-input-authority.md §Authentication 1, 5): the session cookie
 * (svc_sid, or svc_<name>_sid; __Host- prefixed when Secure, both spellings read) and the CSRF
 * cookie __svc_csrf. The Secure attribute itself is added by the Secure-cookie rule middleware.
 */
import { getCookie, withCookie } from "../../server/cookies.ts";
import { constantTimeEqual } from "../../auth/constant-time.ts";
import { CSRF_COOKIE, HOST_PREFIX } from "../../protocol/mod.ts";

export function readSessionId(req: Request, cookieName: string): string | undefined {
  return getCookie(HOST_PREFIX + cookieName, req) ?? getCookie(cookieName, req);
}

export function setSessionCookie(resp: Response, cookieName: string, id: string, secure: boolean): Response {
  return withCookie(secure ? HOST_PREFIX + cookieName : cookieName, id, "Path=/; HttpOnly; SameSite=Lax", resp);
}

export function clearSessionCookie(resp: Response, cookieName: string, secure: boolean): Response {
  return withCookie(secure ? HOST_PREFIX + cookieName : cookieName, "", "Path=/; HttpOnly; SameSite=Lax; Max-Age=0", resp);
}

export function readCsrfCookie(req: Request): string | undefined {
  return getCookie(CSRF_COOKIE, req);
}

export function setCsrfCookie(resp: Response, token: string): Response {
  return withCookie(CSRF_COOKIE, token, "Path=/; HttpOnly; SameSite=Strict", resp);
}

/**
 * The double-submit check (§Authentication 5): the token the page script sends (header, or the
 * beacon's body field) must equal the __svc_csrf cookie, compared in constant time. A cross-site
 * page can neither read that cookie nor set the header.
 */
export function csrfMatches(req: Request, token: string | undefined): boolean {
  const cookie = readCsrfCookie(req);
  return cookie !== undefined && cookie !== "" && token !== undefined && constantTimeEqual(cookie, token);
}
