/**
 * The address of the peer at the other end of a request's connection, as the server runtime
 * reports it through Hono's own `getConnInfo` helpers: @hono/node-server's bindings on Node (and
 * under Bun or Deno when they run @hono/node-server), Bun.serve's server, Deno.serve's handler
 * info. `hono/bun` and `hono/deno` read their runtime's globals when loaded, so each is loaded on
 * its own runtime only.
 */
import type { Context } from "hono";
import { getConnInfo as nodeConnInfo } from "@hono/node-server/conninfo";
import { runtimeName } from "./detect.ts";

type GetConnInfo = (c: Context) => { readonly remote: { readonly address?: string | undefined } };

const native: GetConnInfo | undefined =
  runtimeName === "bun"
    ? ((await import("hono/bun")).getConnInfo as GetConnInfo)
    : runtimeName === "deno"
      ? ((await import("hono/deno")).getConnInfo as GetConnInfo)
      : undefined;

function addressFrom(getConnInfo: GetConnInfo, c: Context): string | undefined {
  try {
    const address = getConnInfo(c).remote.address;
    return typeof address === "string" && address !== "" ? address : undefined;
  } catch {
    // The bindings this helper reads are not there (a bare app.fetch call, another host).
    return undefined;
  }
}

/**
 * The connection's peer address, or undefined when the host did not pass its connection bindings
 * (a plain `app.fetch(request)` call, a host without them).
 */
export function connectionAddress(c: Context): string | undefined {
  if (c.env === undefined || c.env === null || typeof c.env !== "object") return undefined;
  return (native === undefined ? undefined : addressFrom(native, c)) ?? addressFrom(nodeConnInfo as GetConnInfo, c);
}
