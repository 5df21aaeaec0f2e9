/**
 * The server process of bench/http.bench.ts, under whichever runtime runs it: the bench form app
 * (bench/live-app.ts, the page the benchmark figures are of), the small form (bench/http-small-form.ts)
 * and the bare Hono route that parses the same JSON and answers JSON, each on 127.0.0.1 at a random
 * port, served the runtime's own way (@hono/node-server on Node, Bun.serve, Deno.serve). Prints one
 * line, PORTS {"ours", "small", "bare"}, when all listen. Each line "CPU" read from stdin is answered
 * with CPU <µs>, the process's CPU time (user and system) so far; the parent ends it.
 *
 *   node --import tsx bench/http-server.ts | bun bench/http-server.ts | deno run -A bench/http-server.ts
 */
import { serve } from "@hono/node-server";
import process from "node:process";
import { bareApp, formApp } from "./live-app.ts";
import { smallFormApp } from "./http-small-form.ts";
import { onLines } from "./stream-lines.ts";

type Fetch = (req: Request) => Response | Promise<Response>;
const g = globalThis as {
  Bun?: { serve(options: { port: number; hostname: string; fetch: Fetch }): { port: number } };
  Deno?: { serve(options: { port: number; hostname: string; onListen(addr: { port: number }): void }, fetch: Fetch): unknown };
};

function listen(fetch: Fetch): Promise<number> {
  if (g.Bun) return Promise.resolve(g.Bun.serve({ port: 0, hostname: "127.0.0.1", fetch }).port);
  const deno = g.Deno;
  if (deno) return new Promise((resolve) => deno.serve({ port: 0, hostname: "127.0.0.1", onListen: (addr) => resolve(addr.port) }, fetch));
  return new Promise((resolve) => {
    const server = serve({ fetch, hostname: "127.0.0.1", port: 0 }, (info) => resolve(info.port));
    // Rounds of the other server can leave the load's connections idle past Node's 5 s default.
    Object.assign(server, { keepAliveTimeout: 60_000, headersTimeout: 61_000 });
  });
}

const ours = formApp();
const small = smallFormApp();
const bare = bareApp();
const ports = { ours: await listen(ours.fetch), small: await listen(small.fetch), bare: await listen(bare.fetch) };
onLines(process.stdin, (line) => {
  if (line !== "CPU") return;
  const used = process.cpuUsage();
  console.log(`CPU ${used.user + used.system}`);
});
console.log(`PORTS ${JSON.stringify(ports)}`);
