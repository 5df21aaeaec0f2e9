/**
 * The proxy in front of the replicas in the local recipe (start.ts) and the multi-replica tests: plain
 * node:http, streaming both ways (SSE included), with two routing modes switchable at run time:
 *
 *   round-robin  each request goes to the next replica
 *   sticky       a request with a session cookie goes to the replica that cookie was first sent
 *                to (as a load balancer's cookie affinity would); without one, round-robin
 *
 * A replica that refuses the connection (killed) is skipped and the request goes to the next one,
 * as a load balancer with passive health checks does; a replica can also be taken out of rotation
 * by hand (`exclude`), as a health check that saw it stop would.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type Mode = "round-robin" | "sticky";

export class Proxy {
  mode: Mode;
  /** Where requests go: one base URL per replica ("http://127.0.0.1:port"); replaced when one restarts. */
  readonly targets: string[];
  private readonly excluded = new Set<number>();
  private readonly affinity = new Map<string, number>();
  private next = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** How many requests each replica received (by index). */
  readonly served: number[];
  /**
   * Requests passed on to another replica after the connection to the first was refused or reset
   * before an answer came. A reset one may have been processed already: the live protocol's
   * (page, seq) makes the second copy a no-op (204), as for a client's own retry.
   */
  passedOn = 0;
  /** Called for each answer a replica gives (tests print these when something goes wrong). */
  onServed: ((index: number, method: string, path: string, status: number) => void) | undefined;

  constructor(targets: readonly string[], mode: Mode = "round-robin") {
    this.targets = [...targets];
    this.mode = mode;
    this.served = targets.map(() => 0);
  }

  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.forward(req, res));
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  exclude(index: number): void {
    this.excluded.add(index);
  }

  include(index: number): void {
    this.excluded.delete(index);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private pick(cookie: string | undefined): number {
    const sid = cookie === undefined ? undefined : /(?:^|;\s*)(?:__Host-)?svc_sid=([^;]+)/.exec(cookie)?.[1];
    if (this.mode === "sticky" && sid !== undefined) {
      const known = this.affinity.get(sid);
      if (known !== undefined && !this.excluded.has(known)) return known;
    }
    const index = this.roundRobin();
    if (this.mode === "sticky" && sid !== undefined) this.affinity.set(sid, index);
    return index;
  }

  private roundRobin(): number {
    for (let tries = 0; tries < this.targets.length; tries++) {
      const index = this.next++ % this.targets.length;
      if (!this.excluded.has(index)) return index;
    }
    return this.next++ % this.targets.length;
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The body is read first, so a request refused at connect can go to another replica.
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let index = this.pick(req.headers.cookie);
    for (let attempt = 0; attempt < this.targets.length; attempt++) {
      const sent = await this.send(index, req, res, body);
      if (sent) return;
      this.passedOn++;
      index = this.roundRobin();
    }
    res.writeHead(502, { "Content-Type": "text/plain" }).end("no replica answered");
  }

  /** Sends to one replica; false when it refused the connection (nothing was sent to the client). */
  private send(index: number, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<boolean> {
    const target = new URL(this.targets[index]!);
    return new Promise((resolve) => {
      const upstream = request(
        // The Host header stays the browser's, as a proxy in front of an app should pass it
        // (nginx: proxy_set_header Host $host): the app checks Origin against it.
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, "content-length": String(body.length) },
        },
        (answer) => {
          this.served[index] = (this.served[index] ?? 0) + 1;
          this.onServed?.(index, req.method ?? "", req.url ?? "", answer.statusCode ?? 0);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on("error", () => res.destroy());
          resolve(true);
        },
      );
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        if (!res.headersSent && (error.code === "ECONNREFUSED" || error.code === "ECONNRESET")) resolve(false);
        else {
          res.destroy();
          resolve(true);
        }
      });
      // A client that goes away (a closed EventSource) ends its upstream request too.
      res.on("close", () => upstream.destroy());
      upstream.end(body);
    });
  }
}
