/**
 * Cookie helpers of the HTTP server module (docs/auth.md#cookies).
 *
 * Values are percent-encoded on write and decoded on read, so a value can never carry a ";" or a
 * newline into the Set-Cookie line and inject attributes. Names are fixed by the application and
 * must be RFC 6265 tokens; a bad name is a programming error and throws at the call.
 */
import type { Context } from "hono";

/** A cookie's name and value (`Server.cookie`). */
export type Cookie = {
  /** The cookie's name, a cookie token. */
  readonly name: string;
  /** Its value, percent-encoded when written. */
  readonly value: string;
};

/** The request of a Hono handler's context, or the request itself: every helper takes either. */
export function requestOf(reqOrContext: Request | Context): Request {
  return "headers" in reqOrContext ? reqOrContext : reqOrContext.req.raw;
}

/** The attributes Server.addCookie gives every cookie (docs/auth.md#cookies). */
export const DEFAULT_COOKIE_ATTRIBUTES = "Path=/; HttpOnly; SameSite=Lax";

const tokenName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function checkName(name: string): string {
  if (typeof name !== "string" || !tokenName.test(name)) throw new TypeError(`invalid cookie name: ${JSON.stringify(name)}`);
  return name;
}

export function encodeCookieValue(value: string): string {
  return encodeURIComponent(String(value));
}

export function decodeCookieValue(raw: string): string {
  // Most values (session ids, tokens) hold no escape: nothing to decode.
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Responses made by fetch() have immutable headers; such a response is copied once. */
export function withMutableHeaders(resp: Response): Response {
  try {
    resp.headers.append("X-Svc-Probe", "1");
    resp.headers.delete("X-Svc-Probe");
    return resp;
  } catch {
    return new Response(resp.body, { status: resp.status, statusText: resp.statusText, headers: new Headers(resp.headers) });
  }
}

/** Responses `withCookie` wrote a cookie to (see `cookieWritten`). */
const withCookies = new WeakSet<Response>();

/**
 * A Set-Cookie line: the checked name, the percent-encoded value, then the attributes verbatim.
 * Not hono's `serialize`, which takes attributes as options and refuses a `__Host-` name unless
 * Secure is set as it writes the line: here Secure is added per request afterwards, by the
 * Secure-cookie rule (src/server/secure.ts), and an app's attribute string is passed through.
 */
export function setCookieLine(name: string, value: string, attrs: string): string {
  const pair = `${checkName(name)}=${encodeCookieValue(value)}`;
  const trimmed = typeof attrs === "string" ? attrs.trim().replace(/^;\s*/, "") : "";
  return trimmed === "" ? pair : `${pair}; ${trimmed}`;
}

/**
 * The response with a cookie set (docs/auth.md#cookies): the value percent-encoded, `attrs`
 * passed through as written, and Secure added by the Secure rule.
 *
 * @throws {TypeError} for a name that is not a cookie token
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 *
 * // A short-lived flash message, readable by the next page only.
 * const afterSave = Server.withCookie("flash", "Saved.", "Path=/; HttpOnly; SameSite=Lax; Max-Age=10", Response.redirect("https://app.example.com/", 303));
 * ```
 */
export function withCookie(name: string, value: string, attrs: string, resp: Response): Response {
  const target = withMutableHeaders(resp);
  target.headers.append("Set-Cookie", setCookieLine(name, value, attrs));
  withCookies.add(target);
  return target;
}

/**
 * Whether `withCookie` wrote a cookie to this response. A handler whose responses get cookies only
 * from `withCookie` can skip reading the headers of the others: on a server adapter with lazy
 * responses (@hono/node-server's), reading `headers` builds the whole Response it stands for, which
 * cost a live event over HTTP more than the event's own work (bench/live.bench.ts, HTTP).
 */
export function cookieWritten(resp: Response): boolean {
  return withCookies.has(resp);
}

/**
 * A cookie to add to a response with {@link addCookie}: its name (checked against the cookie-name
 * grammar) and value.
 *
 * @throws {TypeError} for a name that is not a cookie token
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 *
 * const lang = Server.cookie("lang", "fr");
 * const resp = Server.addCookie(lang, Server.text("langue changée"));
 * ```
 */
export function cookie(name: string, value: string): Cookie {
  return { name: checkName(name), value };
}

/**
 * The response with the cookie set, with the library's default attributes (Path=/, HttpOnly,
 * SameSite=Lax); see {@link withCookie} for other attributes.
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 *
 * const resp = Server.addCookie(Server.cookie("seen_intro", "1"), Server.json({ ok: true }));
 * ```
 */
export function addCookie(c: Cookie, resp: Response): Response {
  return withCookie(c.name, c.value, DEFAULT_COOKIE_ATTRIBUTES, resp);
}

/**
 * The cookie's value, or undefined when the request does not carry it: the first pair of that name
 * wins (RFC 6265 §5.4 ordering), names and values trimmed as String.prototype.trim trims. The
 * header is scanned in place, with no map built per request.
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const app = new Hono();
 * app.get("/", (c) => c.text(Server.getCookie("lang", c) === "fr" ? "Bonjour" : "Hello"));
 * ```
 */
export function getCookie(name: string, req: Request | Context): string | undefined {
  return cookieIn(requestOf(req).headers.get("Cookie"), name);
}

/**
 * The value of the first cookie named `name` in a Cookie header, else (given `fallback`) of the
 * first named `fallback`, or undefined: `cookieIn(h, a, b)` is `cookieIn(h, a) ?? cookieIn(h, b)`
 * in one scan, for a cookie read in both its spellings (the __Host- one first) on every event.
 */
export function cookieIn(header: string | null, name: string, fallback?: string): string | undefined {
  if (!header) return undefined;
  if (name === "") return fallback === undefined ? undefined : cookieIn(header, fallback);
  const other = fallback === "" ? undefined : fallback;
  // Where the first pair named `fallback` has its value, once one is passed.
  let otherFrom = -1, otherEnd = -1;
  // The next "=" at or after `start`, searched again only once the scan has passed it: pairs
  // without one ("a; b; c=1") would otherwise each rescan the rest of the header (quadratic).
  let eq = -1;
  for (let start = 0; start < header.length;) {
    let end = header.indexOf(";", start);
    if (end < 0) end = header.length;
    if (eq !== header.length && eq < start) {
      eq = header.indexOf("=", start);
      if (eq < 0) eq = header.length;
    }
    if (eq > start && eq < end) {
      let from = start, to = eq;
      while (from < to && isTrimmed(header.charCodeAt(from))) from++;
      while (to > from && isTrimmed(header.charCodeAt(to - 1))) to--;
      if (to - from === name.length && header.startsWith(name, from)) return decodeCookieValue(header.slice(eq + 1, end).trim());
      if (otherFrom < 0 && other !== undefined && to - from === other.length && header.startsWith(other, from)) {
        otherFrom = eq + 1;
        otherEnd = end;
      }
    }
    start = end + 1;
  }
  return otherFrom < 0 ? undefined : decodeCookieValue(header.slice(otherFrom, otherEnd).trim());
}

/** Whether String.prototype.trim removes this code unit (ECMAScript WhiteSpace and LineTerminator). */
function isTrimmed(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return code === 160 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}
