/**
 * One replica holding 10,000 sessions (docs/deployment.md#capacity): SESSIONS sessions of the
 * 20-row table page (bench/table-page.ts), each with its event stream open, on one server process
 * (bench/table-load-server.ts, in memory, as one replica); DRIVERS tabs in this process send events
 * (a new quantity typed into a row) one at a time through a SAMPLE of the sessions, over HTTP on
 * 127.0.0.1. The peer is the same server holding only the sample's sessions, with their streams
 * open, under the same traffic: the ratios say what holding the other sessions costs the events.
 * The two servers take turns in rounds of ROUND_MS. Reported: the heap after two forced
 * collections and the RSS of each, the heap per session, events/s, p50 and p99 of an event, and
 * the server's CPU per event.
 *
 * Scale (environment): TABLE_LOAD_SESSIONS (10000), TABLE_LOAD_SAMPLE (200), TABLE_LOAD_DRIVERS
 * (40), TABLE_LOAD_ROUND_MS (3000), TABLE_LOAD_ROUNDS (3). The full run takes two to three
 * minutes on 2 cores, most of it opening the sessions:
 *
 *   node --import tsx bench/table-load.bench.ts
 *
 * Node only (the servers are Node child processes, and 10,000 streams are node:http sockets).
 */
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import { readFileSync } from "node:fs";
import process from "node:process";
import { type BenchRow, medianPair, percentile, report } from "./report.ts";
import { type Fetch, openTab, origin, oursRequest, type Tab } from "./table-tabs.ts";

const AREA = "one replica, 10,000 sessions";
const env = (name: string, fallback: number) => Number(process.env[`TABLE_LOAD_${name}`] ?? fallback);
const ROWS = 20;
const SESSIONS = env("SESSIONS", 10_000);
const SAMPLE = Math.min(SESSIONS, env("SAMPLE", 200));
const DRIVERS = Math.min(SAMPLE, env("DRIVERS", 40));
const ROUND_MS = env("ROUND_MS", 3000);
const ROUNDS = env("ROUNDS", 3);
/** Pages loaded at once while opening; each connects its stream before the next batch (the pending bound). */
const BATCH = 200;

const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
if (runtime !== "Node") {
  console.log(`BENCH_SKIP ${JSON.stringify({ area: AREA, name: "10,000 sessions", reason: `Node child processes; this is ${runtime}` })}`);
  process.exit(0);
}
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

type Server = { child: ChildProcess; base: string; port: number; fetch: Fetch; tabs: Tab[]; streams: http.ClientRequest[] };

/** Keep-alive sockets for page loads and events; each stream has a socket of its own. */
const agent = new http.Agent({ keepAlive: true, maxSockets: DRIVERS * 2 });

/** A request of the bench's origin (bench/table-tabs.ts) sent to `port` over node:http, answered as a Response. */
function send(port: number, req: Request): Promise<Response> {
  const url = new URL(req.url);
  return new Promise((resolve, reject) => {
    void req.text().then((body) => {
      const out = http.request(
        { host: "127.0.0.1", port, path: url.pathname + url.search, method: req.method, agent, headers: Object.fromEntries(req.headers) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              for (const one of Array.isArray(value) ? value : [value ?? ""]) headers.append(name, one);
            }
            resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode, headers }));
          });
        },
      );
      out.on("error", reject);
      out.end(body);
    }, reject);
  });
}

async function startServer(maxSessions: number): Promise<Server> {
  const main = new URL("./table-load-server.ts", import.meta.url).pathname;
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", main, String(ROWS), String(maxSessions)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (found) resolve(Number(found));
    });
    child.on("exit", (code) => reject(new Error(`table-load-server exited with ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${port}`, port, fetch: (req) => send(port, req), tabs: [], streams: [] };
}

/** Opens a tab's stream on a socket of its own and reads it to its end, as a browser would. */
function openStream(server: Server, tab: Tab): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: "127.0.0.1",
        port: server.port,
        path: `/_svc/subscribe?after=0&page=${encodeURIComponent(tab.page)}`,
        agent: false,
        headers: { Cookie: tab.cookie, "X-Svc-Csrf": tab.csrf },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`subscribe answered ${res.statusCode}`));
        res.on("data", () => {});
        res.on("error", () => {});
        resolve();
      },
    );
    req.on("error", reject);
    server.streams.push(req);
  });
}

/** Opens `count` sessions, a batch at a time, each page's stream open before the next batch loads. */
async function openSessions(server: Server, count: number): Promise<void> {
  for (let i = 0; i < count; i += BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(BATCH, count - i) }, (_, j) => openTab(server.fetch, ROWS, `page-${i + j}`)),
    );
    await Promise.all(batch.map((tab) => openStream(server, tab)));
    server.tabs.push(...batch);
  }
}

const json = async <T>(server: Server, path: string): Promise<T> =>
  (await (await server.fetch(new Request(`${origin}${path}`))).json()) as T;
type Memory = { heapUsed: number; rss: number; sessions: number };
type Round = { events: number; seconds: number; latencies: number[]; cpuMicros: number };

/** DRIVERS tabs send events for ROUND_MS, each through its share of the sample in turn. */
async function round(server: Server): Promise<Round> {
  const sample = server.tabs.slice(0, SAMPLE);
  const latencies: number[] = [];
  const cpuBefore = (await json<{ cpuMicros: number }>(server, "/bench/cpu")).cpuMicros;
  const started = performance.now();
  const until = started + ROUND_MS;
  await Promise.all(
    Array.from({ length: DRIVERS }, async (_, d) => {
      const share = sample.filter((_, i) => i % DRIVERS === d);
      for (let i = 0; performance.now() < until; i++) {
        const tab = share[i % share.length]!;
        const sent = performance.now();
        const reply = await server.fetch(oursRequest(tab));
        const body = await reply.text();
        if (reply.status !== 200) throw new Error(`event answered ${reply.status}: ${body.slice(0, 200)}`);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMicros = (await json<{ cpuMicros: number }>(server, "/bench/cpu")).cpuMicros - cpuBefore;
  return { events: latencies.length, seconds, latencies, cpuMicros };
}

const big = await startServer(SESSIONS);
const small = await startServer(SAMPLE);
try {
  console.log(`# load average at the start ${loadAverage()}`);
  const opening = performance.now();
  await openSessions(big, SESSIONS);
  console.log(`# opened ${SESSIONS} sessions with their streams in ${((performance.now() - opening) / 1000).toFixed(1)} s`);
  await openSessions(small, SAMPLE);
  // A warm-up round each (JIT, sockets), not counted.
  await round(big);
  await round(small);
  const rounds = { big: [] as Round[], small: [] as Round[] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? (["big", "small"] as const) : (["small", "big"] as const);
    for (const which of order) rounds[which].push(await round(which === "big" ? big : small));
  }
  const memory = { big: await json<Memory>(big, "/bench/memory"), small: await json<Memory>(small, "/bench/memory") };
  if (memory.big.sessions !== SESSIONS) throw new Error(`the server holds ${memory.big.sessions} sessions, not ${SESSIONS}`);
  const figures = (list: Round[]) => {
    const events = list.reduce((s, r) => s + r.events, 0);
    const latencies = list.flatMap((r) => r.latencies).sort((a, b) => a - b);
    return {
      perRound: list.map((r) => r.events / r.seconds),
      eventsPerSecond: events / list.reduce((s, r) => s + r.seconds, 0),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      cpuUs: list.reduce((s, r) => s + r.cpuMicros, 0) / events,
    };
  };
  const ours = figures(rounds.big), peer = figures(rounds.small);
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  const perSession = (memory.big.heapUsed - memory.small.heapUsed) / (SESSIONS - SAMPLE);
  console.log(
    `\n${ROWS}-row table page, streams open on every session, ${DRIVERS} drivers through a sample of ${SAMPLE}, ${ROUNDS} rounds of ${ROUND_MS} ms taking turns; load average ${loadAverage()}`,
  );
  console.log("| server | sessions | heap MB | RSS MB | events/s | p50 ms | p99 ms | server CPU µs / event |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [name, m, f] of [["holding all", memory.big, ours], ["holding the sample only", memory.small, peer]] as const) {
    console.log(
      `| ${name} | ${m.sessions} | ${mb(m.heapUsed)} | ${mb(m.rss)} | ${Math.round(f.eventsPerSecond)} | ${f.p50.toFixed(1)} | ${
        f.p99.toFixed(1)
      } | ${Math.round(f.cpuUs)} |`,
    );
  }
  console.log(`heap per session held (with its stream): ${(perSession / 1024).toFixed(1)} KB`);
  const pair = medianPair(ours.perRound, peer.perRound);
  const label = SESSIONS.toLocaleString("en-US");
  const peerName = `${SAMPLE} sessions`;
  const rows: BenchRow[] = [
    {
      name: `events/s, ${label} sessions with streams vs the sample alone`,
      ours: pair.ours,
      peer: pair.peer,
      peerName,
      unit: "events/s",
      higherIsBetter: true,
      target: "reported",
      met: true,
    },
    {
      name: `p99 event latency, ${label} sessions vs the sample alone`,
      ours: ours.p99,
      peer: peer.p99,
      peerName,
      unit: "ms",
      higherIsBetter: false,
      target: "reported",
      met: true,
    },
    {
      name: `server CPU per event, ${label} sessions vs the sample alone`,
      ours: ours.cpuUs,
      peer: peer.cpuUs,
      peerName,
      unit: "µs",
      higherIsBetter: false,
      target: "reported",
      met: true,
    },
    {
      name: `heap after collection, ${label} sessions vs the sample alone`,
      ours: memory.big.heapUsed / 2 ** 20,
      peer: memory.small.heapUsed / 2 ** 20,
      peerName,
      unit: "MB",
      higherIsBetter: false,
      target: "reported",
      met: true,
    },
  ];
  report(AREA, rows);
} finally {
  for (const server of [big, small]) {
    for (const stream of server.streams) stream.destroy();
    server.child.kill("SIGKILL");
  }
  agent.destroy();
}
