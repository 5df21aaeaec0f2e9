/**
 * Events over HTTP against a bare Hono JSON route: 50 connections, each a tab of its own
 * session, driven by autocannon in a separate Node process (bench/http-load.ts), against a server
 * process of the runtime running this bench (bench/http-server.ts: @hono/node-server on Node,
 * Bun.serve on Bun, Deno.serve on Deno). Two pages of ours: the small form (bench/http-small-form.ts,
 * a counter, a button and an input: the fixed cost of an event) and the bench form
 * (bench/live-app.ts, about 100 elements written with Ui.h, the page of the benchmark figures);
 * each connection clicks "+" again and again (one text patch per event). The bare route parses
 * the same JSON bodies and answers JSON. Rounds rotate the three servers; of each page against the
 * bare route, the pair of adjacent rounds with the median ratio is kept (bench/report.ts
 * medianPair). The server process reports its own CPU time around each round, so each round also
 * gives the server's CPU per event.
 *
 * Targets, the small form against the bare route: at least 0.8x its events/s on Node (0.7x on Bun
 * and Deno), and at most 1.25x its server CPU per event. The bench form: 0.6x on Node, 0.5x on Bun
 * and Deno. The load generator shares the machine's cores with the server, as it would on one host;
 * the load average is printed with the figures.
 *
 * Run: npx tsx bench/http.bench.ts [scale] | npx bun bench/http.bench.ts | npx deno run -A bench/http.bench.ts
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { eventBody, eventHeaders, openHttpSessions, type SessionCreds } from "./live-app.ts";
import { openSmallSession } from "./http-small-form.ts";
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
const SMALL_TARGET = runtime === "node" ? 0.8 : 0.7;
const CPU_TARGET = 1.25;
const SERVER_NAME = { node: "@hono/node-server", bun: "Bun.serve", deno: "Deno.serve" }[runtime];

type Ports = { ours: number; small: number; bare: number };

async function startServer(): Promise<{ ports: Ports; cpu(): Promise<number>; stop(): void }> {
  const file = fileURLToPath(new URL("http-server.ts", import.meta.url));
  const [command, childArgs] = runtime === "bun"
    ? [g.process!.execPath, [file]]
    : runtime === "deno"
    ? [g.Deno!.execPath(), ["run", "-A", file]]
    : [g.process!.execPath, ["--import", "tsx", file]];
  const child = spawn(command, childArgs, { stdio: ["pipe", "pipe", "inherit"] });
  let cpuAnswer: ((micros: number) => void) | undefined;
  const ports = await new Promise<Ports>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`http-server.ts exited with ${code}`)));
    onLines(child.stdout!, (line) => {
      if (line.startsWith("PORTS ")) resolve(JSON.parse(line.slice(6)));
      if (line.startsWith("CPU ")) cpuAnswer?.(Number(line.slice(4)));
    });
  });
  return {
    ports,
    cpu: () =>
      new Promise((resolve) => {
        cpuAnswer = resolve;
        child.stdin!.write("CPU\n");
      }),
    stop: () => child.kill(),
  };
}

type Load = { requests: number; seconds: number; non2xx: number; errors: number; p50: number; p99: number };
type Tabs = { headers: Record<string, string>; body: string }[];

/** One round of autocannon in its own Node process. */
function load(port: number, tabs: Tabs, seconds: number): Promise<Load> {
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

/** A server's rounds: events/s, server CPU µs per event, and the load of each. */
type Rounds = { rate: number[]; cpu: number[]; loads: Load[] };

const server = await startServer();
const rows: BenchRow[] = [];
const load1 = loadavg().map((x) => x.toFixed(2)).join(" ");
try {
  // The same tabs for the bare route as for the bench form: a body and headers per connection.
  const tabsOf = (sessions: SessionCreds[]): Tabs => sessions.map((creds) => ({ headers: eventHeaders(creds), body: eventBody(creds, 1) }));
  const tabs = { ours: tabsOf(await openHttpSessions(server.ports.ours, CONNECTIONS, 10)), small: [] as Tabs, bare: [] as Tabs };
  const small: SessionCreds[] = [];
  for (let i = 0; i < CONNECTIONS; i++) small.push(await openSmallSession(`http://127.0.0.1:${server.ports.small}`));
  tabs.small = tabsOf(small);
  tabs.bare = tabs.ours;
  const sides = ["ours", "small", "bare"] as const;
  const rounds: Record<(typeof sides)[number], Rounds> = {
    ours: { rate: [], cpu: [], loads: [] },
    small: { rate: [], cpu: [], loads: [] },
    bare: { rate: [], cpu: [], loads: [] },
  };
  const run = async (side: (typeof sides)[number], seconds: number, keep: boolean) => {
    const before = await server.cpu();
    const l = await load(server.ports[side], tabs[side], seconds);
    const used = (await server.cpu()) - before;
    if (l.non2xx > 0 || l.errors > 0) throw new Error(`a round of ${side} had ${l.non2xx} non-2xx replies and ${l.errors} errors`);
    if (!keep) return;
    rounds[side].rate.push(l.requests / l.seconds);
    rounds[side].cpu.push(used / l.requests);
    rounds[side].loads.push(l);
  };
  for (const side of sides) await run(side, 1, false);
  for (let r = 0; r < Math.max(3, Math.round(ROUNDS * Math.min(1, scale))); r++) {
    // Each round a new order: every server runs first, second and third in turn.
    for (let k = 0; k < sides.length; k++) await run(sides[(r + k) % sides.length]!, SECONDS, true);
  }
  for (const side of sides) {
    const { rate, cpu } = rounds[side];
    console.log(
      `${runtime}, ${side}: events/s ${rate.map(Math.round).join(" ")}; server CPU µs per event ${cpu.map((x) => x.toFixed(1)).join(" ")}`,
    );
  }
  const eventsRow = (side: "ours" | "small", page: string, target: number) => {
    const pair = medianPair(rounds[side].rate, rounds.bare.rate);
    rows.push({
      name: `events/s over HTTP (${SERVER_NAME}), ${page}, ${CONNECTIONS} connections, one session each, autocannon in its own process`,
      ours: pair.ours,
      peer: pair.peer,
      peerName: "bare Hono JSON route, same load",
      unit: "events/s",
      higherIsBetter: true,
      target: `ratio >= ${target}x`,
      met: pair.ours >= target * pair.peer,
    });
    return pair;
  };
  const smallPair = eventsRow("small", "small form", SMALL_TARGET);
  const cpuPair = medianPair(rounds.small.cpu, rounds.bare.cpu);
  rows.push({
    name: `server CPU per event over HTTP (${SERVER_NAME}), small form, ${CONNECTIONS} connections, the rounds above`,
    ours: cpuPair.ours,
    peer: cpuPair.peer,
    peerName: "bare Hono JSON route, same load",
    unit: "µs",
    higherIsBetter: false,
    target: `ours <= ${CPU_TARGET}x peer`,
    met: cpuPair.ours <= CPU_TARGET * cpuPair.peer,
  });
  const oursPair = eventsRow("ours", "bench form", TARGET);
  for (const [side, pair] of [["small", smallPair], ["ours", oursPair]] as const) {
    const theirs = rounds[side].loads[rounds[side].rate.indexOf(pair.ours)]!;
    const bare = rounds.bare.loads[rounds.bare.rate.indexOf(pair.peer)]!;
    for (const p of ["p50", "p99"] as const) {
      rows.push({
        name: `HTTP event latency ${p} (${SERVER_NAME}), ${
          side === "small" ? "small form" : "bench form"
        }, ${CONNECTIONS} connections, the round above`,
        ours: theirs[p],
        peer: bare[p],
        peerName: "bare Hono JSON route, same load",
        unit: "ms",
        higherIsBetter: false,
        target: "(info)",
        met: true,
      });
    }
  }
} finally {
  server.stop();
}
console.log(`load average: ${load1} at the start, ${loadavg().map((x) => x.toFixed(2)).join(" ")} at the end`);
report("http", rows);
