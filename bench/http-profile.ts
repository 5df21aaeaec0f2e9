/**
 * The fixed cost of an event over HTTP, taken apart per step (Node only): the small form
 * (bench/http-small-form.ts) served by @hono/node-server in this process, 50 connections each a tab
 * of its own session driven by autocannon in a process of its own (bench/http-load.ts), and the V8
 * CPU profiler sampling this process while they run. The steps are those of bench/event-steps.ts,
 * with the socket's own (node:http, @hono/node-server) as a line of its own; the CPU per event is
 * this process's CPU time over the events of a round without the profiler, shared out by the
 * samples of a round with it. Beside it, the same for the bare Hono JSON route
 * under the same load, so the two breakdowns can be read side by side.
 *
 * Run: npx tsx bench/http-profile.ts [seconds]
 */
import { serve } from "@hono/node-server";
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { bareApp, eventBody, eventHeaders, type SessionCreds } from "./live-app.ts";
import { openSmallSession, smallFormApp } from "./http-small-form.ts";
import { printBreakdown, profiled } from "./event-steps.ts";
import { onLines } from "./stream-lines.ts";

type Fetch = (req: Request) => Response | Promise<Response>;
type Tabs = { headers: Record<string, string>; body: string }[];

const seconds = Number(process.argv[2] ?? 4);
const CONNECTIONS = 50;

function listen(fetch: Fetch): Promise<number> {
  return new Promise((resolve) => {
    const server = serve({ fetch, hostname: "127.0.0.1", port: 0 }, (info) => resolve(info.port));
    Object.assign(server, { keepAliveTimeout: 60_000, headersTimeout: 61_000 });
  });
}

/** One round of autocannon in its own Node process; resolves to the requests it made. */
function load(port: number, tabs: Tabs, duration: number): Promise<number> {
  const file = fileURLToPath(new URL("http-load.ts", import.meta.url));
  const input = JSON.stringify({ url: `http://127.0.0.1:${port}/_svc/event`, seconds: duration, tabs });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", file, input], { stdio: ["ignore", "pipe", "inherit"] });
    let result: { requests: number; non2xx: number } | undefined;
    onLines(child.stdout!, (line) => {
      if (line.startsWith("LOAD ")) result = JSON.parse(line.slice(5));
    });
    child.on("close", (code) => {
      if (result === undefined || code !== 0) return reject(new Error(`http-load.ts exited with ${code}`));
      if (result.non2xx > 0) return reject(new Error(`${result.non2xx} replies were not 2xx`));
      resolve(result.requests);
    });
  });
}

const small = await listen(smallFormApp().fetch);
const bare = await listen(bareApp().fetch);
const sessions: SessionCreds[] = [];
for (let i = 0; i < CONNECTIONS; i++) sessions.push(await openSmallSession(`http://127.0.0.1:${small}`));
const tabs = sessions.map((creds) => ({ headers: eventHeaders(creds), body: eventBody(creds, 1) }));
console.log(`load average at the start: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
for (const [name, port] of [["the small form", small], ["the bare Hono JSON route", bare]] as const) {
  await load(port, tabs, 1);
  const before = process.cpuUsage();
  const requests = await load(port, tabs, seconds);
  const used = process.cpuUsage(before);
  const cpu = (used.user + used.system) / requests;
  const { result: sampled, profile } = await profiled(() => load(port, tabs, seconds));
  printBreakdown(
    `An event of ${name} over HTTP (@hono/node-server), ${CONNECTIONS} connections, ${requests} events unprofiled, ${sampled} profiled`,
    profile,
    cpu,
  );
}
console.log(`\nload average at the end: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
process.exit(0);
