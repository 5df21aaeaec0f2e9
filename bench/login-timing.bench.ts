/**
 * Login timing on a fresh handle (docs/security.md#login-timing): an unknown email against a
 * known one with a wrong password, at bcrypt costs 10 to 13, on SQLite in a file and on Postgres.
 *
 * Each cost registers one user through a first handle, then opens two fresh handles: one is only
 * ever asked about unknown emails, so it never sees a real hash, and one logs in as the known
 * user with a wrong password. Both pass login's cost option. Rounds alternate the two (ABBA) and
 * the median pair is kept. Target: the unknown email's time within 25 % of the known one's
 * (ratio between 0.8x and 1.25x). The rows "without the cost option" show what a fresh handle
 * did before it: the dummy at the default cost 12 whatever the cost of the stored hashes.
 *
 * Run: node --import tsx bench/login-timing.bench.ts | npx bun bench/login-timing.bench.ts | npx deno run -A bench/login-timing.bench.ts
 * Optional argument: the number of rounds per cost (default 7).
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import postgres from "postgres";
import { Auth } from "../src/auth/mod.ts";
import { Db } from "../src/db/mod.ts";
import { type BenchRow, medianPair, report } from "./report.ts";

const args = (globalThis as { Deno?: { args: string[] } }).Deno?.args ?? process.argv.slice(2);
const ROUNDS = Number(args.find((arg) => Number(arg) > 0) ?? 7);
const COSTS = [10, 11, 12, 13];
const pgUrl = process.env.SVC_BENCH_POSTGRES_URL ?? process.env.SVC_TEST_POSTGRES_URL;
let counter = 0;
const nextEmail = (tag: string) => `${tag}.${Date.now().toString(36)}.${++counter}@bench.example`;

async function timed(login: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await login();
  return performance.now() - start;
}

async function measure(open: () => Db, label: string, cost: number, withOption: boolean): Promise<BenchRow> {
  const setup = open();
  const email = nextEmail("known");
  const registered = await Auth.register(setup, email, "right", { cost });
  if (!registered.ok) throw registered.error;
  await setup.close();
  const known = open();
  const unknown = open();
  const options = withOption ? { cost } : undefined;
  try {
    const knownLogin = () => Auth.login(known, email, "wrong", options);
    const unknownLogin = () => Auth.login(unknown, nextEmail("nobody"), "wrong", options);
    const [k, u]: [number[], number[]] = [[], []];
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        u.push(await timed(unknownLogin));
        k.push(await timed(knownLogin));
      } else {
        k.push(await timed(knownLogin));
        u.push(await timed(unknownLogin));
      }
    }
    const pair = medianPair(u, k);
    const ratio = pair.peer / pair.ours;
    return {
      name: `login time, unknown email (ours) vs known email (peer), cost ${cost}, fresh handle, ${label}${
        withOption ? "" : ", without the cost option"
      }`,
      ours: pair.ours,
      peer: pair.peer,
      peerName: "known email, wrong password",
      unit: "ms",
      higherIsBetter: false,
      target: withOption ? "ratio in 0.8x..1.25x" : "(info)",
      met: withOption ? ratio >= 0.8 && ratio <= 1.25 : true,
    };
  } finally {
    await known.close();
    await unknown.close();
  }
}

async function benchTarget(open: () => Db, label: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const cost of COSTS) rows.push(await measure(open, label, cost, true));
  rows.push(await measure(open, label, 13, false));
  return rows;
}

const rows: BenchRow[] = [];
{
  const path = join(tmpdir(), `svc-bench-login-${Date.now().toString(36)}.db`);
  try {
    rows.push(...(await benchTarget(() => Db.open(`file:${path}`), "SQLite file")));
  } finally {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
  }
}
if (pgUrl === undefined) {
  const reason = "SVC_TEST_POSTGRES_URL (or SVC_BENCH_POSTGRES_URL) is not set";
  console.log(`Postgres rows skipped: ${reason}`);
  console.log(`BENCH_SKIP ${JSON.stringify({ area: "login timing", name: "Postgres rows", reason })}`);
} else {
  const schema = `svc_bench_${Date.now().toString(36)}`;
  const url = `${pgUrl}${pgUrl.includes("?") ? "&" : "?"}search_path=${schema}`;
  const admin = postgres(pgUrl, { onnotice: () => {}, max: 1 });
  await admin.unsafe(`CREATE SCHEMA ${schema}`);
  try {
    rows.push(...(await benchTarget(() => Db.open(url), "Postgres")));
  } finally {
    await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end({ timeout: 5 });
  }
}

Auth.closePasswordWorkers();
report("login timing", rows);
