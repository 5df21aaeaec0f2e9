/**
 * Serves a Web-standard fetch handler on one address of this machine, for the desktop mode
 * (docs/desktop.md): Bun.serve on Bun, Deno.serve on Deno, and on Node the Hono adapter
 * `@hono/node-server` (an optional peer: loaded only here, when the desktop mode runs on Node).
 * Port 0 asks the system for a free port; the answer says which it gave.
 */
import { runtimeName } from "./detect.ts";

/** A server listening; `close` stops it (open connections are cut). */
export type Listening = { readonly port: number; close(): Promise<void> };

export type FetchHandler = (req: Request) => Response | Promise<Response>;

type BunServer = { port: number; stop(closeActive?: boolean): void | Promise<void> };
type BunGlobal = { serve(options: { hostname: string; port: number; fetch: FetchHandler; idleTimeout?: number }): BunServer };
type DenoServer = { addr: { port: number }; shutdown(): Promise<void> };
type DenoGlobal = {
  serve(options: { hostname: string; port: number; onListen?: (addr: { port: number }) => void }, handler: FetchHandler): DenoServer;
};

/** Listens on `hostname:port` (port 0: a free one). */
export async function listen(handler: FetchHandler, hostname: string, port = 0): Promise<Listening> {
  const g = globalThis as unknown as { Bun?: BunGlobal; Deno?: DenoGlobal };
  if (runtimeName === "bun") {
    // idleTimeout 0: an SSE stream may stay quiet between heartbeats.
    const server = g.Bun!.serve({ hostname, port, fetch: handler, idleTimeout: 0 });
    return { port: server.port, close: async () => void (await server.stop(true)) };
  }
  if (runtimeName === "deno") {
    const server = g.Deno!.serve({ hostname, port, onListen: () => {} }, handler);
    return { port: server.addr.port, close: () => server.shutdown() };
  }
  return listenOnNode(handler, hostname, port);
}

async function listenOnNode(handler: FetchHandler, hostname: string, port: number): Promise<Listening> {
  let adapter: { serve: (options: object, onListen: (info: { port: number }) => void) => NodeLikeServer };
  try {
    adapter = (await import("@hono/node-server")) as typeof adapter;
  } catch {
    throw new Error("the desktop mode on Node needs the @hono/node-server package: npm install @hono/node-server");
  }
  return await new Promise<Listening>((resolve, reject) => {
    const server = adapter.serve({ fetch: handler, hostname, port }, (info) =>
      resolve({
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      }));
    server.once?.("error", reject);
  });
}

type NodeLikeServer = {
  close(callback?: () => void): void;
  closeAllConnections?: () => void;
  once?: (event: string, listener: (error: unknown) => void) => void;
};
