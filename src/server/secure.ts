/**
 * The Secure-cookie rule (docs/auth.md#secure-rule): applied by each of the library's cookie
 * writers as it writes the line (withRuledCookie, applySecureRule), and by the secureCookies() Hono
 * middleware to every cookie of the routes it wraps (an app's own, and those added to a live app).
 *
 * "; Secure" is added exactly once when the request came over HTTPS (an https URL,
 * X-Forwarded-Proto: https, X-Forwarded-Ssl: on) or the production gate is on. A __Host- or
 * __Secure- name, or SameSite=None, is Secure whatever the signals. Plain HTTP with no production
 * signal adds nothing.
 */
import type { MiddlewareHandler } from "hono";
import { setCookieLine, withMutableHeaders } from "./cookies.ts";
import { replaceResponse } from "./hono-response.ts";
import { productionGateOn } from "./production.ts";

/**
 * Whether the request came over HTTPS: an https: URL, `X-Forwarded-Proto: https` or
 * `X-Forwarded-Ssl: on` (docs/auth.md#secure-rule). Trust the forwarded headers only behind a
 * proxy that sets them (docs/deployment.md#https-and-secure-cookies-behind-a-proxy).
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 *
 * const req = new Request("http://10.0.0.5/", { headers: { "X-Forwarded-Proto": "https" } });
 * console.log(Server.isHttpsRequest(req)); // true: the proxy in front took HTTPS
 * ```
 */
export function isHttpsRequest(req: Request): boolean {
  if (req.url.startsWith("https:")) return true;
  const proto = req.headers.get("X-Forwarded-Proto");
  if (proto !== null && proto.split(",")[0]!.trim().toLowerCase() === "https") return true;
  return (req.headers.get("X-Forwarded-Ssl") ?? "").trim().toLowerCase() === "on";
}

function attributesOf(line: string): string[] {
  return line.split(";").slice(1).map((part) => part.trim().toLowerCase());
}

/** Whether this Set-Cookie line must carry Secure whatever the transport. */
export function alwaysSecure(line: string): boolean {
  const name = line.slice(0, line.indexOf("=")).trim();
  if (name.startsWith("__Host-") || name.startsWith("__Secure-")) return true;
  return attributesOf(line).some((attr) => attr.replace(/\s+/g, "") === "samesite=none");
}

/** Adds "; Secure" to one Set-Cookie line when the rule asks for it and it is not there yet. */
export function applySecureRule(line: string, secureContext: boolean): string {
  if (!secureContext && !alwaysSecure(line)) return line;
  if (attributesOf(line).some((attr) => attr === "secure" || attr.startsWith("secure="))) return line;
  return `${line}; Secure`;
}

/** A cookie to write: its name, its value (percent-encoded when written) and its attributes. */
export type CookieSpec = { readonly name: string; readonly value: string; readonly attributes: string };

/**
 * The response with a cookie set and Secure added by the rule as the line is written, so that no
 * middleware has to read the response's headers back (on a server adapter with lazy responses,
 * @hono/node-server's, reading them builds the whole Response). `secureContext`: the request's
 * {@link secureContextOf}.
 */
export function withRuledCookie(resp: Response, cookie: CookieSpec, rule: { readonly secureContext: boolean }): Response {
  const target = withMutableHeaders(resp);
  target.headers.append("Set-Cookie", applySecureRule(setCookieLine(cookie.name, cookie.value, cookie.attributes), rule.secureContext));
  return target;
}

/** Whether responses to this request get Secure cookies: HTTPS, or the production gate. */
export function secureContextOf(req: Request, prefix?: string): boolean {
  return isHttpsRequest(req) || productionGateOn(prefix);
}

/** Rewrites every Set-Cookie header of a response by the rule. */
export function secureResponseCookies(req: Request, resp: Response, prefix?: string): Response {
  const lines = resp.headers.getSetCookie();
  if (lines.length === 0) return resp;
  const secure = secureContextOf(req, prefix);
  const rewritten = lines.map((line) => applySecureRule(line, secure));
  if (rewritten.every((line, i) => line === lines[i])) return resp;
  const target = withMutableHeaders(resp);
  target.headers.delete("Set-Cookie");
  for (const line of rewritten) target.headers.append("Set-Cookie", line);
  return target;
}

/**
 * The Secure-cookie rule as Hono middleware (docs/auth.md#secure-rule): every Set-Cookie of every
 * response gets `; Secure` once over HTTPS or with the production gate on. `Live.app` and the
 * session middlewares install it themselves; use it for an app's own routes that set cookies.
 * `prefix` names the app's <PREFIX>_ENV variable.
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const app = new Hono();
 * app.use(Server.secureCookies());
 * app.get("/hello", (c) => Server.addCookie(Server.cookie("visited", "1"), c.text("hi")));
 * ```
 */
export function secureCookies(options: { prefix?: string } = {}): MiddlewareHandler {
  return async (c, next) => {
    await next();
    replaceResponse(c, secureResponseCookies(c.req.raw, c.res, options.prefix));
  };
}
