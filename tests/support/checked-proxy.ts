/**
 * A plain round-robin load balancer for the failover tests and bench, written apart from the
 * example's proxy (examples/replicas/proxy.ts), which passes a refused request on to another
 * replica: this one does what a balancer without retries does, so that the browser client's own
 * resend is what keeps events (docs/protocol.md#resend). Each request goes to the next replica that
 * its health check last found ready (GET /ready every 250 ms, 200 = ready); a request whose
 * replica refuses or drops the connection before answering gets 502; a response already started
 * that breaks (a stream, a killed replica) breaks the client's connection too. Bodies and answers
 * stream through, SSE included. `outage(ms)` answers every request 502 for a while, as a balancer
 * with no replica left does.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export class CheckedProxy {
  /** One base URL per replica; a slot is replaced when its replica restarts. */
  readonly targets: string[];
  /** Which targets the last health check found ready. */
  readonly healthy: boolean[];
  /** Answers given: by status, and how many requests each replica got. */
  readonly statuses = new Map<number, number>();
  readonly served: number[];
  private next = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private checking: ReturnType<typeof setInterval> | undefined;
  private outageUntil = 0;

  constructor(targets: readonly string[], private readonly checkEveryMs = 250) {
    this.targets = [...targets];
    this.healthy = targets.map(() => true);
    this.served = targets.map(() => 0);
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.checking = setInterval(() => void this.check(), this.checkEveryMs);
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Replaces slot `index`'s replica (a restart); it is taken in once its health check passes. */
  replace(index: number, url: string): void {
    this.targets[index] = url;
    this.healthy[index] = false;
    void this.check();
  }

  /** Every request is answered 502 for `ms`, as when no replica is left. */
  outage(ms: number): void {
    this.outageUntil = Date.now() + ms;
  }

  async close(): Promise<void> {
    clearInterval(this.checking);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async check(): Promise<void> {
    await Promise.all(this.targets.map(async (target, i) => {
      try {
        const resp = await fetch(`${target}/ready`, { signal: AbortSignal.timeout(this.checkEveryMs) });
        await resp.body?.cancel();
        if (this.targets[i] === target) this.healthy[i] = resp.status === 200;
      } catch {
        if (this.targets[i] === target) this.healthy[i] = false;
      }
    }));
  }

  private pick(): number | undefined {
    for (let tries = 0; tries < this.targets.length; tries++) {
      const index = this.next++ % this.targets.length;
      if (this.healthy[index]) return index;
    }
    return undefined;
  }

  private answer(res: ServerResponse, status: number, text: string): void {
    this.count(status);
    if (!res.headersSent) res.writeHead(status, { "Content-Type": "text/plain" }).end(text);
  }

  private count(status: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const index = Date.now() < this.outageUntil ? undefined : this.pick();
    if (index === undefined) {
      req.resume();
      return this.answer(res, 502, "no replica is ready");
    }
    const target = new URL(this.targets[index]!);
    this.served[index] = (this.served[index] ?? 0) + 1;
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        // The Host header stays the browser's, as a proxy in front of an app should pass it.
        headers: req.headers,
      },
      (answer) => {
        this.count(answer.statusCode ?? 502);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("error", () => res.destroy());
        answer.on("aborted", () => res.destroy());
      },
    );
    upstream.on("error", () => {
      if (res.headersSent) res.destroy();
      else this.answer(res, 502, "the replica did not answer");
    });
    // A client that goes away (a closed EventSource) ends its upstream request too.
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }
}
