/**
 * Events over HTTP against a bare Hono JSON route: 50 connections, each a tab of its own
 * session, driven by autocannon in a separate Node process (bench/http-load.ts), against a server
 * process of the runtime running this bench (bench/http-server.ts: @hono/node-server on Node,
 * Bun.serve on Bun, Deno.serve on Deno). Ours is the bench form (bench/live-app.ts, about 100
 * elements written with Ui.h, the page of the benchmark figures); each connection clicks "+" again
 * and again (one text patch per event). The bare route parses the same JSON bodies and answers
 * JSON. Rounds alternate ours and bare; the pair of adjacent rounds with the median ratio is kept
 * (bench/report.ts medianPair). Targets: at least 0.6x the bare route on Node, 0.5x on Bun and Deno.
 * The load generator shares the machine's cores with the server, as it would on one host.
 *
 * Run: npx tsx bench/http.bench.ts [scale] | npx bun bench/http.bench.ts | npx deno run -A bench/http.bench.ts
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { eventBody, eventHeaders, openHttpSessions } from "./live-app.ts";
import { type BenchRow, medianPair, report } from "./report.ts";
import { onLines } from "./stream-lines.ts";

type G = { Bun?: unknown; Deno?: { args: string[]; execPath(): string }; process?: { argv: string[]; execPath: string } };
const g = globalThis as G;
const runtime = g.Bun ? "bun" : g.Deno ? "deno" : "node";
const args = g.Deno?.args ?? g.process?.argv.slice(2) ?? [];
const scale = Number(args.find((arg) => Number(arg) > 0) ?? 1);
const CONNECTIONS = 50;
const ROUNDS = 5;
const SECONDS = Math.max(1, Math.round(3 * scale));
const TARGET = runtime === "node" ? 0.6 : 0.5;
const SERVER_NAME = { node: "@hono/node-server", bun: "Bun.serve", deno: "Deno.serve" }[runtime];

async function startServer(): Promise<{ ports: { ours: number; bare: number }; stop(): void }> {
  const file = fileURLToPath(new URL("http-server.ts", import.meta.url));
  const [command, childArgs] = runtime === "bun"
    ? [g.process!.execPath, [file]]
    : runtime === "deno"
    ? [g.Deno!.execPath(), ["run", "-A", file]]
    : [g.process!.execPath, ["--import", "tsx", file]];
  const child = spawn(command, childArgs, { stdio: ["ignore", "pipe", "inherit"] });
  const ports = await new Promise<{ ours: number; bare: number }>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`http-server.ts exited with ${code}`)));
    onLines(child.stdout!, (line) => line.startsWith("PORTS ") && resolve(JSON.parse(line.slice(6))));
  });
  return { ports, stop: () => child.kill() };
}

type Load = { requests: number; seconds: number; non2xx: number; errors: number; p50: number; p99: number };

/** One round of autocannon in its own Node process. */
function load(port: number, tabs: { headers: Record<string, string>; body: string }[], seconds: number): Promise<Load> {
  const file = fileURLToPath(new URL("http-load.ts", import.meta.url));
  const node = runtime === "node" ? g.process!.execPath : "node";
  const input = JSON.stringify({ url: `http://127.0.0.1:${port}/_svc/event`, seconds, tabs });
  return new Promise((resolve, reject) => {
    const child = spawn(node, ["--import", "tsx", file, input], { stdio: ["ignore", "pipe", "inherit"] });
    let result: Load | undefined;
    onLines(child.stdout!, (line) => {
      if (line.startsWith("LOAD ")) result = JSON.parse(line.slice(5));
    });
    child.on("error", reject);
    child.on("close", (code) => (result && code === 0 ? resolve(result) : reject(new Error(`http-load.ts exited with ${code}`))));
  });
}

const server = await startServer();
const rows: BenchRow[] = [];
try {
  const sessions = await openHttpSessions(server.ports.ours, CONNECTIONS, 10);
  // The same tabs for both: a body and headers per connection (one session each, on ours).
  const tabs = sessions.map((creds) => ({ headers: eventHeaders(creds), body: eventBody(creds, 1) }));
  const rate = (l: Load) => {
    if (l.non2xx > 0 || l.errors > 0) throw new Error(`a round had ${l.non2xx} non-2xx replies and ${l.errors} errors`);
    return l.requests / l.seconds;
  };
  await load(server.ports.ours, tabs, 1);
  await load(server.ports.bare, tabs, 1);
  const ours: number[] = [];
  const bare: number[] = [];
  const latencies = { ours: [] as Load[], bare: [] as Load[] };
  for (let r = 0; r < Math.max(3, Math.round(ROUNDS * Math.min(1, scale))); r++) {
    const runOurs = async () => {
      const l = await load(server.ports.ours, tabs, SECONDS);
      ours.push(rate(l));
      latencies.ours.push(l);
    };
    const runBare = async () => {
      const l = await load(server.ports.bare, tabs, SECONDS);
      bare.push(rate(l));
      latencies.bare.push(l);
    };
    if (r % 2 === 0) {
      await runOurs();
      await runBare();
    } else {
      await runBare();
      await runOurs();
    }
  }
  console.log(
    `${runtime}, ${CONNECTIONS} connections, events/s per round: ours ${ours.map(Math.round).join(" ")}; bare ${
      bare.map(Math.round).join(" ")
    }`,
  );
  const pair = medianPair(ours, bare);
  const k = ours.indexOf(pair.ours);
  rows.push({
    name: `events/s over HTTP (${SERVER_NAME}), ${CONNECTIONS} connections, one session each, autocannon in its own process`,
    ours: pair.ours,
    peer: pair.peer,
    peerName: "bare Hono JSON route, same load",
    unit: "events/s",
    higherIsBetter: true,
    target: `ratio >= ${TARGET}x`,
    met: pair.ours >= TARGET * pair.peer,
  });
  for (const p of ["p50", "p99"] as const) {
    rows.push({
      name: `HTTP event latency ${p} (${SERVER_NAME}), ${CONNECTIONS} connections, the round above`,
      ours: latencies.ours[k]![p],
      peer: latencies.bare[bare.indexOf(pair.peer)]![p],
      peerName: "bare Hono JSON route, same load",
      unit: "ms",
      higherIsBetter: false,
      target: "(info)",
      met: true,
    });
  }
} finally {
  server.stop();
}
report("http", rows);
