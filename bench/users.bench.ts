/**
 * Users and revocation benchmarks. There is no library peer for a built-in users table
 * on libsql / postgres.js, so every row compares with the floor: the same work done by hand
 * through the raw driver in the same run.
 *
 *   - register at cost 10: Auth.register vs the floor, Auth.hashPasswordCost(pw, 10) then the same
 *     INSERT through the raw driver. Target: at least 0.9x the floor's ops/s.
 *   - login at cost 10: Auth.login vs the floor, the same SELECT through the raw driver then
 *     Auth.verifyPassword. Target: at least 0.9x.
 *   - userAccessState, TTL 0: evaluations/s vs the floor, the same primary-key SELECT through the
 *     raw driver. Target: at least 0.7x (we add argument checks and the schema-ready await).
 *   - userAccessState, TTL 60: vs the same floor. Target: at least 5x (a cache hit is no query).
 *
 * Method: rounds alternate ours / floor and the median round is kept. bcrypt rows run 4 calls at
 * a time (the worker pool has one thread per core); the others run one awaited call at a time,
 * as a request handler does. SQLite is a file in the temp directory; Postgres needs
 * SVC_TEST_POSTGRES_URL (or SVC_BENCH_POSTGRES_URL) and uses its own schema, dropped afterwards.
 *
 * Run: node --import tsx bench/users.bench.ts | npx bun bench/users.bench.ts | npx deno run -A bench/users.bench.ts
 * Optional argument: a time scale, e.g. `0.3` for a quick look.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createClient } from "@libsql/client";
import postgres from "postgres";
import { Auth } from "../src/auth/mod.ts";
import { Db } from "../src/db/mod.ts";
import { type BenchRow, report } from "./report.ts";

const args = (globalThis as { Deno?: { args: string[] } }).Deno?.args ?? process.argv.slice(2);
const scaleArg = args.find((arg) => Number(arg) > 0);
const scale = scaleArg === undefined ? 1 : Number(scaleArg);
const COST = 10;
const ROUNDS = 5;
const PASSWORD = "correct horse battery staple";
const pgUrl = process.env.SVC_BENCH_POSTGRES_URL ?? process.env.SVC_TEST_POSTGRES_URL;

let counter = 0;
const nextEmail = (tag: string) => `${tag}.${++counter}@bench.example`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const must = <A>(result: { ok: true; value: A } | { ok: false; error: Error }): A => {
  if (!result.ok) throw result.error;
  return result.value;
};

/** Runs `op` with `parallel` calls in flight for about `ms`; returns completed calls per second. */
async function round(op: () => Promise<unknown>, ms: number, parallel: number): Promise<number> {
  let done = 0;
  const start = performance.now();
  const lane = async () => {
    while (performance.now() - start < ms) {
      await op();
      done++;
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return done / ((performance.now() - start) / 1000);
}

async function compare(ours: () => Promise<unknown>, floor: () => Promise<unknown>, ms: number, parallel: number) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    a.push(await round(ours, ms * scale, parallel));
    b.push(await round(floor, ms * scale, parallel));
  }
  return { ours: median(a), floor: median(b) };
}

function row(name: string, figures: { ours: number; floor: number }, peerName: string, minRatio: number): BenchRow {
  return {
    name,
    ours: figures.ours,
    peer: figures.floor,
    peerName,
    unit: name.startsWith("userAccessState") ? "evals/s" : "ops/s",
    higherIsBetter: true,
    target: `ratio >= ${minRatio}x`,
    met: figures.ours / figures.floor >= minRatio,
  };
}

type Raw = { query(sql: string, args: (string | number)[]): Promise<unknown[]> };

async function benchDialect(label: string, open: (ttl: number) => Db, raw: Raw, placeholders: (n: number) => string): Promise<BenchRow[]> {
  const db = open(0);
  const cached = open(60);
  const rows: BenchRow[] = [];
  try {
    // register
    const registered = await compare(
      () => Auth.register(db, nextEmail("ours"), PASSWORD, { cost: COST }).then(must),
      async () => {
        const hash = must(await Auth.hashPasswordCost(PASSWORD, COST));
        await raw.query(
          `INSERT INTO users (email, password_hash, created_at) VALUES (${placeholders(1)}, ${placeholders(2)}, ${placeholders(3)})`,
          [
            nextEmail("floor"),
            hash,
            Date.now(),
          ],
        );
      },
      800,
      4,
    );
    rows.push(row(`register, cost ${COST}, ${label}`, registered, "floor: hashPasswordCost + raw INSERT (no library peer)", 0.9));

    // login
    const email = nextEmail("login");
    must(await Auth.register(db, email, PASSWORD, { cost: COST }));
    const loggedIn = await compare(
      () => Auth.login(db, email, PASSWORD).then(must),
      async () => {
        const [user] = (await raw.query(`SELECT id, password_hash, disabled_at FROM users WHERE email = ${placeholders(1)}`, [email])) as {
          password_hash: string;
        }[];
        must(await Auth.verifyPassword(PASSWORD, String(user?.password_hash)));
      },
      800,
      4,
    );
    rows.push(row(`login, cost ${COST}, ${label}`, loggedIn, "floor: raw SELECT + verifyPassword (no library peer)", 0.9));

    // userAccessState
    must(await Auth.revokeUser(db, "bench-user"));
    const iat = Date.now() / 1000;
    const floorRead = () =>
      raw.query(`SELECT revoked_at, disabled_at FROM svc_user_access WHERE user_id = ${placeholders(1)}`, ["bench-user"]);
    const fresh = await compare(() => Auth.userAccessState(db, "bench-user", iat).then(must), floorRead, 400, 1);
    rows.push(row(`userAccessState, TTL 0, ${label}`, fresh, "floor: the same SELECT through the raw driver", 0.7));
    const hits = await compare(() => Auth.userAccessState(cached, "bench-user", iat).then(must), floorRead, 400, 1);
    rows.push(row(`userAccessState, TTL 60, ${label}`, hits, "floor: the same SELECT through the raw driver (uncached)", 5));
  } finally {
    await db.close();
    await cached.close();
  }
  return rows;
}

const rows: BenchRow[] = [];

// SQLite, a file.
{
  const path = join(tmpdir(), `svc-bench-${Date.now().toString(36)}.db`);
  const client = createClient({ url: `file:${path}` });
  const raw: Raw = { query: async (sql, args) => Array.from((await client.execute({ sql, args })).rows) };
  try {
    const setup = Db.open(`file:${path}`);
    must(await Auth.userAccessState(setup, "x", 0)); // creates the tables
    await setup.close();
    rows.push(...(await benchDialect("SQLite file", (ttl) => Db.open(`file:${path}`, { revocationCacheTtl: ttl }), raw, () => "?")));
  } finally {
    client.close();
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
  }
}

// Postgres.
if (pgUrl === undefined) {
  const reason = "SVC_TEST_POSTGRES_URL (or SVC_BENCH_POSTGRES_URL) is not set";
  console.log(`Postgres rows skipped: ${reason}`);
  console.log(`BENCH_SKIP ${JSON.stringify({ area: "users", name: "Postgres rows", reason })}`);
} else {
  const schema = `svc_bench_${Date.now().toString(36)}`;
  const url = `${pgUrl}${pgUrl.includes("?") ? "&" : "?"}search_path=${schema}`;
  const admin = postgres(pgUrl, { onnotice: () => {}, max: 1 });
  await admin.unsafe(`CREATE SCHEMA ${schema}`);
  const client = postgres(url, { onnotice: () => {} });
  const raw: Raw = { query: async (sql, args) => Array.from(await client.unsafe(sql, args, { prepare: true })) };
  try {
    const setup = Db.open(url);
    must(await Auth.userAccessState(setup, "x", 0));
    await setup.close();
    rows.push(...(await benchDialect("Postgres", (ttl) => Db.open(url, { revocationCacheTtl: ttl }), raw, (n) => `$${n}`)));
  } finally {
    await client.end({ timeout: 5 });
    await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end({ timeout: 5 });
  }
}

Auth.closePasswordWorkers();
report("users", rows);
