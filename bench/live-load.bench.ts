/**
 * HTTP load at 1,000 concurrent sessions, beside bench/live.bench.ts's 100-session run.
 *
 * The server child is bench/live-server.ts: the bench form app (bench/live-app.ts, about 100
 * elements) and the bare Hono route that parses the same JSON and answers JSON, each served by
 * @hono/node-server on 127.0.0.1 at a random port, in a process of their own. This process opens
 * 1,000 sessions over HTTP (a page load each: cookie, CSRF token, handle), then drives all of them
 * at once: each session is a tab that sends its next event (its own cookie, CSRF header and rising
 * seq) as soon as the reply to the last one is read, over a keep-alive agent with one socket per
 * tab, so 1,000 requests are in flight at every moment. The sockets are opened in the warm-up
 * round and kept across rounds (one agent per server; the server keeps idle connections for a
 * minute), so the measured rounds time events, not connection setup. The bare route gets the same 1,000 tabs
 * and the same bodies. (autocannon, which the 100-session run uses with one instance per session,
 * does not scale to 1,000 instances in one process, and one instance cannot give each of its
 * connections its own cookie; the generator here is node:http, which is also what it measures
 * latency with: from the request's start to the last byte of the reply.)
 *
 * Rounds alternate ours / bare (3 s each by default, 3 rounds: ours is measured for 9 s in all),
 * after a 1 s warm-up of each. Reported: events/s (the median round; target >= 0.5x the bare
 * route, the target of the 100-session run) and p50 / p99 latency over every response of every
 * round (informational: with 1,000 tabs in flight on one server thread, latency is mostly queueing).
 * Loopback only. Node only: the server child runs on @hono/node-server with Node's IPC; under Bun
 * and Deno the rows are skipped with the reason printed.
 *
 * Run: npx tsx bench/live-load.bench.ts [scale] [sessions]
 * `scale` (default 1) multiplies the round length (at least 1 s); `sessions` (an integer >= 10,
 * given after the scale) changes the session count.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ServerPorts } from "./live-server.ts";
import { eventBody, eventHeaders, httpRows, openHttpSessions, type SessionCreds } from "./live-app.ts";
import { type BenchRow, report } from "./report.ts";

type G = { Bun?: unknown; Deno?: { args: string[] }; process?: { argv: string[]; execPath: string } };
const g = globalThis as G;
const runtime = g.Bun ? "bun" : g.Deno ? "deno" : "node";
const args = g.Deno?.args ?? g.process?.argv.slice(2) ?? [];
const numbers = args.map(Number).filter((n) => n > 0);
const scale = numbers[0] ?? 1;
const SESSIONS = numbers[1] !== undefined && Number.isInteger(numbers[1]) && numbers[1] >= 10 ? numbers[1] : 1_000;
const ROUNDS = 3;
const ROUND_SECONDS = Math.max(1, Math.round(3 * scale));
const label = SESSIONS.toLocaleString("en-US");

function readLoad(): Promise<string> {
  return import("node:fs").then(
    ({ readFileSync }) => readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?",
    () => "?",
  );
}

/** Starts bench/live-server.ts (Node, tsx) and waits for its ports. */
async function startServer(): Promise<{ ports: ServerPorts; stop(): void }> {
  const file = fileURLToPath(new URL("live-server.ts", import.meta.url));
  const child = spawn(g.process!.execPath, ["--expose-gc", "--import", "tsx", file], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const ports = await new Promise<ServerPorts>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`live-server.ts exited with ${code}`)));
    child.on("message", (message: { kind: string; ports?: ServerPorts }) => {
      if (message.kind === "ready") resolve(message.ports!);
    });
  });
  return { ports, stop: () => child.kill() };
}

type Run = { events: number; seconds: number; latencies: number[]; errors: number; statuses: Map<number, number> };

/** POSTs one event over the shared keep-alive agent; resolves with the status once the body is read. */
function post(
  http: typeof import("node:http"),
  agent: import("node:http").Agent,
  port: number,
  creds: SessionCreds,
  body: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/_svc/event",
      agent,
      headers: { ...eventHeaders(creds), "Content-Length": Buffer.byteLength(body) },
    }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * One round: every session is a tab sending its events back to back (the next one leaves when the
 * reply to the last has been read) for `seconds`; all tabs at once, over one keep-alive agent with
 * a socket per tab.
 */
async function loadRound(
  agent: import("node:http").Agent,
  port: number,
  sessions: SessionCreds[],
  seqs: number[],
  seconds: number,
): Promise<Run> {
  const http = await import("node:http");
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let errors = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    sessions.map(async (creds, k) => {
      while (performance.now() < deadline) {
        seqs[k]! += 1;
        const sent = performance.now();
        try {
          const status = await post(http, agent, port, creds, eventBody(creds, seqs[k]!));
          if (status === 200) latencies.push(performance.now() - sent);
          else {
            errors += 1;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { events: latencies.length, seconds: elapsed, latencies, errors, statuses };
}

async function loadRows(): Promise<BenchRow[]> {
  const server = await startServer();
  try {
    const opened = performance.now();
    const sessions = await openHttpSessions(server.ports.events.plain, SESSIONS, 16);
    console.log(`${label} sessions opened over HTTP in ${((performance.now() - opened) / 1000).toFixed(1)} s`);
    const oursSeqs = sessions.map(() => 0);
    const bareSeqs = sessions.map(() => 0);
    // One agent per server for the whole run, keeping every socket (by default an agent keeps 256
    // idle ones and closes the rest): the warm-up rounds open the tabs' sockets and the measured
    // rounds reuse them. Opened anew each round, 1,000 connections at once overflowed the listen
    // queue (511): the dropped SYNs were retried a second or more later, and that wait was counted
    // as event latency (p99 of 0.3 s to 2 s from one run to the next, 4 % of events over 1 s).
    const http = await import("node:http");
    const agentOptions = { keepAlive: true, maxSockets: SESSIONS, maxFreeSockets: SESSIONS };
    const agents = { ours: new http.Agent(agentOptions), bare: new http.Agent(agentOptions) };
    await loadRound(agents.ours, server.ports.events.plain, sessions, oursSeqs, 1);
    await loadRound(agents.bare, server.ports.bare, sessions, bareSeqs, 1);
    const rates = { ours: [] as number[], bare: [] as number[] };
    const latencies = { ours: [] as number[], bare: [] as number[] };
    let oursErrors = 0;
    const oursStatuses = new Map<number, number>();
    for (let r = 0; r < ROUNDS; r++) {
      for (const who of r % 2 === 0 ? (["ours", "bare"] as const) : (["bare", "ours"] as const)) {
        const run = await loadRound(
          agents[who],
          who === "ours" ? server.ports.events.plain : server.ports.bare,
          sessions,
          who === "ours" ? oursSeqs : bareSeqs,
          ROUND_SECONDS,
        );
        rates[who].push(run.events / run.seconds);
        for (const ms of run.latencies) latencies[who].push(ms); // a spread of 100,000+ values overflows the stack
        if (who === "ours") {
          oursErrors += run.errors;
          for (const [status, n] of run.statuses) oursStatuses.set(status, (oursStatuses.get(status) ?? 0) + n);
        }
      }
    }
    const oursEvents = latencies.ours.length;
    if (oursErrors > 0) {
      const detail = [...oursStatuses].map(([status, n]) => `${n} x ${status}`).join(", ");
      throw new Error(`${oursErrors} of ${oursEvents + oursErrors} event requests failed over HTTP${detail ? ` (${detail})` : ""}`);
    }
    latencies.ours.sort((a, b) => a - b);
    latencies.bare.sort((a, b) => a - b);
    console.log(
      `HTTP, ${label} sessions x 1 connection, events/s per ${ROUND_SECONDS} s round: ours ${rates.ours.map(Math.round).join(" ")}; bare ${
        rates.bare.map(Math.round).join(" ")
      }` +
        ` (${oursEvents.toLocaleString("en-US")} events of ours measured, no error)`,
    );
    agents.ours.destroy();
    agents.bare.destroy();
    return httpRows(label, rates, latencies);
  } finally {
    server.stop();
  }
}

const loadBefore = await readLoad();
const rows: BenchRow[] = [];
const skips: { name: string; reason: string }[] = [];
if (runtime !== "node") {
  skips.push({
    name: `events/s and p50/p99 latency over HTTP, ${label} sessions`,
    reason:
      "Node only (the server child runs on @hono/node-server, started with Node IPC, as in the live bench); run under node for these rows",
  });
} else {
  rows.push(...(await loadRows()));
}
console.log(`load average (1 min) before / after: ${loadBefore} / ${await readLoad()} on a shared machine`);
report("live-load", rows);
for (const skip of skips) {
  console.log(`| ${skip.name} | skipped: ${skip.reason} |`);
  console.log(`BENCH_SKIP ${JSON.stringify({ area: "live-load", name: skip.name, reason: skip.reason })}`);
}
