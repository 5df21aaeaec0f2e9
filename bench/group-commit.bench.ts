/**
 * Group commit (docs/deployment.md#group-commit), A against B: the saves of many sessions in one
 * event-loop turn, sent as one transaction (the store today, src/live/store/save-group.ts),
 * against one statement per save (each its own autocommit statement on the pool, as the store
 * sent them before grouping).
 *
 * Both run the real PostgresLiveStore on one Postgres schema, each on a pool of its own and its
 * own SESSIONS sessions (a share of them, STREAMED, marked as streamed by another replica, so
 * their saves carry a NOTIFY as on several replicas). WORKERS workers each save one session after
 * another, as many event handlers of one replica do, so a turn holds up to WORKERS saves. The two
 * take turns in rounds of ROUND_MS.
 *
 * The one-statement-per-save path exists only here: its store's Db answers the group's
 * transaction by sending each of its statements alone, at once, on the pool (a lone save was
 * always sent alone). Nothing else about the save changes: the same statement, the same fence.
 *
 * Reported: saves (events) per second, DB statements per event (BEGIN and COMMIT counted),
 * commits per event, this process's and the Postgres backends' CPU per event, p99 of a save,
 * and the ratios. Needs SVC_TEST_POSTGRES_URL and Node (the backends' CPU is read from /proc).
 *
 *   GROUP_BENCH_SESSIONS=1000 GROUP_BENCH_WORKERS=40 GROUP_BENCH_ROUND_MS=2000 GROUP_BENCH_ROUNDS=3 \
 *     node --import tsx bench/group-commit.bench.ts
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import postgres from "postgres";
import { Db, type DbStatement as Statement } from "../src/db/mod.ts";
import { PostgresLiveStore } from "../src/live/store/postgres.ts";
import type { StoredSession } from "../src/live/store/store.ts";
import { type BenchRow, medianPair, percentile, report } from "./report.ts";

const AREA = "group commit";
const SESSIONS = Number(process.env.GROUP_BENCH_SESSIONS ?? 1000);
const WORKERS = Number(process.env.GROUP_BENCH_WORKERS ?? 40);
const ROUND_MS = Number(process.env.GROUP_BENCH_ROUND_MS ?? 2000);
const ROUNDS = Number(process.env.GROUP_BENCH_ROUNDS ?? 3);
/** The share of sessions another replica streams: their saves NOTIFY the frame. */
const STREAMED = Number(process.env.GROUP_BENCH_STREAMED ?? 0.1);
const OWNER = "bench-replica";

const url = process.env.SVC_TEST_POSTGRES_URL;
const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
const skip = runtime !== "Node"
  ? `reads the backends' CPU from /proc under Node; this is ${runtime}`
  : url
  ? undefined
  : "SVC_TEST_POSTGRES_URL is not set";
if (skip !== undefined) {
  console.log(`BENCH_SKIP ${JSON.stringify({ area: AREA, name: "group commit A/B", reason: skip })}`);
  process.exit(0);
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

type Mode = "grouped" | "each";
type Counts = { statements: number; commits: number };
type Side = { mode: Mode; db: Db; store: PostgresLiveStore; counts: Counts; sessions: { session: StoredSession; epoch: number }[] };
type Round = { events: number; seconds: number; latencies: number[]; statements: number; commits: number; ownCpu: number; pgCpu: number };

const schema = `svc_group_bench_${Date.now().toString(36)}`;
const admin = postgres(url!, { onnotice: () => {}, max: 2 });
await admin.unsafe(`CREATE SCHEMA ${schema}`);
const withApp = (mode: Mode) => `${url}${url!.includes("?") ? "&" : "?"}application_name=${schema}_${mode}`;

/** A store on a pool of its own that counts what it sends; with "each", a group's statements go alone. */
function openSide(mode: Mode): Side {
  const db = Db.open(withApp(mode), { schema });
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  const counts: Counts = { statements: 0, commits: 0 };
  db.query = (statement: Statement) => {
    counts.statements++;
    counts.commits++;
    return query(statement);
  };
  db.transaction = async (statements: readonly Statement[]) => {
    const saves = statements.every((statement) => statement.sql.includes("UPDATE svc_live_sessions SET handle"));
    if (mode === "grouped" || !saves) {
      counts.statements += statements.length + 2;
      counts.commits++;
      return await transaction(statements);
    }
    const results = await Promise.all(statements.map((statement) => db.query(statement)));
    const failed = results.find((result) => !result.ok);
    if (failed !== undefined) return failed as never;
    return { ok: true as const, value: results.map((result) => (result.ok ? result.value : [])) };
  };
  return { mode, db, store: new PostgresLiveStore(db, "bench"), counts, sessions: [] };
}

const sides = [openSide("grouped"), openSide("each")];
for (const side of sides) {
  await side.store.ensureSchema();
  for (let i = 0; i < SESSIONS; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, SESSIONS - i) }, async (_, j) => {
        const n = i + j;
        const session: StoredSession = {
          key: `${side.mode}-${n}`,
          handle: `h-${side.mode}-${n}`,
          model: JSON.stringify({ count: 0, text: "" }),
          outSeq: 0,
          inputSeqs: [],
          pageSeqs: [["p", 0]],
          user: undefined,
          boundAt: 0,
        };
        const epoch = await side.store.create(session, OWNER);
        side.sessions.push({ session, epoch });
      }),
    );
  }
  await admin.unsafe(
    `UPDATE ${schema}.svc_live_sessions SET remote_streams = true WHERE key LIKE '${side.mode}-%' AND random() < ${STREAMED}`,
  );
}

async function backendCpu(mode: Mode): Promise<number> {
  const rows = await admin`SELECT pid FROM pg_stat_activity WHERE application_name = ${`${schema}_${mode}`}`;
  return rows.reduce<number>((sum, row) => sum + cpuOf(Number(row.pid)), 0);
}

/** WORKERS workers save for ROUND_MS, each its share of the sessions in turn, one save at a time. */
async function round(side: Side): Promise<Round> {
  const latencies: number[] = [];
  let events = 0;
  const before = { ...side.counts, own: process.cpuUsage(), pg: await backendCpu(side.mode) };
  const started = performance.now();
  const until = started + ROUND_MS;
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, w) => {
      for (let i = w; performance.now() < until; i += WORKERS) {
        const held = side.sessions[i % side.sessions.length]!;
        const outSeq = held.session.outSeq + 1;
        const session = { ...held.session, outSeq, model: JSON.stringify({ count: outSeq, text: `worker ${w} ${i}` }) };
        const notice = JSON.stringify({
          t: "frame",
          app: "bench",
          key: session.key,
          from: OWNER,
          frame: { seq: outSeq },
          epoch: held.epoch,
        });
        const sent = performance.now();
        if (!(await side.store.save(session, OWNER, held.epoch, notice))) throw new Error(`${side.mode}: a save lost its fence`);
        latencies.push(performance.now() - sent);
        held.session = session;
        events++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(before.own);
  return {
    events,
    seconds,
    latencies,
    statements: side.counts.statements - before.statements,
    commits: side.counts.commits - before.commits,
    ownCpu: (own.user + own.system) / 1e6,
    pgCpu: (await backendCpu(side.mode)) - before.pg,
  };
}

try {
  // A warm-up round each (JIT, pools), not counted.
  for (const side of sides) await round(side);
  const rounds = new Map<Mode, Round[]>([["grouped", []], ["each", []]]);
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 === 0 ? sides : [...sides].reverse()) rounds.get(side.mode)!.push(await round(side));
  }
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const sum = (mode: Mode, pick: (r: Round) => number) => rounds.get(mode)!.reduce((s, r) => s + pick(r), 0);
  const figures = (mode: Mode) => {
    const events = sum(mode, (r) => r.events);
    const latencies = rounds.get(mode)!.flatMap((r) => r.latencies).sort((a, b) => a - b);
    return {
      perRound: rounds.get(mode)!.map((r) => r.events / r.seconds),
      eventsPerSecond: events / sum(mode, (r) => r.seconds),
      statements: sum(mode, (r) => r.statements) / events,
      commits: sum(mode, (r) => r.commits) / events,
      cpuUs: (sum(mode, (r) => r.ownCpu + r.pgCpu) / events) * 1e6,
      pgCpuUs: (sum(mode, (r) => r.pgCpu) / events) * 1e6,
      p99: percentile(latencies, 99),
    };
  };
  const grouped = figures("grouped"), each = figures("each");
  console.log(
    `\n${SESSIONS} sessions per side (${
      Math.round(STREAMED * 100)
    }% streamed elsewhere), ${WORKERS} workers, ${ROUNDS} rounds of ${ROUND_MS} ms, taking turns; load average ${load}`,
  );
  console.log(
    "| saves | events/s | DB statements / event | commits / event | CPU µs / event (this process + Postgres) | Postgres CPU µs / event | p99 ms |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const [name, f] of [["grouped per turn", grouped], ["one statement per event", each]] as const) {
    console.log(
      `| ${name} | ${Math.round(f.eventsPerSecond)} | ${f.statements.toFixed(2)} | ${f.commits.toFixed(3)} | ${Math.round(f.cpuUs)} | ${
        Math.round(f.pgCpuUs)
      } | ${f.p99.toFixed(1)} |`,
    );
  }
  const pair = medianPair(grouped.perRound, each.perRound);
  console.log(
    `events/s ratio, grouped / one per event: ${(grouped.eventsPerSecond / each.eventsPerSecond).toFixed(2)}x (median pair ${
      (pair.ours / pair.peer).toFixed(2)
    }x)`,
  );
  const peerName = "one statement per event";
  const rows: BenchRow[] = [
    {
      name: "events/s, saves grouped per turn vs one statement per event",
      ours: pair.ours,
      peer: pair.peer,
      peerName,
      unit: "events/s",
      higherIsBetter: true,
      target: "ratio >= 1x",
      met: pair.ours >= pair.peer,
    },
    {
      name: "DB statements per event, grouped vs one per event",
      ours: grouped.statements,
      peer: each.statements,
      peerName,
      unit: "statements",
      higherIsBetter: false,
      target: "reported",
      met: true,
    },
    {
      name: "commits per event, grouped vs one per event",
      ours: grouped.commits,
      peer: each.commits,
      peerName,
      unit: "commits",
      higherIsBetter: false,
      target: "reported",
      met: true,
    },
    {
      name: "CPU per event (process + Postgres), grouped vs one per event",
      ours: grouped.cpuUs,
      peer: each.cpuUs,
      peerName,
      unit: "µs",
      higherIsBetter: false,
      target: "reported",
      met: true,
    },
    {
      name: "p99 save latency, grouped vs one per event",
      ours: grouped.p99,
      peer: each.p99,
      peerName,
      unit: "ms",
      higherIsBetter: false,
      target: "reported",
      met: true,
    },
  ];
  report(AREA, rows);
} finally {
  for (const side of sides) await side.db.close();
  await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end({ timeout: 5 });
}
