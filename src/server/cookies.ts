/**
 * Cookie helpers of the HTTP server module (std-auth.md §Cookie helpers).
 *
 * Values are percent-encoded on write and decoded on read, so a value can never carry a ";" or a
 * newline into the Set-Cookie line and inject attributes. Names are fixed by the application and
 * must be RFC 6265 tokens; a bad name is a programming error and throws at the call.
 */
export type Cookie = { readonly name: string; readonly value: string };

/** The attributes Server.addCookie gives every cookie (std-auth.md §Cookie helpers). */
export const DEFAULT_COOKIE_ATTRIBUTES = "Path=/; HttpOnly; SameSite=Lax";

const tokenName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function checkName(name: string): string {
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

/** The four-argument form, the only one (std-auth.md §Versioning 3): attrs are passed through. */
export function withCookie(name: string, value: string, attrs: string, resp: Response): Response {
  const line = `${checkName(name)}=${encodeCookieValue(value)}`;
  const trimmed = typeof attrs === "string" ? attrs.trim().replace(/^;\s*/, "") : "";
  const target = withMutableHeaders(resp);
  target.headers.append("Set-Cookie", trimmed === "" ? line : `${line}; ${trimmed}`);
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

export function cookie(name: string, value: string): Cookie {
  return { name: checkName(name), value };
}

export function addCookie(c: Cookie, resp: Response): Response {
  return withCookie(c.name, c.value, DEFAULT_COOKIE_ATTRIBUTES, resp);
}

/** Every cookie of a request, first occurrence of a name winning (RFC 6265 §5.4 ordering). */
export function parseCookieHeader(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name !== "" && !cookies.has(name)) cookies.set(name, decodeCookieValue(pair.slice(eq + 1).trim()));
  }
  return cookies;
}

/** Parsed once per request: a live event reads several cookies of the same header. */
const parsedCookies = new WeakMap<Request, Map<string, string>>();

/** The cookie's value, or undefined when the request does not carry it. */
export function getCookie(name: string, req: Request): string | undefined {
  let cookies = parsedCookies.get(req);
  if (cookies === undefined) {
    cookies = parseCookieHeader(req.headers.get("Cookie"));
    parsedCookies.set(req, cookies);
  }
  return cookies.get(name);
}
