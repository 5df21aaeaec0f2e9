/**
 * Several replicas (docs/deployment.md#several-replicas, #the-bus): events/s and latency of the
 * counter app (tests/support/counter-app.ts) as
 *   - 1 replica, sessions in memory (the peer: what one process does today)
 *   - 1 replica, sessions on Postgres, on each bus
 *   - 3 and 6 replicas on one Postgres, on each bus, behind the round-robin proxy (a session moves
 *     with most events) and behind the sticky proxy
 * all in one run, every replica and each proxy its own Node process (bench/proxy-process.ts, as a
 * load balancer runs apart from its clients). Each configuration holds SESSIONS sessions (pages
 * opened beforehand), STREAMS of them with an SSE stream open through its proxy, and TABS drivers
 * in this process each post one event at a time over HTTP (typing and clicks) to their share of the
 * sessions in turn. The configurations take turns in rounds, so that each sees the same machine as
 * the others. Also reported: the database round trips per event (the statements and transactions
 * the replicas sent), the store's CPU cost per event (the replicas' CPU above the in-memory
 * replica's, plus the CPU of the Postgres backends serving them, told apart by application name),
 * and the time the backends spent waiting on NOTIFY's commit lock or its queue, sampled from
 * pg_stat_activity every NOTIFY_SAMPLE_MS.
 *
 * Buses: Postgres NOTIFY always; Redis and NATS when SVC_TEST_REDIS_URL and SVC_TEST_NATS_URL are
 * set. REPLICAS_BENCH_COUNTS (default "1,3,6") and REPLICAS_BENCH_BUSES ("postgres,redis,nats")
 * narrow the matrix.
 *
 * Needs SVC_TEST_POSTGRES_URL, and Node (the replicas are Node child processes). Each replica holds
 * up to about a dozen Postgres connections: the full matrix needs max_connections of a few hundred.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import postgres from "postgres";
import type { Mode } from "../examples/replicas/proxy.ts";
import { Cluster } from "../tests/support/replicas-harness.ts";
import { type SseStream, Tab } from "../tests/replicas/tab.ts";
import { busEnv, busTargets } from "../tests/support/bus-targets.ts";
import { type BenchRow, percentile, report } from "./report.ts";

const AREA = "replicas";
const TABS = Number(process.env.REPLICAS_BENCH_TABS ?? 40);
const SESSIONS = Number(process.env.REPLICAS_BENCH_SESSIONS ?? 1000);
const STREAMS = Number(process.env.REPLICAS_BENCH_STREAMS ?? 100);
const COUNTS = (process.env.REPLICAS_BENCH_COUNTS ?? "1,3,6").split(",").map(Number);
const BUSES = (process.env.REPLICAS_BENCH_BUSES ?? "postgres,redis,nats").split(",");
const NOTIFY_SAMPLE_MS = 10;
const ROUND_MS = Number(process.env.REPLICAS_BENCH_ROUND_MS ?? 3000);
const ROUNDS = Number(process.env.REPLICAS_BENCH_ROUNDS ?? 3);
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

type Config = {
  name: string;
  base: string;
  pids: () => (number | undefined)[];
  postgres: boolean;
  replicas: () => string[];
  appNames: string[];
};
type Round = {
  events: number;
  seconds: number;
  latencies: number[];
  replicaCpu: number;
  pgCpu: number;
  roundTrips: number;
  /** Backend-seconds spent waiting on NOTIFY's lock or queue (samples x interval). */
  notifyWait: number;
};

const admin = postgres(url!, { onnotice: () => {}, max: 2 });
/** The database round trips the replicas made (each counts its own statements and transactions). */
async function roundTrips(config: Config): Promise<number> {
  let total = 0;
  for (const base of config.replicas()) total += Number(await (await fetch(`${base}/test/round-trips`)).text());
  return total;
}
/** CPU seconds of the Postgres backends serving this configuration's replicas (by application name). */
async function postgresCpu(config: Config): Promise<number> {
  const rows = await admin`SELECT pid FROM pg_stat_activity WHERE application_name = ANY(${config.appNames})`;
  return rows.reduce<number>((sum, row) => sum + cpuOf(Number(row.pid)), 0);
}
const cpuOfAll = (config: Config) => config.pids().reduce<number>((sum, pid) => sum + cpuOf(pid), 0);

/**
 * Samples pg_stat_activity until `stop()`: how many of the configuration's backends wait on the
 * lock a notifying transaction takes at commit (a Lock on an "object") or on NOTIFY's queue
 * (LWLocks named Notify…); resolves to backend-seconds of waiting.
 */
function sampleNotifyWaits(config: Config): { stop: () => Promise<number> } {
  let waiting = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      const [row] = await admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ANY(${config.appNames})
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

/** One round: TABS drivers post events for ROUND_MS, each to its share of the sessions in turn; the pages were opened beforehand. */
async function round(config: Config, sessions: Tab[]): Promise<Round> {
  const latencies: number[] = [];
  let events = 0;
  const tabs = Array.from({ length: Math.min(TABS, sessions.length) }, (_, d) => sessions.filter((_, i) => i % TABS === d));
  const waits = config.postgres ? sampleNotifyWaits(config) : undefined;
  const cpuBefore = cpuOfAll(config);
  const pgBefore = config.postgres ? await postgresCpu(config) : 0;
  const tripsBefore = config.postgres ? await roundTrips(config) : 0;
  const started = performance.now();
  const until = started + ROUND_MS;
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
  const seconds = (performance.now() - started) / 1000;
  return {
    events,
    seconds,
    latencies,
    replicaCpu: cpuOfAll(config) - cpuBefore,
    pgCpu: config.postgres ? (await postgresCpu(config)) - pgBefore : 0,
    roundTrips: config.postgres ? (await roundTrips(config)) - tripsBefore : 0,
    notifyWait: (await waits?.stop()) ?? 0,
  };
}

function spawnMemoryReplica(): Promise<{ child: ChildProcess; url: string }> {
  const main = new URL("../tests/support/replica-main.ts", import.meta.url).pathname;
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    env: { ...process.env, DATABASE_URL: "", PORT: "0", SVC_AUTH_TOKEN_SECRET: "replica-bench-secret-replica-bench-secret-0123456789" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    });
    child.on("exit", (code) => reject(new Error(`memory replica exited with ${code}`)));
  });
}

/** The proxy in its own process (bench/proxy-process.ts), as a load balancer runs apart from its clients. */
function spawnProxy(mode: Mode, targets: string[]): Promise<{ child: ChildProcess; url: string }> {
  const main = new URL("./proxy-process.ts", import.meta.url).pathname;
  const child = spawn(process.execPath, ["--import", "tsx", main, mode, ...targets], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    });
    child.on("exit", (code) => reject(new Error(`proxy exited with ${code}`)));
  });
}

const memory = await spawnMemoryReplica();
const pidsOf = (cluster: Cluster) => () => cluster.replicas.map((r) => r.child.pid);
const urlsOf = (cluster: Cluster) => () => cluster.replicas.map((r) => r.url);
const clusters: Cluster[] = [];
const proxies: ChildProcess[] = [];
const configs: Config[] = [
  {
    name: "1 replica, memory",
    base: memory.url,
    pids: () => [memory.child.pid],
    postgres: false,
    replicas: () => [memory.url],
    appNames: [],
  },
];
for (
  const bus of busTargets().filter((target) => target.skip === undefined && BUSES.some((b) => target.name.toLowerCase().startsWith(b)))
) {
  const onBus = bus.option === "postgres" ? "Postgres" : `Postgres + ${bus.name}`;
  for (const count of COUNTS) {
    const cluster = await Cluster.start(count, "round-robin", busEnv(bus.option));
    clusters.push(cluster);
    const modes: Mode[] = count === 1 ? ["round-robin"] : ["round-robin", "sticky"];
    for (const mode of modes) {
      // One replica needs no proxy: it is served directly, as before.
      const front = count === 1 ? undefined : await spawnProxy(mode, cluster.replicas.map((r) => r.url));
      if (front !== undefined) proxies.push(front.child);
      configs.push({
        name: count === 1 ? `1 replica, ${onBus}` : `${count} replicas, ${onBus}, ${mode} proxy`,
        base: front?.url ?? cluster.replicas[0]!.url,
        pids: pidsOf(cluster),
        postgres: true,
        replicas: urlsOf(cluster),
        appNames: [cluster.schema],
      });
    }
  }
}
const streams: SseStream[] = [];

try {
  const tabsOf = new Map<Config, Tab[]>();
  for (const config of configs) {
    const tabs: Tab[] = [];
    // Opened a few at a time: the point is the sessions held, not a burst of page loads.
    for (let i = 0; i < SESSIONS; i += 50) {
      // Each sends an event at once: a session that never connects ends after pendingMs (docs/deployment.md#session-bounds),
      // and the configurations before this one take longer than that to set up.
      const opening = Array.from({ length: Math.min(50, SESSIONS - i) }, async () => {
        const tab = await new Tab(config.base).open();
        await tab.send("Inc");
        return tab;
      });
      tabs.push(...await Promise.all(opening));
    }
    for (const tab of tabs.slice(0, STREAMS)) streams.push(await tab.subscribe());
    tabsOf.set(config, tabs);
  }
  // A warm-up round each (JIT, connection pools), not counted.
  for (const config of configs) await round(config, tabsOf.get(config)!);
  const rounds = new Map<Config, Round[]>(configs.map((c) => [c, []]));
  for (let r = 0; r < ROUNDS; r++) for (const config of configs) rounds.get(config)!.push(await round(config, tabsOf.get(config)!));

  const summary = configs.map((config) => {
    const all = rounds.get(config)!;
    const events = all.reduce((s, r) => s + r.events, 0);
    const seconds = all.reduce((s, r) => s + r.seconds, 0);
    const latencies = all.flatMap((r) => r.latencies).sort((a, b) => a - b);
    return {
      config,
      eventsPerSecond: events / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      replicaCpuUs: (all.reduce((s, r) => s + r.replicaCpu, 0) / events) * 1e6,
      pgCpuUs: (all.reduce((s, r) => s + r.pgCpu, 0) / events) * 1e6,
      roundTrips: all.reduce((s, r) => s + r.roundTrips, 0) / events,
      notifyWaitMsPerS: (all.reduce((s, r) => s + r.notifyWait, 0) / seconds) * 1000,
    };
  });
  console.log(
    `\n${SESSIONS} sessions (${STREAMS} with a stream open), ${TABS} drivers, ${ROUNDS} rounds of ${ROUND_MS} ms per configuration, taking turns; load average ${
      readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")
    }`,
  );
  console.log(
    "| configuration | events/s | p50 ms | p99 ms | DB round trips / event | replica CPU µs / event | Postgres CPU µs / event | notify-lock wait ms / s |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const s of summary) {
    console.log(
      `| ${s.config.name} | ${Math.round(s.eventsPerSecond)} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.roundTrips.toFixed(2)} | ${
        Math.round(s.replicaCpuUs)
      } | ${Math.round(s.pgCpuUs)} | ${s.notifyWaitMsPerS.toFixed(1)} |`,
    );
  }
  const named = (name: string) => {
    const found = summary.find((s) => s.config.name === name);
    if (found === undefined) throw new Error(`the ratios need "${name}" (REPLICAS_BENCH_COUNTS and REPLICAS_BENCH_BUSES narrowed it away)`);
    return found;
  };
  const mem = named("1 replica, memory");
  const one = named("1 replica, Postgres"), rr = named("3 replicas, Postgres, round-robin proxy");
  const st = named("3 replicas, Postgres, sticky proxy");
  const storeCost = (s: typeof one) => Math.round(s.replicaCpuUs - mem.replicaCpuUs + s.pgCpuUs);
  console.log(
    `store cost per event (replica CPU above the in-memory replica's, plus Postgres CPU): 1 replica ${storeCost(one)} µs, 3 round-robin ${
      storeCost(rr)
    } µs, 3 sticky ${storeCost(st)} µs`,
  );
  const versus = (
    name: string,
    ours: number,
    peer: number,
    peerName: string,
    unit: string,
    higherIsBetter: boolean,
    target = "reported",
  ) => ({
    name,
    ours,
    peer,
    peerName,
    unit,
    higherIsBetter,
    target,
    met: target === "reported" || ours >= 0.5 * peer,
  });
  const inMemory = "1 replica in memory", onPostgres = "1 replica on Postgres";
  const rows: BenchRow[] = [
    versus(
      "events/s, 3 replicas on Postgres (round-robin) vs 1 in memory",
      rr.eventsPerSecond,
      mem.eventsPerSecond,
      inMemory,
      "events/s",
      true,
      "ratio >= 0.5x",
    ),
    versus(
      "events/s, 3 replicas on Postgres (sticky) vs 1 in memory",
      st.eventsPerSecond,
      mem.eventsPerSecond,
      inMemory,
      "events/s",
      true,
      "ratio >= 0.5x",
    ),
    versus("events/s, 1 replica on Postgres vs 1 in memory", one.eventsPerSecond, mem.eventsPerSecond, inMemory, "events/s", true),
    versus(
      "DB round trips per event, 3 replicas round-robin vs 1 replica on Postgres",
      rr.roundTrips,
      one.roundTrips,
      onPostgres,
      "round trips",
      false,
    ),
    versus(
      "DB round trips per event, 3 replicas sticky vs 1 replica on Postgres",
      st.roundTrips,
      one.roundTrips,
      onPostgres,
      "round trips",
      false,
    ),
    versus(
      "CPU per event (replicas + Postgres), 1 replica on Postgres vs 1 in memory",
      one.replicaCpuUs + one.pgCpuUs,
      mem.replicaCpuUs,
      inMemory,
      "µs",
      false,
    ),
    versus(
      "CPU per event (replicas + Postgres), 3 replicas round-robin vs 1 in memory",
      rr.replicaCpuUs + rr.pgCpuUs,
      mem.replicaCpuUs,
      inMemory,
      "µs",
      false,
    ),
    versus(
      "CPU per event (replicas + Postgres), 3 replicas sticky vs 1 in memory",
      st.replicaCpuUs + st.pgCpuUs,
      mem.replicaCpuUs,
      inMemory,
      "µs",
      false,
    ),
    versus("p99 latency, 3 replicas on Postgres (round-robin) vs 1 in memory", rr.p99, mem.p99, inMemory, "ms", false),
  ];
  report(AREA, rows);
} finally {
  for (const stream of streams) await stream.close().catch(() => undefined);
  memory.child.kill("SIGKILL");
  for (const proxy of proxies) proxy.kill("SIGKILL");
  for (const cluster of clusters) await cluster.stop();
  await admin.end({ timeout: 5 });
}
