/**
 * Live server benchmarks. The workload (bench/live-app.ts) is a form app of about 100
 * elements: six labelled inputs, a counter, a ten-row table, a twenty-item list, buttons. Each
 * event changes one thing: odd events click "+" (one text patch), even events type a name into
 * the name input with its inputState report (the greeting text changes; the value patch is
 * suppressed by the authority map). The peer is a bare Hono route that parses the same JSON body
 * and returns a JSON reply: the floor any JSON-over-HTTP endpoint on this stack pays.
 *
 *   1. In process: events/s through `app.fetch(new Request(...))`, ours against the bare route's
 *      `fetch`, in short alternating rounds (the pair of adjacent rounds with the median ratio is
 *      kept, bench/report.ts medianPair), two ways: one tab sending events back to back, and 100
 *      sessions served round-robin (each event's previous tree is then old, as on a busy server).
 *      Target: ours >= 0.5x the bare route. Each request carries its Content-Length, as the
 *      browser's does. Both ways run four times, for four ways of writing the same page
 *      (bench/live-app.ts): "template" (`viewTemplate`), the whole page as `Ui.html` templates,
 *      nothing hoisted by hand; "plain", the view building the whole page with `Ui.h` on every
 *      render; "static parts built once" outside the view (`viewStaticBuiltOnce`), which the ids
 *      and the diff then skip; and "tuned" (`viewTuned`), static parts built once and each field a
 *      `Ui.lazy` part of its name and value, so an event rebuilds only what it changed.
 *   2. Memory per session (a child process with the collector exposed: node --expose-gc, bun's
 *      Bun.gc, deno --v8-flags=--expose-gc): heap growth over 2,000 sessions that each loaded the
 *      page and sent one event, "active" (rendered tree kept) and "idle" (after treeIdleMs, the
 *      sweep dropped it). Target: idle <= 10 KB. There is no in-process peer: the peer column holds
 *      published figures (Phoenix LiveView ~40 KB per process, Blazor Server ~250 KB per circuit),
 *      not measured here.
 *   3. Over HTTP (Node only): both served by @hono/node-server on 127.0.0.1 (random ports) in a
 *      server child process; autocannon in this process. 100 sessions, each driven by its own
 *      autocannon instance with one connection, its own session cookie and CSRF header, and its own
 *      rising seq; the bare route gets the same 100 single-connection clients and the same bodies.
 *      Alternating rounds; events/s ratio (target >= 0.5x) and p50/p99 latency over every response;
 *      for the four views, as in part 1. Also the server's CPU time (user + system) per event,
 *      read in the server child around each round: on a small machine the load generator shares
 *      the cores, so this says what each event costs the server apart from how fast the client
 *      can send. A busy live server processes the events of each event-loop turn together
 *      (src/live/server/http/turn-batch.ts); the bare route, as a plain Hono route, does not. For the
 *      template form the rounds also load the bare route batched the same way, for one more row
 *      (info): ours against that, which tells the batching's share of the ratio.
 *   4. 10,000 sessions with an open SSE stream each, over HTTP (Node only): the server child's RSS
 *      and heap (after forced collections) before and after, with the streams open and the
 *      sessions quiet past treeIdleMs and swept.
 *
 * The machine is small (2 cores) and shared; every comparison is side by side in one run, and the
 * load average is printed with the results.
 *
 * Run: npx tsx bench/live.bench.ts [scale] [inproc|memory|http|streams]
 *      npx bun bench/live.bench.ts | npx deno run -A bench/live.bench.ts  (parts 1-2; 3-4 skipped)
 * `scale` (default 1) multiplies round lengths and counts, e.g. 0.3 for a quick look.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  bareApp,
  eventBody,
  eventHeaders,
  eventRequest,
  eventsRow,
  formApp,
  type FormVariant,
  httpRows,
  initialModel,
  openHttpSessions,
  openSession,
  type SessionCreds,
  VARIANT_SUFFIX,
  view,
  viewStaticBuiltOnce,
  viewTemplate,
  viewTuned,
} from "./live-app.ts";
import type { ServerPorts } from "./live-server.ts";
import { render } from "../src/live/render.ts";
import { type BenchRow, median, medianPair, report } from "./report.ts";

type G = {
  Bun?: { version: string };
  Deno?: { args: string[]; execPath(): string };
  process?: { argv: string[]; execPath: string };
};
const g = globalThis as G;
const runtime = g.Bun ? "bun" : g.Deno ? "deno" : "node";
const args = g.Deno?.args ?? g.process?.argv.slice(2) ?? [];
const scaleArg = args.find((arg) => Number(arg) > 0);
const scale = scaleArg === undefined ? 1 : Number(scaleArg);
const parts = new Set(args.filter((arg) => ["inproc", "memory", "http", "streams"].includes(arg)));
const wants = (part: string) => parts.size === 0 || parts.has(part);

const TARGET_IDLE_KB = 10;
const LIVEVIEW_KB = 40;
const BLAZOR_KB = 250;
const PUBLISHED_LIVEVIEW = "Phoenix LiveView, published ~40 KB/process, not measured here";
const PUBLISHED_BLAZOR = "Blazor Server, published ~250 KB/circuit, not measured here";

const rows: BenchRow[] = [];
const FORM_VARIANTS: readonly FormVariant[] = ["template", "plain", "static", "tuned"];
const skips: { name: string; reason: string }[] = [];

// ---------------------------------------------------------------------------------------------
// 1. In process

type Fetch = (req: Request) => Response | Promise<Response>;

/** Sends events to `fetch` for about `ms` ms, round-robin over `sessions`; returns events/s. */
async function round(fetch: Fetch, sessions: SessionCreds[], seqs: number[], origin: string, ms: number): Promise<number> {
  let done = 0;
  let next = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 16; i++) {
      const k = next++ % sessions.length;
      const creds = sessions[k]!;
      seqs[k]! += 1;
      const resp = await fetch(eventRequest(origin, creds, eventBody(creds, seqs[k]!)));
      if (resp.status !== 200) throw new Error(`event answered ${resp.status}: ${await resp.text()}`);
      await resp.text();
    }
    done += 16;
    elapsed = performance.now() - start;
  }
  return (done * 1000) / elapsed;
}

async function inProcess(sessionCount: number, variant: FormVariant): Promise<BenchRow> {
  const origin = "http://bench.test";
  const ours = formApp({}, variant);
  const bare = bareApp();
  const sessions: SessionCreds[] = [];
  for (let i = 0; i < sessionCount; i++) sessions.push(await openSession(ours.fetch, origin));
  const oursSeqs = sessions.map(() => 0);
  const bareSeqs = sessions.map(() => 0);
  const roundMs = 200 * scale;
  // Warm-up: three rounds each of at least 300 ms. Deno and Bun were seen still speeding ours up
  // after a single short round (it has far more code for the JIT to settle than the bare route).
  for (let w = 0; w < 3; w++) {
    await round(ours.fetch, sessions, oursSeqs, origin, Math.max(300, roundMs));
    await round(bare.fetch, sessions, bareSeqs, origin, Math.max(300, roundMs));
  }
  const oursAll: number[] = [];
  const bareAll: number[] = [];
  // Many short rounds: each pair of them sees nearly the same machine (see medianPair).
  for (let r = 0; r < Math.max(5, Math.round(15 * scale)); r++) {
    // Alternate who goes first, so neither always runs right after the other's garbage.
    if (r % 2 === 0) {
      oursAll.push(await round(ours.fetch, sessions, oursSeqs, origin, roundMs));
      bareAll.push(await round(bare.fetch, sessions, bareSeqs, origin, roundMs));
    } else {
      bareAll.push(await round(bare.fetch, sessions, bareSeqs, origin, roundMs));
      oursAll.push(await round(ours.fetch, sessions, oursSeqs, origin, roundMs));
    }
  }
  ours.close();
  const suffix = VARIANT_SUFFIX[variant];
  console.log(
    `in process, ${sessionCount} session(s)${suffix}, events/s per round: ours ${oursAll.map(Math.round).join(" ")}; bare ${
      bareAll.map(Math.round).join(" ")
    }`,
  );
  const pair = medianPair(oursAll, bareAll);
  return eventsRow(
    `events/s in process, 100-node form, ${sessionCount === 1 ? "one tab" : `${sessionCount} sessions round-robin`}${suffix}`,
    pair.ours,
    pair.peer,
  );
}

// ---------------------------------------------------------------------------------------------
// Child processes

function runtimeCommand(file: string, gcFlag: boolean, extra: string[]): [string, string[]] {
  if (g.Bun) return [g.process!.execPath, [file, ...extra]];
  if (g.Deno) return [g.Deno.execPath(), ["run", "-A", ...(gcFlag ? ["--v8-flags=--expose-gc"] : []), file, ...extra]];
  return [g.process!.execPath, [...(gcFlag ? ["--expose-gc"] : []), "--import", "tsx", file, ...extra]];
}

const benchFile = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** Runs a child to completion and returns its stdout (stderr passes through). */
function runChild(file: string, extra: string[]): Promise<string> {
  const [command, argv] = runtimeCommand(benchFile(file), true, extra);
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${file} exited with ${code}`))));
  });
}

// ---------------------------------------------------------------------------------------------
// 2. Memory per session

async function memoryRows(): Promise<BenchRow[]> {
  const count = Math.max(500, Math.round(2000 * scale));
  const out = await runChild("live-memory.ts", [String(count)]);
  const line = out.split("\n").find((l) => l.startsWith("LIVE_MEMORY "));
  if (!line) throw new Error(`live-memory.ts printed no result: ${out}`);
  const result = JSON.parse(line.slice("LIVE_MEMORY ".length)) as {
    sessions: number;
    nodes: number;
    activeBytes: number;
    idleBytes: number;
    defaultAfterEventBytes: number;
    defaultTrees: number;
    defaultIdleBytes: number;
    templateActiveBytes: number;
    templateIdleBytes: number;
  };
  const kb = (bytes: number) => bytes / 1024;
  console.log(
    `memory: ${result.sessions} sessions, ${result.nodes}-element view, heap growth per session: every tree kept ${
      kb(result.activeBytes).toFixed(2)
    } KB, ` +
      `trees dropped ${kb(result.idleBytes).toFixed(2)} KB; default policy right after the events (${result.defaultTrees} trees kept) ${
        kb(result.defaultAfterEventBytes).toFixed(2)
      } KB, swept ${kb(result.defaultIdleBytes).toFixed(2)} KB; ` +
      `written as Ui.html templates, every tree kept ${kb(result.templateActiveBytes).toFixed(2)} KB, trees dropped ${
        kb(result.templateIdleBytes).toFixed(2)
      } KB`,
  );
  const idleKb = kb(result.idleBytes);
  const base = { unit: "KB", higherIsBetter: false } as const;
  const view = `${result.nodes}-element view`;
  return [
    {
      ...base,
      name: `heap per idle session (tree dropped), ${view}`,
      ours: idleKb,
      peer: LIVEVIEW_KB,
      peerName: PUBLISHED_LIVEVIEW,
      target: `ours <= ${TARGET_IDLE_KB} KB`,
      met: idleKb <= TARGET_IDLE_KB,
    },
    {
      ...base,
      name: `heap per idle session (tree dropped), ${view}`,
      ours: idleKb,
      peer: BLAZOR_KB,
      peerName: PUBLISHED_BLAZOR,
      target: `ours <= ${TARGET_IDLE_KB} KB`,
      met: idleKb <= TARGET_IDLE_KB,
    },
    {
      ...base,
      name: `heap per active session (tree kept), ${view}`,
      ours: kb(result.activeBytes),
      peer: LIVEVIEW_KB,
      peerName: PUBLISHED_LIVEVIEW,
      target: "(info)",
      met: true,
    },
    {
      ...base,
      name: `heap per active session (tree kept), ${view}${VARIANT_SUFFIX.template}`,
      ours: kb(result.templateActiveBytes),
      peer: LIVEVIEW_KB,
      peerName: PUBLISHED_LIVEVIEW,
      target: "(info)",
      met: true,
    },
    {
      ...base,
      name: `heap per idle session (tree dropped), ${view}${VARIANT_SUFFIX.template}`,
      ours: kb(result.templateIdleBytes),
      peer: LIVEVIEW_KB,
      peerName: PUBLISHED_LIVEVIEW,
      target: `ours <= ${TARGET_IDLE_KB} KB`,
      met: kb(result.templateIdleBytes) <= TARGET_IDLE_KB,
    },
    {
      ...base,
      name:
        `heap per session just after its event, default tree policy (${result.defaultTrees} of ${result.sessions} keep a tree), ${view}`,
      ours: kb(result.defaultAfterEventBytes),
      peer: LIVEVIEW_KB,
      peerName: PUBLISHED_LIVEVIEW,
      target: "(info)",
      met: true,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// 3-4. Over HTTP, Node only: the server child, autocannon, and 10,000 open streams

/** The server child's answer to "cpu": its CPU time so far (µs) and the requests served per port. */
type CpuReading = { cpuMicros: number; requests: Record<number, number> };

type ServerChild = {
  ports: ServerPorts;
  ask<T>(kind: string): Promise<T>;
  stop(): void;
};

async function startServer(): Promise<ServerChild> {
  const [command, argv] = runtimeCommand(benchFile("live-server.ts"), true, []);
  const child = spawn(command, argv, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting = new Map<number, (value: unknown) => void>();
  let nextId = 0;
  const ports = await new Promise<ServerChild["ports"]>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`live-server.ts exited with ${code}`)));
    child.on("message", (message: { kind: string; ports?: ServerChild["ports"]; id?: number; value?: unknown }) => {
      if (message.kind === "ready") resolve(message.ports!);
      else if (message.kind === "answer") waiting.get(message.id!)?.(message.value);
    });
  });
  return {
    ports,
    ask: <T>(kind: string) =>
      new Promise<T>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve as (value: unknown) => void);
        child.send({ kind, id });
      }),
    stop: () => child.kill(),
  };
}

type AutocannonRun = { events: number; seconds: number; latencies: number[]; errors: number };

/**
 * One round: one autocannon instance per session, one connection each, for `seconds`. Each
 * instance sends its own cookie and CSRF header and a rising seq, so every connection is a tab.
 */
async function cannonRound(port: number, sessions: SessionCreds[], seqs: number[], seconds: number): Promise<AutocannonRun> {
  // Imported by a name in a variable: the package ships no type declarations (typed here by hand).
  const packageName = "autocannon";
  const autocannon = ((await import(packageName)) as { default: unknown }).default as (opts: Record<string, unknown>) => {
    on(event: "response", fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  } & PromiseLike<{ non2xx: number; errors: number; timeouts: number; requests: { total: number } }>;
  const latencies: number[] = [];
  let errors = 0;
  let events = 0;
  const start = performance.now();
  await Promise.all(
    sessions.map((creds, k) => {
      const instance = autocannon({
        url: `http://127.0.0.1:${port}`,
        connections: 1,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            method: "POST",
            path: "/_svc/event",
            headers: eventHeaders(creds),
            setupRequest: (req: Record<string, unknown>) => {
              seqs[k]! += 1;
              return { ...req, body: eventBody(creds, seqs[k]!) };
            },
          },
        ],
      });
      instance.on("response", (_client, status, _bytes, ms) => {
        if (status === 200) {
          latencies.push(ms);
          events += 1;
        } else errors += 1;
      });
      return instance.then((result) => {
        errors += result.errors + result.timeouts;
      });
    }),
  );
  return { events, seconds: (performance.now() - start) / 1000, latencies, errors };
}

/**
 * The HTTP rows of one form variant: ours against the bare route, in alternating rounds. With
 * `batchedPeer`, the rounds also load the bare route batched by event-loop turn as the live server
 * is (bench/live-app.ts, bareApp), for one more row: ours against that.
 */
async function httpLoadRows(server: ServerChild, form: FormVariant, batchedPeer = false): Promise<BenchRow[]> {
  type Who = "ours" | "bare" | "bareBatched";
  const port: Record<Who, number> = { ours: server.ports.events[form], bare: server.ports.bare, bareBatched: server.ports.bareBatched };
  const variant = VARIANT_SUFFIX[form];
  const sessions = await openHttpSessions(port.ours, 100, 10);
  const whos: Who[] = batchedPeer ? ["ours", "bare", "bareBatched"] : ["ours", "bare"];
  const seqs = { ours: sessions.map(() => 0), bare: sessions.map(() => 0), bareBatched: sessions.map(() => 0) };
  const seconds = Math.max(2, Math.round(5 * scale));
  // A short warm-up of each, so neither side is measured while its code is still being compiled.
  for (const who of whos) await cannonRound(port[who], sessions, seqs[who], 1);
  const rates = { ours: [] as number[], bare: [] as number[], bareBatched: [] as number[] };
  const latencies = { ours: [] as number[], bare: [] as number[], bareBatched: [] as number[] };
  const cpuPerEvent = { ours: [] as number[], bare: [] as number[], bareBatched: [] as number[] };
  let oursErrors = 0;
  for (let r = 0; r < 3; r++) {
    // Each round in another order, so that no side always runs right after the same other.
    const order = r % 2 === 0 ? whos : [...whos].reverse();
    for (const who of order) {
      const before = await server.ask<CpuReading>("cpu");
      const run = await cannonRound(port[who], sessions, seqs[who], seconds);
      const after = await server.ask<CpuReading>("cpu");
      cpuPerEvent[who].push((after.cpuMicros - before.cpuMicros) / ((after.requests[port[who]] ?? 0) - (before.requests[port[who]] ?? 0)));
      rates[who].push(run.events / run.seconds);
      // A loop, not a spread: a quiet machine yields more latencies than a call may take arguments.
      for (const latency of run.latencies) latencies[who].push(latency);
      if (who === "ours") oursErrors += run.errors;
    }
  }
  if (oursErrors > 0) throw new Error(`${oursErrors} event requests failed over HTTP`);
  latencies.ours.sort((a, b) => a - b);
  latencies.bare.sort((a, b) => a - b);
  const line = (values: Record<Who, number[]>, format: (v: number) => string) =>
    whos.map((who) => `${who} ${values[who].map(format).join(" ")}`).join("; ");
  console.log(`HTTP, 100 sessions x 1 connection${variant}, events/s per ${seconds} s round: ${line(rates, (v) => String(Math.round(v)))}`);
  console.log(`HTTP, 100 sessions${variant}, server CPU µs per event per round: ${line(cpuPerEvent, (v) => v.toFixed(1))}`);
  const cpuRow: BenchRow = {
    name: `server CPU (user + system) per event over HTTP, 100 sessions${variant}`,
    ours: median(cpuPerEvent.ours),
    peer: median(cpuPerEvent.bare),
    peerName: "bare Hono route, same load",
    unit: "µs",
    higherIsBetter: false,
    target: "(info)",
    met: true,
  };
  const out = [...httpRows("100", { ours: rates.ours, bare: rates.bare }, { ours: latencies.ours, bare: latencies.bare }, variant), cpuRow];
  if (batchedPeer) {
    out.push({
      name: `events/s over HTTP (node-server), 100 sessions${variant}, against the bare route batched by turn as ours is`,
      ...medianPair(rates.ours, rates.bareBatched),
      peerName: "bare Hono route batched by turn, same JSON",
      unit: "events/s",
      higherIsBetter: true,
      target: "(info)",
      met: true,
    });
  }
  return out;
}

/** Opens `count` sessions, each with one SSE stream held open; returns a function closing them. */
async function openStreams(port: number, count: number): Promise<() => void> {
  const http = await import("node:http");
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: { destroy(): void }[] = [];
  const sessions = await openHttpSessions(port, count, 32);
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < sessions.length) {
        const creds = sessions[next++]!;
        await new Promise<void>((resolve, reject) => {
          const req = http.get({ host: "127.0.0.1", port, path: "/_svc/subscribe", agent, headers: { Cookie: creds.cookie } }, (res) => {
            if (res.statusCode !== 200) reject(new Error(`subscribe answered ${res.statusCode}`));
            // The first chunk (": connected") means the server holds the stream; keep reading.
            res.once("data", () => resolve());
            res.resume();
          });
          req.on("error", reject);
          requests.push(req);
        });
      }
    }),
  );
  return () => {
    for (const req of requests) req.destroy();
    agent.destroy();
  };
}

async function streamRows(server: ServerChild): Promise<BenchRow[]> {
  const count = Math.max(1000, Math.round(10_000 * scale));
  type Mem = { heapUsed: number; rss: number };
  const before = await server.ask<Mem>("memory");
  const started = performance.now();
  const close = await openStreams(server.ports.streams, count);
  const openMs = performance.now() - started;
  // Past treeIdleMs (1 s in live-server.ts), then the sweep a running server does on its own.
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const busy = await server.ask<Mem>("memory");
  await server.ask("sweep");
  const after = await server.ask<Mem>("memory");
  const stats = await server.ask<{ sessions: number; streams: number; trees: number }>("stats");
  close();
  if (stats.streams !== count) throw new Error(`expected ${count} open streams, the server holds ${stats.streams}`);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(
    `${count} SSE sessions opened in ${(openMs / 1000).toFixed(1)} s; server child before: heap ${mb(before.heapUsed)} MB, RSS ${
      mb(before.rss)
    } MB; ` +
      `open, before the sweep: heap ${mb(busy.heapUsed)} MB, RSS ${
        mb(busy.rss)
      } MB; open, quiet and swept (${stats.trees} trees kept): heap ${mb(after.heapUsed)} MB, RSS ${mb(after.rss)} MB`,
  );
  const perSession = (bytes: number) => bytes / count / 1024;
  const base = { unit: "KB", higherIsBetter: false, peer: LIVEVIEW_KB, peerName: PUBLISHED_LIVEVIEW, target: "(info)", met: true } as const;
  return [
    {
      ...base,
      name: `${count.toLocaleString("en-US")} open SSE sessions, quiet: heap per session (total ${mb(after.heapUsed)} MB)`,
      ours: perSession(after.heapUsed - before.heapUsed),
    },
    {
      ...base,
      name: `${count.toLocaleString("en-US")} open SSE sessions, quiet: RSS per session (total ${mb(after.rss)} MB)`,
      ours: perSession(after.rss - before.rss),
    },
  ];
}

// ---------------------------------------------------------------------------------------------

const loadBefore = await readLoad();
if (wants("inproc")) {
  // The views must be the same page, or the rows would compare different work.
  const sample = { ...initialModel, count: 3, name: "Ada" };
  for (const other of [viewStaticBuiltOnce, viewTuned, viewTemplate]) {
    if (render(view(sample)) !== render(other(sample))) throw new Error(`${other.name} renders another page than view`);
  }
  for (const variant of FORM_VARIANTS) {
    rows.push(await inProcess(1, variant));
    rows.push(await inProcess(100, variant));
  }
}
if (wants("memory")) rows.push(...(await memoryRows()));
if (wants("http") || wants("streams")) {
  if (runtime !== "node") {
    const reason =
      `Node only (the server child runs on @hono/node-server and the load comes from autocannon); run under node for these rows`;
    if (wants("http")) skips.push({ name: "events/s and latency over HTTP, 100 sessions", reason });
    if (wants("streams")) skips.push({ name: "10,000 open SSE sessions: RSS and heap", reason });
  } else {
    const server = await startServer();
    try {
      if (wants("http")) {
        for (const variant of FORM_VARIANTS) rows.push(...(await httpLoadRows(server, variant, variant === "template")));
      }
      if (wants("streams")) rows.push(...(await streamRows(server)));
    } finally {
      server.stop();
    }
  }
}
console.log(
  `load average (1 min) before / after: ${loadBefore} / ${await readLoad()} on a shared machine; events/s rows are the pair of adjacent rounds with the median ratio`,
);
report("live", rows);
for (const skip of skips) {
  console.log(`| ${skip.name} | skipped: ${skip.reason} |`);
  console.log(`BENCH_SKIP ${JSON.stringify({ area: "live", name: skip.name, reason: skip.reason })}`);
}

async function readLoad(): Promise<string> {
  try {
    const { readFileSync } = await import("node:fs");
    return readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?";
  } catch {
    return "?";
  }
}
