/**
 * Several replicas (docs/deployment.md#several-replicas, #the-bus, #capacity): events/s, latency
 * and cost of the counter app (tests/support/counter-app.ts) as
 *   - 1 replica, sessions in memory (the peer: what one process does alone)
 *   - 1 replica, sessions on Postgres, on each bus
 *   - 3 and 6 replicas on one Postgres, on each bus, behind the round-robin proxy (a session moves
 *     with most events) and behind the sticky proxy
 *   - the in-memory replica behind the same proxy process, which tells the proxy's share of the
 *     clusters' figures apart (its CPU is not counted in any configuration's)
 * every replica and each proxy its own Node process (bench/proxy-process.ts, as a load balancer
 * runs apart from its clients). Each configuration holds SESSIONS sessions (pages opened
 * beforehand), STREAMS of them with an SSE stream open through its proxy, and TABS drivers in this
 * process each post one event at a time over HTTP (typing and clicks) to their share of the
 * sessions in turn.
 *
 * One cluster runs at a time (its replicas are stopped before the next starts), so Postgres's
 * max_connections holds the largest: each replica's pool is POOL connections (default 8) plus its
 * listening ones, so six replicas take about 60. The in-memory replica runs throughout; each
 * configuration's rounds take turns with rounds of it, and a configuration's ratios are those of
 * its median pair (bench/report.ts `medianPair`), so that both sides of a ratio saw the same
 * machine.
 *
 * Reported per configuration: events/s, p50 and p99, DB round trips, statements and statements
 * that can NOTIFY per event (counted by the replicas, tests/support/replica-main.ts), CPU per event
 * of the replicas and of the Postgres backends serving them (told apart by application name), and
 * the time those backends spent waiting on NOTIFY's commit lock or its queue, sampled from
 * pg_stat_activity every NOTIFY_SAMPLE_MS. Then the bounds of issue-level targets against the
 * in-memory replica.
 *
 * Scale (environment):
 *   REPLICAS_BENCH_BUSES   postgres,redis,nats (Redis and NATS only with SVC_TEST_REDIS_URL / SVC_TEST_NATS_URL)
 *   REPLICAS_BENCH_COUNTS  1,3,6          REPLICAS_BENCH_MODES  round-robin,sticky
 *   REPLICAS_BENCH_SESSIONS 1000          REPLICAS_BENCH_STREAMS 100       REPLICAS_BENCH_TABS 40
 *   REPLICAS_BENCH_ROUND_MS 1500          REPLICAS_BENCH_ROUNDS 3          REPLICAS_BENCH_POOL 8
 *   REPLICAS_BENCH_PROXY_REFERENCE 1 (0: skip the in-memory replica behind the proxy)
 * The full matrix (16 configurations) with rounds of 2,000 ms ran 12 minutes on 2 cores under a
 * load average of 9 to 15 (the default rounds, 1,500 ms, save 16 x 8 x 0.5 s of that). A reduced run,
 *   REPLICAS_BENCH_BUSES=postgres,redis REPLICAS_BENCH_COUNTS=1,3 REPLICAS_BENCH_SESSIONS=200 \
 *     REPLICAS_BENCH_STREAMS=40 REPLICAS_BENCH_ROUNDS=2 node --import tsx bench/replicas.bench.ts
 * ran in 2 minutes 21 seconds there (load average 11 to 13).
 *
 * Needs SVC_TEST_POSTGRES_URL, and Node (the replicas are Node child processes).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import postgres from "postgres";
import type { Mode } from "../examples/replicas/proxy.ts";
import { Cluster } from "../tests/support/replicas-harness.ts";
import { type SseStream, Tab } from "../tests/replicas/tab.ts";
import { busEnv, busTargets } from "../tests/support/bus-targets.ts";
import { type BenchRow, medianPair, percentile, report } from "./report.ts";

const AREA = "replicas";
const env = (name: string, fallback: string) => process.env[`REPLICAS_BENCH_${name}`] ?? fallback;
const TABS = Number(env("TABS", "40"));
const SESSIONS = Number(env("SESSIONS", "1000"));
const STREAMS = Math.min(SESSIONS, Number(env("STREAMS", "100")));
const COUNTS = env("COUNTS", "1,3,6").split(",").map(Number);
const BUSES = env("BUSES", "postgres,redis,nats").split(",");
const MODES = env("MODES", "round-robin,sticky").split(",") as Mode[];
const ROUND_MS = Number(env("ROUND_MS", "1500"));
const ROUNDS = Number(env("ROUNDS", "3"));
const POOL = env("POOL", "8");
/** Whether to measure the in-memory replica behind the proxy too (the proxy's share of the clusters' figures). */
const PROXY_REFERENCE = env("PROXY_REFERENCE", "1") !== "0";
const NOTIFY_SAMPLE_MS = 10;
const TEXT_INPUT = "r.#input:text";

const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
const url = process.env.SVC_TEST_POSTGRES_URL;
const skip = runtime !== "Node"
  ? `the replicas are Node child processes; this is ${runtime}`
  : url
  ? undefined
  : "SVC_TEST_POSTGRES_URL is not set";
if (skip !== undefined) {
  console.log(`BENCH_SKIP ${JSON.stringify({ area: AREA, name: "several replicas", reason: skip })}`);
  process.exit(0);
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** One configuration: where its tabs send, its replicas, and the application name of its Postgres backends. */
type Config = { name: string; bus: string; count: number; mode: Mode; base: string; pids: number[]; replicas: string[]; appName?: string };
/** What the replicas sent: round trips, statements, those able to NOTIFY, session saves, and saves able to NOTIFY. */
type DbCounts = { roundTrips: number; statements: number; notifying: number; saves: number; notifyingSaves: number };
const COUNTED = ["roundTrips", "statements", "notifying", "saves", "notifyingSaves"] as const;
type Round = DbCounts & {
  events: number;
  seconds: number;
  latencies: number[];
  replicaCpu: number;
  pgCpu: number;
  /** Backend-seconds spent waiting on NOTIFY's lock or queue (samples x interval). */
  notifyWait: number;
};

const admin = postgres(url!, { onnotice: () => {}, max: 2 });

/** What the replicas sent to the database so far (each counts its own). */
async function dbCounts(config: Config): Promise<DbCounts> {
  const total: DbCounts = { roundTrips: 0, statements: 0, notifying: 0, saves: 0, notifyingSaves: 0 };
  if (config.appName === undefined) return total;
  for (const base of config.replicas) {
    const one = (await (await fetch(`${base}/test/db-counts`)).json()) as DbCounts;
    for (const name of COUNTED) total[name] += one[name];
  }
  return total;
}

/** CPU seconds of the Postgres backends serving this configuration's replicas (by application name). */
async function postgresCpu(config: Config): Promise<number> {
  if (config.appName === undefined) return 0;
  const rows = await admin`SELECT pid FROM pg_stat_activity WHERE application_name = ${config.appName}`;
  return rows.reduce<number>((sum, row) => sum + cpuOf(Number(row.pid)), 0);
}
const cpuOfAll = (config: Config) => config.pids.reduce<number>((sum, pid) => sum + cpuOf(pid), 0);

/**
 * Samples pg_stat_activity until `stop()`: how many of the configuration's backends wait on the
 * lock a notifying transaction takes at commit (a Lock on an "object") or on NOTIFY's queue
 * (LWLocks named Notify…); resolves to backend-seconds of waiting.
 */
function sampleNotifyWaits(appName: string): { stop: () => Promise<number> } {
  let waiting = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      const [row] = await admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${appName}
        AND ((wait_event_type = 'Lock' AND wait_event = 'object') OR (wait_event_type = 'LWLock' AND wait_event LIKE 'Notify%'))`;
      waiting += Number(row?.n ?? 0);
      await new Promise((resolve) => setTimeout(resolve, NOTIFY_SAMPLE_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await sampling;
      return (waiting * NOTIFY_SAMPLE_MS) / 1000;
    },
  };
}

/** TABS drivers post events until `until`, each to its share of the sessions in turn; resolves to the events and their latencies. */
async function drive(config: Config, sessions: Tab[], until: number): Promise<{ events: number; latencies: number[] }> {
  const latencies: number[] = [];
  let events = 0;
  const tabs = Array.from({ length: Math.min(TABS, sessions.length) }, (_, d) => sessions.filter((_, i) => i % TABS === d));
  await Promise.all(
    tabs.map(async (share, t) => {
      for (let i = 0; performance.now() < until; i++) {
        const tab = share[i % share.length]!;
        const sent = performance.now();
        const reply = i % 2 === 0
          ? await tab.send("Inc")
          : await tab.send("Type", [`tab ${t} ${i}`], { [TEXT_INPUT]: { value: `tab ${t} ${i}`, seq: tab.seq + 1 } });
        // A 204: the proxy passed the request on after a reset connection, and its first copy was
        // applied already (examples/replicas/proxy.ts, `passedOn`): one event, as the tests count it.
        if (reply.status !== 200 && reply.status !== 204) throw new Error(`${config.name}: ${reply.status} ${reply.body}`);
        latencies.push(performance.now() - sent);
        events++;
      }
    }),
  );
  return { events, latencies };
}

/** One round of ROUND_MS on `config`, with what it cost. */
async function round(config: Config, sessions: Tab[]): Promise<Round> {
  const waits = config.appName === undefined ? undefined : sampleNotifyWaits(config.appName);
  const cpuBefore = cpuOfAll(config);
  const pgBefore = await postgresCpu(config);
  const countsBefore = await dbCounts(config);
  const started = performance.now();
  const driven = await drive(config, sessions, started + ROUND_MS).finally(() => waits?.stop());
  const { events, latencies } = driven;
  const seconds = (performance.now() - started) / 1000;
  const countsAfter = await dbCounts(config);
  return {
    events,
    seconds,
    latencies,
    replicaCpu: cpuOfAll(config) - cpuBefore,
    pgCpu: (await postgresCpu(config)) - pgBefore,
    ...(Object.fromEntries(COUNTED.map((name) => [name, countsAfter[name] - countsBefore[name]])) as DbCounts),
    notifyWait: (await waits?.stop()) ?? 0,
  };
}

/** A process that prints "listening <port>" once it serves. */
function spawnListening(args: string[], extraEnv: Record<string, string>, what: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    env: { ...process.env, ...extraEnv },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    });
    child.on("exit", (code) => reject(new Error(`${what} exited with ${code}`)));
  });
}
const spawnMemoryReplica = () =>
  spawnListening(
    [new URL("../tests/support/replica-main.ts", import.meta.url).pathname],
    { DATABASE_URL: "", PORT: "0", SVC_AUTH_TOKEN_SECRET: "replica-bench-secret-replica-bench-secret-0123456789" },
    "memory replica",
  );
/** The proxy in its own process (bench/proxy-process.ts), as a load balancer runs apart from its clients. */
const spawnProxy = (mode: Mode, targets: string[]) =>
  spawnListening([new URL("./proxy-process.ts", import.meta.url).pathname, mode, ...targets], {}, "proxy");

/** Opens SESSIONS pages at `base`, a few at a time, and STREAMS streams. */
async function openSessions(base: string, streams: SseStream[]): Promise<Tab[]> {
  const tabs: Tab[] = [];
  for (let i = 0; i < SESSIONS; i += 50) {
    // Each sends an event at once: a session that never connects ends after pendingMs (docs/deployment.md#session-bounds).
    const opening = Array.from({ length: Math.min(50, SESSIONS - i) }, async () => {
      const tab = await new Tab(base).open();
      await tab.send("Inc");
      return tab;
    });
    tabs.push(...await Promise.all(opening));
  }
  for (const tab of tabs.slice(0, STREAMS)) streams.push(await tab.subscribe());
  return tabs;
}

type Measured = { config: Config; rounds: Round[]; memoryRounds: Round[] };

/** A warm-up pair, then ROUNDS pairs of a memory round and a round of `config`, in alternating order. */
async function measure(config: Config, tabs: Tab[], memory: { config: Config; tabs: Tab[] }): Promise<Measured> {
  await round(memory.config, memory.tabs);
  await round(config, tabs);
  const measured: Measured = { config, rounds: [], memoryRounds: [] };
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) measured.memoryRounds.push(await round(memory.config, memory.tabs));
    measured.rounds.push(await round(config, tabs));
    if (r % 2 === 1) measured.memoryRounds.push(await round(memory.config, memory.tabs));
  }
  console.log(`# measured ${config.name} (load average ${loadAverage()})`);
  return measured;
}

/** Every bus, count and mode the environment asks for, one cluster at a time. */
async function measureClusters(memory: { config: Config; tabs: Tab[] }): Promise<Measured[]> {
  const results: Measured[] = [];
  const buses = busTargets().filter((target) => target.skip === undefined && BUSES.some((b) => target.name.toLowerCase().startsWith(b)));
  for (const bus of buses) {
    const onBus = bus.option === "postgres" ? "Postgres" : `Postgres + ${bus.name}`;
    for (const count of COUNTS) {
      const cluster = await Cluster.start(count, "round-robin", { ...busEnv(bus.option), SVC_TEST_DB_POOL: POOL });
      const proxies: ChildProcess[] = [];
      const streams: SseStream[] = [];
      try {
        const modes: Mode[] = count === 1 ? ["round-robin"] : MODES;
        for (const mode of modes) {
          // One replica needs no proxy: it is served directly, as the in-memory one is.
          const front = count === 1 ? undefined : await spawnProxy(mode, cluster.replicas.map((r) => r.url));
          if (front !== undefined) proxies.push(front.child);
          const config: Config = {
            name: count === 1 ? `1 replica, ${onBus}` : `${count} replicas, ${onBus}, ${mode}`,
            bus: bus.name,
            count,
            mode,
            base: front?.url ?? cluster.replicas[0]!.url,
            pids: cluster.replicas.map((r) => r.child.pid!),
            replicas: cluster.replicas.map((r) => r.url),
            appName: cluster.schema,
          };
          const tabs = await openSessions(config.base, streams);
          results.push(await measure(config, tabs, memory));
        }
      } finally {
        for (const stream of streams) await stream.close().catch(() => undefined);
        for (const proxy of proxies) proxy.kill("SIGKILL");
        await cluster.stop();
      }
    }
  }
  return results;
}

type Summary = ReturnType<typeof summarize>;

function summarize(config: Config, rounds: Round[], memoryRounds: Round[]) {
  const total = (pick: (r: Round) => number) => rounds.reduce((s, r) => s + pick(r), 0);
  const events = total((r) => r.events);
  const seconds = total((r) => r.seconds);
  const latencies = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const perSecond = (list: Round[]) => list.map((r) => r.events / r.seconds);
  const cpuPerEvent = (list: Round[]) => list.map((r) => ((r.replicaCpu + r.pgCpu) / r.events) * 1e6);
  return {
    config,
    eventsPerSecond: events / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    replicaCpuUs: (total((r) => r.replicaCpu) / events) * 1e6,
    pgCpuUs: (total((r) => r.pgCpu) / events) * 1e6,
    roundTrips: total((r) => r.roundTrips) / events,
    statements: total((r) => r.statements) / events,
    notifying: total((r) => r.notifying) / events,
    saves: total((r) => r.saves) / events,
    notifyingSaves: total((r) => r.notifyingSaves) / events,
    notifyWaitMsPerS: (total((r) => r.notifyWait) / seconds) * 1000,
    /** Events/s against the in-memory replica: the median of the pairs. */
    pair: medianPair(perSecond(rounds), perSecond(memoryRounds)),
    /** CPU per event against the in-memory replica's: the median of the pairs. */
    cpuPair: medianPair(cpuPerEvent(rounds), cpuPerEvent(memoryRounds)),
  };
}

function printTable(memory: Summary, summaries: Summary[]): void {
  console.log(
    `\n${SESSIONS} sessions per configuration (${STREAMS} with a stream open), ${TABS} drivers, ${ROUNDS} rounds of ${ROUND_MS} ms each, taking turns with the in-memory replica; pools of ${POOL}; ${coreCount()} cores, replicas, proxies and Postgres on one machine; load average at the end ${loadAverage()}`,
  );
  console.log(
    "| configuration | events/s | x memory (median pair) | p50 ms | p99 ms | DB round trips / event | statements / event | of them saves | statements able to NOTIFY / event | of them saves | replica CPU µs / event | Postgres CPU µs / event | CPU x memory | notify-lock wait ms / s |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const s of [memory, ...summaries]) {
    const x = s === memory ? "1.00" : (s.pair.ours / s.pair.peer).toFixed(2);
    const cpuX = s === memory ? "1.00" : (s.cpuPair.ours / s.cpuPair.peer).toFixed(2);
    console.log(
      `| ${s.config.name} | ${Math.round(s.eventsPerSecond)} | ${x} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${
        s.roundTrips.toFixed(2)
      } | ${s.statements.toFixed(2)} | ${s.saves.toFixed(2)} | ${s.notifying.toFixed(3)} | ${s.notifyingSaves.toFixed(3)} | ${
        Math.round(s.replicaCpuUs)
      } | ${Math.round(s.pgCpuUs)} | ${cpuX} | ${s.notifyWaitMsPerS.toFixed(1)} |`,
    );
  }
}

function coreCount(): number {
  return readFileSync("/proc/cpuinfo", "utf8").split("\n").filter((line) => line.startsWith("processor")).length;
}

/** The targets, each against the in-memory replica measured beside it; a configuration left out by the scale is said so. */
function boundRows(summaries: Summary[]): BenchRow[] {
  const rows: BenchRow[] = [];
  const inMemory = "1 replica in memory";
  const find = (bus: string, count: number, mode: Mode) =>
    summaries.find((s) => s.config.bus === bus && s.config.count === count && (count === 1 || s.config.mode === mode));
  for (const bus of busTargets().map((target) => target.name)) {
    const events = (count: number, mode: Mode, min: number, label: string) => {
      const s = find(bus, count, mode);
      if (s === undefined) return console.log(`# not measured at this scale: ${label} on ${bus}`);
      const { ours, peer } = s.pair;
      rows.push({
        name: `events/s, ${label}, ${bus} bus, vs 1 in memory`,
        ours,
        peer,
        peerName: inMemory,
        unit: "events/s",
        higherIsBetter: true,
        target: `ratio >= ${min}x`,
        met: ours >= min * peer,
      });
    };
    events(1, "round-robin", 0.85, "1 replica on Postgres");
    events(3, "sticky", 0.8, "3 replicas sticky");
    events(3, "round-robin", 0.5, "3 replicas round-robin");
    const one = find(bus, 1, "round-robin");
    if (one !== undefined) {
      rows.push({
        name: `CPU per event (replicas + Postgres), 1 replica, ${bus} bus, vs 1 in memory`,
        ours: one.cpuPair.ours,
        peer: one.cpuPair.peer,
        peerName: inMemory,
        unit: "µs",
        higherIsBetter: false,
        target: "ratio >= 0.5x (at most 2x the CPU)",
        met: one.cpuPair.ours <= 2 * one.cpuPair.peer,
      });
    }
    const sticky = find(bus, 3, "sticky");
    if (sticky !== undefined && bus !== "Postgres NOTIFY") {
      // The saves are the event path; the rest of the statements are each replica's own, per
      // second rather than per event (lease renewal, the Postgres bus's ping), printed in the table.
      // A count that must be zero has no ratio: it is a line of its own.
      const notify = sticky.notifyingSaves === 0 ? "met" : "NOT met";
      console.log(`# saves able to NOTIFY per event, 3 replicas sticky, ${bus} bus: ${sticky.notifyingSaves} (target none): ${notify}`);
      rows.push({
        name: `Postgres statements per event (all), 3 replicas sticky, ${bus} bus, vs one statement`,
        ours: sticky.statements,
        peer: 1,
        peerName: "one statement per event",
        unit: "statements",
        higherIsBetter: false,
        target: "at most 1",
        met: sticky.statements <= 1,
      });
    }
  }
  return rows;
}

const streams: SseStream[] = [];
const memoryProcess = await spawnMemoryReplica();
try {
  console.log(`# load average at the start ${loadAverage()}`);
  const memoryConfig: Config = {
    name: "1 replica, memory",
    bus: "none",
    count: 1,
    mode: "round-robin",
    base: memoryProcess.url,
    pids: [memoryProcess.child.pid!],
    replicas: [memoryProcess.url],
  };
  const memory = { config: memoryConfig, tabs: await openSessions(memoryProcess.url, streams) };
  // The proxy's own share: the in-memory replica behind the proxy process the clusters use.
  const reference: Measured[] = [];
  if (PROXY_REFERENCE) {
    const front = await spawnProxy("sticky", [memoryProcess.url]);
    try {
      const config: Config = { ...memoryConfig, name: "1 replica, memory, behind the proxy", base: front.url };
      reference.push(await measure(config, await openSessions(front.url, streams), memory));
    } finally {
      front.child.kill("SIGKILL");
    }
  }
  const measured = [...reference, ...(await measureClusters(memory))];
  const memoryRounds = measured.flatMap((m) => m.memoryRounds);
  const memorySummary = summarize(memoryConfig, memoryRounds, memoryRounds);
  const summaries = measured.map((m) => summarize(m.config, m.rounds, m.memoryRounds));
  printTable(memorySummary, summaries);
  report(AREA, boundRows(summaries));
} finally {
  for (const stream of streams) await stream.close().catch(() => undefined);
  memoryProcess.child.kill("SIGKILL");
  await admin.end({ timeout: 5 });
}
