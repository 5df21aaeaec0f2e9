/**
 * The server process of bench/table-load.bench.ts (Node only): the live app of the 20-row table
 * page (bench/table-page.ts), served by @hono/node-server on 127.0.0.1 at a random port, as one
 * replica of an app runs. Started with --expose-gc. It prints `listening <port>` once it serves, and
 * answers besides the app:
 *
 *   GET /bench/memory   after two forced collections: { heapUsed, rss, sessions } (bytes; sessions held)
 *   GET /bench/cpu      { cpuMicros }: the process's user + system CPU time so far
 *
 *   node --expose-gc --import tsx bench/table-load-server.ts <rows> <maxSessions>
 */
import process from "node:process";
import { serve } from "@hono/node-server";
import { tableApp } from "./table-page.ts";

const rows = Number(process.argv[2] ?? 20);
const maxSessions = Number(process.argv[3] ?? 10_000);
// The app's bounds as an app holding this many sessions would set them: the session limit at the
// count held (the default, 10,000, for the full run); the pages are connected as they load.
const app = tableApp(rows, { maxSessions });

function memory(): { heapUsed: number; rss: number; sessions: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("table-load-server.ts needs --expose-gc");
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heapUsed: usage.heapUsed, rss: usage.rss, sessions: app.sessionCounts().live };
}

function fetch(req: Request): Response | Promise<Response> {
  const path = new URL(req.url).pathname;
  if (path === "/bench/memory") return Response.json(memory());
  if (path === "/bench/cpu") {
    const usage = process.cpuUsage();
    return Response.json({ cpuMicros: usage.user + usage.system });
  }
  return app.fetch(req);
}

const server = serve({ fetch, hostname: "127.0.0.1", port: 0 }, (info) => process.stdout.write(`listening ${info.port}\n`));
// Ten thousand idle SSE connections are the point: no socket timeout, and room for all of them.
(server as unknown as { setTimeout?: (ms: number) => void }).setTimeout?.(0);
Object.assign(server, { keepAliveTimeout: 60_000, headersTimeout: 61_000, maxConnections: 20_000 });
