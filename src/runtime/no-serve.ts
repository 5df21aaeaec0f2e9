/**
 * Serving turned off, for `svc-live doctor`, which imports an app's module to inspect it
 * (docs/live-apps.md#serving): a server entry that calls `serve()`, `Bun.serve` or `Deno.serve` at
 * import must not take its port or keep the process alive. While it is off, Node's
 * `net.Server.prototype.listen` (which @hono/node-server and node:http use) does nothing, and
 * `Bun.serve` and `Deno.serve` return a server that serves nothing. The returned function turns
 * serving back on.
 */
import { Server } from "node:net";

type Serving = { serve?: (...args: unknown[]) => unknown };

/** A stand-in server: the fields and methods callers read after serve(). */
const idleServer = {
  port: 0,
  hostname: "localhost",
  url: new URL("http://localhost/"),
  addr: { port: 0, hostname: "localhost", transport: "tcp" },
  finished: Promise.resolve(),
  stop: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
  ref: () => {},
  unref: () => {},
};

export function turnServingOff(): () => void {
  const restores: Array<() => void> = [];
  const listen = Server.prototype.listen;
  Server.prototype.listen = function idle(this: Server) {
    return this;
  } as typeof listen;
  restores.push(() => void (Server.prototype.listen = listen));
  for (const name of ["Bun", "Deno"] as const) {
    const host = (globalThis as Record<string, unknown>)[name] as Serving | undefined;
    if (host === undefined || typeof host.serve !== "function") continue;
    const serve = host.serve;
    try {
      Object.defineProperty(host, "serve", { value: () => idleServer, configurable: true, writable: true });
      restores.push(() => Object.defineProperty(host, "serve", { value: serve, configurable: true, writable: true }));
    } catch {
      // A runtime whose serve cannot be replaced: the command exits when it is done all the same.
    }
  }
  return () => restores.forEach((restore) => restore());
}
