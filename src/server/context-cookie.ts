/** Cookies written through a Hono handler's context. */
import type { Context } from "hono";
import { checkName, DEFAULT_COOKIE_ATTRIBUTES, encodeCookieValue } from "./cookies.ts";
import { applySecureRule, secureContextOf } from "./secure.ts";

/**
 * `withCookie` for a Hono handler: the cookie goes with the response the handler builds through
 * `c` (c.text, c.json, c.redirect…). Attributes default to `Path=/; HttpOnly; SameSite=Lax`; the
 * Secure rule applies as everywhere (src/server/secure.ts).
 */
export function setCookie(c: Context, name: string, value: string, attrs: string = DEFAULT_COOKIE_ATTRIBUTES): void {
  const trimmed = attrs.trim().replace(/^;\s*/, "");
  const line = `${checkName(name)}=${encodeCookieValue(value)}${trimmed === "" ? "" : `; ${trimmed}`}`;
  c.header("Set-Cookie", applySecureRule(line, secureContextOf(c.req.raw)), { append: true });
}
