/**
 * The browser client as the app serves it (docs/protocol.md#the-client-script): the page names the
 * bundle's digest in the script's URL, so a browser keeps that URL's script for good and never
 * asks again, and a new bundle is a new URL. A URL without the digest (or with another one, from a
 * page rendered before a deploy) is revalidated on every use, and the ETag makes that a 304.
 */
import { CLIENT_QUERY, CLIENT_VERSION_PARAM } from "../../../protocol/mod.ts";
import { CLIENT_BUNDLE, CLIENT_BUNDLE_VERSION } from "../../../generated/client-bundle.ts";

/** The query the page loads the client with, on its own URL: `_svc=client.js&v=<digest>`. */
export const CLIENT_SCRIPT_QUERY = `${CLIENT_QUERY}&${CLIENT_VERSION_PARAM}=${CLIENT_BUNDLE_VERSION}`;

const ETAG = `"${CLIENT_BUNDLE_VERSION}"`;
const FOR_GOOD = "public, max-age=31536000, immutable";

/** The client script for this request: 304 when the browser holds this bundle already. */
export function clientScript(req: Request): Response {
  const versioned = new URL(req.url).searchParams.get(CLIENT_VERSION_PARAM) === CLIENT_BUNDLE_VERSION;
  const headers = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": versioned ? FOR_GOOD : "no-cache",
    ETag: ETAG,
  };
  if (holdsThisBundle(req.headers.get("If-None-Match"))) return new Response(null, { status: 304, headers });
  return new Response(CLIENT_BUNDLE, { headers });
}

/** Whether an If-None-Match header names this bundle's ETag (weakly or not) or any (`*`). */
function holdsThisBundle(header: string | null): boolean {
  if (header === null) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed === ETAG || trimmed === `W/${ETAG}`;
  });
}
