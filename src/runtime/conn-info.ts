/**
 * The address of the peer at the other end of a request's connection, read from the bindings the
 * server runtime passes as the request's env, the way Hono's own `getConnInfo` helpers read them:
 * @hono/node-server's `incoming` request on Node (and under Bun or Deno when they run
 * @hono/node-server), Bun.serve's server (`requestIP`), Deno.serve's handler info (`remoteAddr`).
 *
 * The readers are written out here rather than imported: `hono/bun` and `hono/deno` touch their
 * runtime's globals when loaded, so they could only be loaded with a top-level await (which
 * bundlers and require() of the package refuse), and @hono/node-server is the Node adapter, not
 * something an app on Bun or Deno should have to install.
 */
import type { Context } from "hono";
import { runtimeName } from "./detect.ts";

type GetConnInfo = (c: Context) => { readonly remote: { readonly address?: string | undefined } };
type Bindings = Record<string, unknown>;

/** @hono/node-server: `env.incoming` (or `env.server.incoming`) is Node's IncomingMessage. */
const nodeConnInfo: GetConnInfo = (c) => {
  const env = c.env as Bindings & { server?: Bindings };
  const bindings = (env.server ?? env) as { incoming?: { socket?: { remoteAddress?: string } } };
  return { remote: { address: bindings.incoming?.socket?.remoteAddress } };
};

/** Bun.serve: the env is the server (or holds it as `server`); `requestIP` answers per request. */
const bunConnInfo: GetConnInfo = (c) => {
  const env = c.env as Bindings;
  const server = ("server" in env ? env["server"] : env) as { requestIP?: (req: Request) => { address?: string } | null };
  return { remote: { address: server.requestIP?.(c.req.raw)?.address } };
};

/** Deno.serve: the env is the handler info, with the peer in `remoteAddr`. */
const denoConnInfo: GetConnInfo = (c) => {
  const { remoteAddr } = c.env as { remoteAddr?: { hostname?: string } };
  return { remote: { address: remoteAddr?.hostname } };
};

const native: GetConnInfo | undefined = runtimeName === "bun" ? bunConnInfo : runtimeName === "deno" ? denoConnInfo : undefined;

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
  return (native === undefined ? undefined : addressFrom(native, c)) ?? addressFrom(nodeConnInfo, c);
}
