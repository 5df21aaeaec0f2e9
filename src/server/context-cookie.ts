/** Cookies written through a Hono handler's context. */
import type { Context } from "hono";
import { checkName, DEFAULT_COOKIE_ATTRIBUTES, encodeCookieValue } from "./cookies.ts";
import { applySecureRule, secureContextOf } from "./secure.ts";

/**
 * `withCookie` for a Hono handler: the cookie goes with the response the handler builds through
 * `c` (c.text, c.json, c.redirect…). Attributes default to `Path=/; HttpOnly; SameSite=Lax`; the
 * Secure rule applies as everywhere (docs/auth.md#secure-rule).
 *
 * @throws {TypeError} for a name that is not a cookie token
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const app = new Hono();
 * app.post("/theme", async (c) => {
 *   Server.setCookie(c, "theme", await Server.formValue("theme", c), "Path=/; SameSite=Lax; Max-Age=31536000");
 *   return c.redirect("/", 303);
 * });
 * ```
 */
export function setCookie(c: Context, name: string, value: string, attrs: string = DEFAULT_COOKIE_ATTRIBUTES): void {
  const trimmed = attrs.trim().replace(/^;\s*/, "");
  const line = `${checkName(name)}=${encodeCookieValue(value)}${trimmed === "" ? "" : `; ${trimmed}`}`;
  c.header("Set-Cookie", applySecureRule(line, secureContextOf(c.req.raw)), { append: true });
}
