/**
 * The same-origin check of the live endpoints that act on a session (docs/security.md#origin):
 * events and the unload beacon, the resync render and the rotation exchange. A browser names the
 * page that made a request in `Origin` (on every POST, and on cross-origin GETs) or, for a
 * same-origin GET, in `Sec-Fetch-Site`. A request naming another origin is refused whatever
 * token it carries; a request with neither header (not a browser, or an old one) is left to the
 * CSRF token.
 *
 * The app's own origin is the request URL's, and its https form when the request came over a
 * TLS-ending proxy (X-Forwarded-Proto, the same signal the Secure-cookie rule trusts). A proxy that
 * rewrites the host makes the browser's origin differ from the URL the app sees: list the public
 * origins in the `allowedOrigins` option.
 */
import { isHttpsRequest } from "../../../server/secure.ts";

export type OriginCheck = (req: Request) => boolean;

/** Checks the allow-list once; a value that is not an origin ("https://host[:port]") throws. */
export function originCheck(allowedOrigins: readonly string[] | undefined): OriginCheck {
  const allowed = new Set<string>();
  for (const origin of allowedOrigins ?? []) {
    let parsed: string | undefined;
    try {
      parsed = typeof origin === "string" ? new URL(origin).origin : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || parsed === "null" || parsed !== origin) {
      throw new TypeError(`Live.app: allowedOrigins entry ${JSON.stringify(origin)} is not an origin such as "https://app.example.com"`);
    }
    allowed.add(parsed);
  }
  return (req) => {
    const origin = req.headers.get("Origin");
    if (origin !== null) return allowed.has(origin) || isOwnOrigin(req, origin);
    const site = req.headers.get("Sec-Fetch-Site");
    return site === null || site === "same-origin";
  };
}

function isOwnOrigin(req: Request, origin: string): boolean {
  const url = req.url;
  const hostStart = url.indexOf("//") + 2;
  let end = url.indexOf("/", hostStart);
  if (end < 0) end = url.length;
  if (origin.length === end && url.startsWith(origin)) return true;
  // Behind a proxy that ends TLS the app sees http://host; the browser's page is https://host.
  return isHttpsRequest(req) && origin.startsWith("https://") && origin.slice(8) === url.slice(hostStart, end);
}
