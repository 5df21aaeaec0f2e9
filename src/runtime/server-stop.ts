/**
 * Stopping the server a runtime's serve call returned, for the graceful drain
 * (docs/deployment.md#draining): @hono/node-server's `serve` (a node:http Server), `Bun.serve` and
 * `Deno.serve`. Each stops accepting connections at once and lets the requests in flight finish;
 * what differs is how each reaches that state, so it lives here (CONTRIBUTING.md#conventions).
 */

/** A server as one of the three runtimes' serve calls returns it; anything else is refused. */
export type RuntimeServer = object;

/** What the drain does with a server: stop accepting, then close what is left. */
export type ServerStopper = {
  /** Which kind of server this is. */
  readonly kind: "node" | "bun" | "deno";
  /** Stops accepting connections; connections already open stay and finish their requests. */
  stopAccepting(): void;
  /**
   * Settles once every connection has ended (idle keep-alive connections are closed here), or
   * after `timeoutMs`, when what is left is closed by force.
   */
  finish(timeoutMs: number): Promise<void>;
  /**
   * Whether responses should carry `Connection: close` while draining, so that each kept-alive
   * connection ends after its next answer (node:http honours it; Bun and Deno end their
   * connections themselves once they stop).
   */
  readonly closeHeader: boolean;
};

type NodeServer = {
  close(callback?: (error?: Error) => void): unknown;
  closeIdleConnections(): void;
  closeAllConnections(): void;
};
type BunServer = { stop(closeActiveConnections?: boolean): unknown; readonly pendingRequests: number };
type DenoServer = { shutdown(): Promise<void>; readonly finished: Promise<void> };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether `done` settles within `ms`. */
async function settlesWithin(done: Promise<unknown>, ms: number): Promise<boolean> {
  return await Promise.race([done.then(() => true), sleep(ms).then(() => false)]);
}

/** The stopper of a server returned by `serve` (@hono/node-server), `Bun.serve` or `Deno.serve`. */
export function serverStopper(server: RuntimeServer): ServerStopper {
  const s = server as Partial<NodeServer & BunServer & DenoServer>;
  if (typeof s.closeAllConnections === "function" && typeof s.closeIdleConnections === "function") return nodeStopper(s as NodeServer);
  if (typeof s.shutdown === "function" && s.finished !== undefined) return denoStopper(s as DenoServer);
  if (typeof s.stop === "function" && typeof s.pendingRequests === "number") return bunStopper(s as BunServer);
  throw new TypeError("drain: the server must be what @hono/node-server's serve, Bun.serve or Deno.serve returned");
}

function nodeStopper(server: NodeServer): ServerStopper {
  let closed: Promise<void> | undefined;
  return {
    kind: "node",
    closeHeader: true,
    stopAccepting() {
      // node:http's close() also closes the idle keep-alive connections at once, and a proxy that
      // writes a request on one of them at that instant sees a reset: a request cut. The listening
      // socket's own close (net.Server's, the next one up the prototype chain) stops accepting and
      // leaves them open; each ends after its next answer (Connection: close), or when its idle
      // time runs out.
      if (closed !== undefined) return;
      const listenerClose = netClose(server);
      closed = new Promise<void>((resolve) => listenerClose.call(server, () => resolve()));
    },
    async finish(timeoutMs) {
      this.stopAccepting();
      // Idle keep-alive connections are left to end by themselves: the server told each client
      // how long it keeps one idle (Keep-Alive: timeout=…), and clients stop reusing a connection
      // before that, so closing one sooner could race a request the client is writing on it.
      if (!(await settlesWithin(closed!, timeoutMs))) server.closeAllConnections();
    },
  };
}

/** net.Server's close, found above node:http's own on the server's prototype chain. */
function netClose(server: NodeServer): (this: NodeServer, callback: () => void) => void {
  let proto: object | null = Object.getPrototypeOf(server);
  let seenHttp = false;
  while (proto !== null) {
    if (Object.hasOwn(proto, "closeIdleConnections")) seenHttp = true;
    else if (seenHttp && Object.hasOwn(proto, "close")) return (proto as { close: (this: NodeServer, cb: () => void) => void }).close;
    proto = Object.getPrototypeOf(proto);
  }
  return server.close as (this: NodeServer, callback: () => void) => void;
}

/**
 * Bun's stop(false) stops listening and, at the same instant, closes every connection without a
 * request in progress, including a kept-alive one a client is about to reuse. So the listener
 * stays open a moment first (LINGER_MS) while every answer carries Connection: close: the
 * connections clients hold retire after their next answer, and new ones are answered too.
 */
const LINGER_MS = 300;

function bunStopper(server: BunServer): ServerStopper {
  let stopped: Promise<void> | undefined;
  let lingering: Promise<void> | undefined;
  return {
    kind: "bun",
    closeHeader: true,
    stopAccepting() {
      lingering ??= sleep(LINGER_MS).then(() => {
        // stop(false): no new connections; requests in flight finish.
        stopped = Promise.resolve(server.stop(false)).then(() => undefined);
      });
    },
    async finish(timeoutMs) {
      this.stopAccepting();
      await lingering;
      // stop(false)'s promise settles once the requests in flight are answered.
      if (!(await settlesWithin(stopped!, timeoutMs))) await Promise.resolve(server.stop(true)).catch(() => undefined);
    },
  };
}

function denoStopper(server: DenoServer): ServerStopper {
  let shutdown: Promise<void> | undefined;
  return {
    kind: "deno",
    closeHeader: false,
    stopAccepting() {
      // shutdown(): no new connections; requests in flight finish, then idle connections close.
      shutdown ??= server.shutdown().catch(() => undefined);
    },
    async finish(timeoutMs) {
      this.stopAccepting();
      await Promise.race([shutdown, sleep(timeoutMs)]);
    },
  };
}
