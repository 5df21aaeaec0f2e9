/**
 * Where the live app is mounted (docs/protocol.md#mounting), read from the request: the base
 * another Hono app's `route(path, live)` put it under, the page's path within the app, and the
 * browser client asked for through any page's URL with `?_svc=client.js` or `?_svc=split.js` (served by
 * src/live/server/http/client-script.ts).
 */
import type { Context } from "hono";
import { basePath as routeBase } from "hono/route";
import { CLIENT_QUERY_NAME, CLIENT_QUERY_VALUE, SPLIT_CLIENT_QUERY_VALUE } from "../../../protocol/mod.ts";

/** The browser client a page URL asks for: `?_svc=client.js` the live one, `?_svc=split.js` the split one. */
export function clientAsked(url: string): "live" | "split" | undefined {
  if (!url.includes(`${CLIENT_QUERY_NAME}=`)) return undefined;
  const asked = new URL(url).searchParams.get(CLIENT_QUERY_NAME);
  return asked === CLIENT_QUERY_VALUE ? "live" : asked === SPLIT_CLIENT_QUERY_VALUE ? "split" : undefined;
}

/**
 * Where another Hono app's `route(path, live)` put this app's routes ("" when it did not): the
 * matched route's base, its parameters filled in.
 */
export function mountOf(c: Context): string {
  const base = routeBase(c);
  return base === "/" ? "" : base;
}

/** The page's path within the app: its URL's path without the base, "/" at the app's root. */
export function pathWithin(url: string, base: string): string {
  const path = pathOf(url);
  return path.startsWith(base) ? path.slice(base.length) || "/" : path;
}

/** The path of a request URL (what the router matches), without building a URL object. */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.indexOf("?", start);
  if (end < 0) end = url.indexOf("#", start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}
