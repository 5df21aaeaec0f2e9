/**
 * The browser clients as the app serves them (docs/protocol.md#the-client-script): the live client
 * and the split client (docs/protocol.md#the-split-client). The page names the bundle's digest in
 * the script's URL, so a browser keeps that URL's script for good and never asks again, and a new
 * bundle is a new URL. A URL without the digest (or with another one, from a page rendered before a
 * deploy) is revalidated on every use, and the ETag makes that a 304.
 *
 * Each answer is compressed when the request accepts it (brotli, else gzip; src/live/server/app/
 * client-encodings.ts), with `Vary: Accept-Encoding` and an ETag per coding, so a cache never hands
 * one coding's bytes to a request that asked for another.
 */
import { CLIENT_QUERY_NAME, CLIENT_QUERY_VALUE, CLIENT_VERSION_PARAM, SPLIT_CLIENT_QUERY_VALUE } from "../../../protocol/mod.ts";
import { CLIENT_BUNDLE, CLIENT_BUNDLE_VERSION } from "../../../generated/client-bundle.ts";
import { SPLIT_BUNDLE, SPLIT_BUNDLE_VERSION } from "../../../generated/split-bundle.ts";
import { chooseCoding, encodedBundle } from "./client-encodings.ts";

/** Which browser client a page loads: the live client, or the split client that keeps the page's tree. */
export type ClientKind = "live" | "split";

const BUNDLES: Record<ClientKind, { readonly text: string; readonly version: string; readonly query: string }> = {
  live: { text: CLIENT_BUNDLE, version: CLIENT_BUNDLE_VERSION, query: CLIENT_QUERY_VALUE },
  split: { text: SPLIT_BUNDLE, version: SPLIT_BUNDLE_VERSION, query: SPLIT_CLIENT_QUERY_VALUE },
};

/** The query a page loads its client with, on its own URL: `_svc=client.js&v=<digest>` (or `split.js`). */
export function clientScriptQuery(kind: ClientKind): string {
  const bundle = BUNDLES[kind];
  return `${CLIENT_QUERY_NAME}=${bundle.query}&${CLIENT_VERSION_PARAM}=${bundle.version}`;
}

const FOR_GOOD = "public, max-age=31536000, immutable";

/**
 * A client's script for this request: 304 when the browser holds this bundle in the coding it
 * would get, else the bundle, compressed when the request accepts it.
 */
export async function clientScript(req: Request, kind: ClientKind = "live"): Promise<Response> {
  const bundle = BUNDLES[kind];
  const coding = chooseCoding(req.headers.get("Accept-Encoding"));
  const body = coding === undefined ? undefined : await encodedBundle(bundle.text, bundle.version, coding);
  const encoded = coding !== undefined && body !== undefined;
  const etag = encoded ? `"${bundle.version}-${coding}"` : `"${bundle.version}"`;
  const versioned = new URL(req.url).searchParams.get(CLIENT_VERSION_PARAM) === bundle.version;
  const headers: Record<string, string> = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": versioned ? FOR_GOOD : "no-cache",
    ETag: etag,
    Vary: "Accept-Encoding",
  };
  if (holdsBundle(req.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  if (!encoded) return new Response(bundle.text, { headers });
  headers["Content-Encoding"] = coding;
  headers["Content-Length"] = String(body.byteLength);
  return new Response(body as Uint8Array<ArrayBuffer>, { headers });
}

/** Whether an If-None-Match header names this bundle's ETag (weakly or not) or any (`*`). */
function holdsBundle(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed === etag || trimmed === `W/${etag}`;
  });
}
