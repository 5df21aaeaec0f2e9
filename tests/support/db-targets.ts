/**
 * The databases the contract suites run against: SQLite in memory, SQLite in a file, and a real
 * Postgres server when SVC_TEST_POSTGRES_URL is set (CI sets it). Each run gets its own file or
 * its own Postgres schema, removed afterwards. Without the variable the Postgres suites are
 * skipped, and the reason is printed.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import postgres from "postgres";
import { Db, type DbOptions } from "../../src/db/mod.ts";

export type Target = {
  readonly name: string;
  /** Whether two handles from open() reach the same database (not so for ":memory:"). */
  readonly shared: boolean;
  /** Set when the target cannot run here; the suite is skipped with this reason. */
  readonly skip: string | undefined;
  /** Prepares the target's database (a file, a schema); call once in before(). */
  setup(): Promise<void>;
  /** A new handle on the target's database (for ":memory:", a new empty database). */
  open(options?: DbOptions): Db;
  /** Removes the file or schema; call once in after(). */
  teardown(): Promise<void>;
};

const uniqueName = () => `svc_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

export const POSTGRES_URL = process.env.SVC_TEST_POSTGRES_URL;
export const POSTGRES_SKIP = POSTGRES_URL ? undefined : "SVC_TEST_POSTGRES_URL is not set, so the Postgres cases are skipped";

let warned = false;
function warnSkipOnce(): void {
  if (POSTGRES_SKIP !== undefined && !warned) {
    warned = true;
    console.log(`# ${POSTGRES_SKIP}`);
  }
}

function memoryTarget(): Target {
  return {
    name: "SQLite :memory:",
    shared: false,
    skip: undefined,
    setup: async () => {},
    open: (options) => Db.open(":memory:", options),
    teardown: async () => {},
  };
}

function fileTarget(): Target {
  const path = join(tmpdir(), `${uniqueName()}.db`);
  return {
    name: "SQLite file",
    shared: true,
    skip: undefined,
    setup: async () => {},
    open: (options) => Db.open(`file:${path}`, options),
    teardown: async () => {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
    },
  };
}

function postgresTarget(): Target {
  const schema = uniqueName();
  const url = POSTGRES_URL ?? "";
  const withSchema = `${url}${url.includes("?") ? "&" : "?"}search_path=${schema}`;
  let admin: ReturnType<typeof postgres> | undefined;
  return {
    name: "Postgres",
    shared: true,
    skip: POSTGRES_SKIP,
    setup: async () => {
      admin = postgres(url, { onnotice: () => {}, max: 2 });
      await admin.unsafe(`CREATE SCHEMA ${schema}`);
    },
    open: (options) => Db.open(withSchema, options),
    teardown: async () => {
      if (admin === undefined) return;
      await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end({ timeout: 5 });
    },
  };
}

export function targets(): Target[] {
  warnSkipOnce();
  return [memoryTarget(), fileTarget(), postgresTarget()];
}

/**
 * Raw SQL through a handle, written with `?` placeholders for both dialects. It bypasses the Auth
 * API, so it stands for "another replica wrote this": no cache in this process hears of it.
 */
export async function sql(db: Db, text: string, ...args: (string | number | null)[]): Promise<Record<string, unknown>[]> {
  let n = 0;
  const query = db.dialect === "postgres" ? text.replace(/\?/g, () => `$${++n}`) : text;
  const rows = await db.query({ sql: query, args });
  if (!rows.ok) throw rows.error;
  return rows.value.map((row) => ({ ...row }));
}

/** A column of milliseconds or an id, as a number (Postgres BIGINT arrives as a string). */
export const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** A hand-driven clock in milliseconds, for DbOptions.clock. */
export function manualClock(start: number): { now: () => number; set: (ms: number) => void; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, set: (ms) => void (t = ms), advance: (ms) => void (t += ms) };
}
