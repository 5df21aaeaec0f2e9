/**
 * The Db handle: dialect by URL scheme, wrapping existing clients,
 * startup errors, lazy connection, failure as Err "db_error", idempotent and race-safe schema
 * creation, and a connection killed in the middle of a call.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, describe, test } from "node:test";
import { createClient } from "@libsql/client";
import postgres from "postgres";
import { Auth } from "../../src/auth/mod.ts";
import { Db, REVOCATION_CACHE_TTL_ENV } from "../../src/db/mod.ts";
import { SvcError } from "../../src/errors.ts";
import { POSTGRES_SKIP, POSTGRES_URL, sql } from "../support/db-targets.ts";

const cost = 4;
const unique = () => `svc_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
const withSchema = (url: string, schema: string) => `${url}${url.includes("?") ? "&" : "?"}search_path=${schema}`;

function thrownCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (error) {
    return error instanceof SvcError ? error.code : `not an SvcError: ${String(error)}`;
  }
  return undefined;
}

describe("Db.open", () => {
  const opened: Db[] = [];
  after(async () => {
    for (const db of opened) await db.close();
  });

  test("picks SQLite for :memory:, file: and libsql:// and Postgres for postgres:// and postgresql://", () => {
    const cases = [
      [":memory:", "sqlite"],
      ["file:app.db", "sqlite"],
      ["libsql://example.turso.io", "sqlite"],
      ["postgres://u@127.0.0.1:5432/db", "postgres"],
      ["postgresql://u@127.0.0.1:5432/db", "postgres"],
    ] as const;
    for (const [url, dialect] of cases) {
      const db = Db.open(url);
      opened.push(db);
      assert.equal(db.dialect, dialect, url);
    }
  });

  test("an unknown scheme throws unsupported_url at the call, without echoing the URL's password", () => {
    try {
      Db.open("mysql://admin:hunter2@db.example/app");
      assert.fail("expected a throw");
    } catch (error) {
      assert.ok(error instanceof SvcError);
      assert.equal(error.code, "unsupported_url");
      assert.match(error.message, /mysql:/);
      assert.doesNotMatch(error.message, /hunter2/);
    }
    assert.equal(thrownCode(() => Db.open("")), "unsupported_url");
    assert.equal(thrownCode(() => Db.open("app.db")), "unsupported_url");
    assert.equal(thrownCode(() => Db.open(42 as unknown as string)), "unsupported_url");
  });

  test("Db.tryOpen returns the same refusals as an Err and never throws", () => {
    const bad = Db.tryOpen("mongodb://x");
    assert.equal(!bad.ok && bad.error.code, "unsupported_url");
    const good = Db.tryOpen(":memory:");
    assert.ok(good.ok);
    opened.push(good.value);
  });

  test("a negative, fractional or non-numeric SVC_LIVE_REVOCATION_CACHE_TTL is a startup error", () => {
    const saved = process.env[REVOCATION_CACHE_TTL_ENV];
    try {
      for (const bad of ["-1", "1.5", "abc", "1e3", "0x10", "5s"]) {
        process.env[REVOCATION_CACHE_TTL_ENV] = bad;
        assert.equal(thrownCode(() => Db.open(":memory:")), "bad_config", bad);
        const tried = Db.tryOpen(":memory:");
        assert.equal(!tried.ok && tried.error.code, "bad_config");
        assert.match(!tried.ok ? tried.error.message : "", /SVC_LIVE_REVOCATION_CACHE_TTL/);
      }
      process.env[REVOCATION_CACHE_TTL_ENV] = "7";
      const seven = Db.open(":memory:");
      opened.push(seven);
      assert.equal(seven.revocationCacheTtlMs, 7000);
      delete process.env[REVOCATION_CACHE_TTL_ENV];
      const unset = Db.open(":memory:");
      opened.push(unset);
      assert.equal(unset.revocationCacheTtlMs, 0);
    } finally {
      if (saved === undefined) delete process.env[REVOCATION_CACHE_TTL_ENV];
      else process.env[REVOCATION_CACHE_TTL_ENV] = saved;
    }
  });

  test("the revocationCacheTtl option overrides the environment and is checked the same way", () => {
    assert.equal(thrownCode(() => Db.open(":memory:", { revocationCacheTtl: -1 })), "bad_config");
    assert.equal(thrownCode(() => Db.open(":memory:", { revocationCacheTtl: 0.5 })), "bad_config");
    const db = Db.open(":memory:", { revocationCacheTtl: 3 });
    opened.push(db);
    assert.equal(db.revocationCacheTtlMs, 3000);
  });

  test("queries are parameterised: quotes and SQL in a value travel as data", async () => {
    const db = Db.open(":memory:");
    opened.push(db);
    const hostile = "'); DROP TABLE users; --";
    const rows = await db.query({ sql: "SELECT ? AS v", args: [hostile] });
    assert.deepEqual(rows.ok && rows.value.map((r) => r.v), [hostile]);
  });

  test("close is idempotent and every later call is Err db_error", async () => {
    const db = Db.open(":memory:");
    assert.ok((await db.query({ sql: "SELECT 1 AS one", args: [] })).ok);
    await db.close();
    await db.close();
    assert.equal(db.closed, true);
    const after = await db.query({ sql: "SELECT 1 AS one", args: [] });
    assert.equal(!after.ok && after.error.code, "db_error");
  });

  test("a SQLite file that cannot be opened is Err db_error from the first call, not a throw", async () => {
    const db = Db.open("file:/nonexistent-svc-dir/sub/app.db");
    opened.push(db);
    const result = await Auth.userAccessState(db, "1", 0);
    assert.equal(!result.ok && result.error.code, "db_error");
    const login = await Auth.login(db, "a@b.c", "pw");
    assert.equal(!login.ok && login.error.code, "db_error");
  });

  test("a Postgres server that refuses connections is Err db_error from every call", async () => {
    const db = Db.open("postgres://postgres@127.0.0.1:1/none?connect_timeout=2");
    opened.push(db);
    const calls = await Promise.all([
      Auth.userAccessState(db, "1", 0),
      Auth.isRevoked(db, 1, 0),
      Auth.revokeUser(db, "1"),
      Auth.register(db, "a@b.c", "pw", { cost }),
      Auth.login(db, "a@b.c", "pw"),
    ]);
    for (const result of calls) assert.equal(!result.ok && result.error.code, "db_error");
  });
});

describe("Db.fromLibsql", () => {
  test("wraps an application's client and leaves it open on db.close() unless closeClient is set", async () => {
    const client = createClient({ url: ":memory:" });
    const db = Db.fromLibsql(client);
    assert.equal(db.dialect, "sqlite");
    assert.equal(await Auth.userAccessState(db, "7", 0).then((r) => r.ok && r.value), "Active");
    await db.close();
    assert.equal((await client.execute("SELECT COUNT(*) AS n FROM svc_user_access")).rows[0]?.n, 0);
    const owning = Db.fromLibsql(client, { closeClient: true });
    await owning.close();
    assert.equal(client.closed, true);
  });

  test("a client killed under the handle mid-test gives Err db_error, never Active and never a throw", async () => {
    const client = createClient({ url: ":memory:" });
    const db = Db.fromLibsql(client);
    assert.ok((await Auth.revokeUser(db, "9")).ok);
    client.close();
    for (
      const result of [
        await Auth.userAccessState(db, "9", 0),
        await Auth.isRevoked(db, "9", 0),
        await Auth.isDisabled(db, "9"),
        await Auth.login(db, "a@b.c", "pw"),
      ]
    ) {
      assert.equal(!result.ok && result.error.code, "db_error");
    }
    await db.close();
  });

  test("refuses something that is not a libsql client, at the call", () => {
    assert.equal(thrownCode(() => Db.fromLibsql({} as never)), "invalid_argument");
  });
});

describe("schema creation on SQLite files", () => {
  test("is idempotent and two handles registering their first users at the same moment both succeed", async () => {
    const path = join(tmpdir(), `${unique()}.db`);
    const handles = Array.from({ length: 4 }, () => Db.open(`file:${path}`));
    try {
      const results = await Promise.all(handles.map((db, i) => Auth.register(db, `first${i}@example.com`, "pw", { cost })));
      assert.deepEqual(results.map((r) => r.ok), [true, true, true, true]);
      const again = Db.open(`file:${path}`);
      handles.push(again);
      assert.ok((await Auth.register(again, "later@example.com", "pw", { cost })).ok);
      const rows = await sql(again, "SELECT COUNT(*) AS n FROM users");
      assert.equal(Number(rows[0]?.n), 5);
    } finally {
      for (const db of handles) await db.close();
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
      Auth.closePasswordWorkers();
    }
  });
});

describe("Postgres", { skip: POSTGRES_SKIP }, () => {
  const url = POSTGRES_URL ?? "";
  const schemas: string[] = [];
  let admin: ReturnType<typeof postgres>;
  const freshSchema = async () => {
    const schema = unique();
    schemas.push(schema);
    admin ??= postgres(url, { onnotice: () => {}, max: 3 });
    await admin.unsafe(`CREATE SCHEMA ${schema}`);
    return schema;
  };
  after(async () => {
    if (admin === undefined) return;
    for (const schema of schemas) await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end({ timeout: 5 });
    Auth.closePasswordWorkers();
  });

  test("replicas creating the schema and registering their first users at the same moment all succeed", async () => {
    for (let round = 0; round < 3; round++) {
      const schema = await freshSchema();
      const handles = Array.from({ length: 4 }, () => Db.open(withSchema(url, schema)));
      try {
        const results = await Promise.all(handles.map((db, i) => Auth.register(db, `first${i}@example.com`, "pw", { cost })));
        assert.deepEqual(
          results.map((r) => (r.ok ? "ok" : r.error.message)),
          ["ok", "ok", "ok", "ok"],
        );
      } finally {
        for (const db of handles) await db.close();
      }
    }
  });

  test("wraps an application's sql and leaves it open on db.close() unless closeClient is set", async () => {
    const schema = await freshSchema();
    const app = postgres(withSchema(url, schema), { onnotice: () => {}, max: 2 });
    const db = Db.fromPostgres(app);
    assert.equal(db.dialect, "postgres");
    assert.equal(await Auth.userAccessState(db, "7", 0).then((r) => r.ok && r.value), "Active");
    await db.close();
    const rows = await app.unsafe("SELECT COUNT(*)::int AS n FROM svc_user_access");
    assert.equal(rows[0]?.n, 0);
    const owning = Db.fromPostgres(app, { closeClient: true });
    await owning.close();
    await assert.rejects(app.unsafe("SELECT 1"));
  });

  test("a connection killed in the middle of a call gives Err db_error, and the handle then reconnects", async () => {
    const schema = await freshSchema();
    const name = unique();
    const app = postgres(withSchema(url, schema), { onnotice: () => {}, max: 1, connection: { application_name: name } });
    const db = Db.fromPostgres(app, { closeClient: true });
    try {
      assert.equal(await Auth.userAccessState(db, "5", 0).then((r) => r.ok && r.value), "Active");
      // Hold a lock so the next read is in flight on the server when its backend is killed.
      const holder = await admin.reserve();
      await holder.unsafe("BEGIN");
      await holder.unsafe(`LOCK TABLE ${schema}.svc_user_access IN ACCESS EXCLUSIVE MODE`);
      const pending = Auth.userAccessState(db, "5", 0);
      for (let i = 0; i < 100; i++) {
        const waiting = await admin.unsafe("SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [
          name,
        ]);
        if (waiting.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await admin.unsafe("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [name]);
      const killed = await pending;
      await holder.unsafe("ROLLBACK");
      holder.release();
      assert.equal(!killed.ok && killed.error.code, "db_error");
      // The pool notices the dead socket within a call or two and reconnects; until then, Err.
      const later: string[] = [];
      for (let i = 0; i < 5 && later.at(-1) !== "Active"; i++) {
        const result = await Auth.userAccessState(db, "5", 0);
        later.push(result.ok ? result.value : result.error.code);
      }
      assert.equal(later.at(-1), "Active");
      assert.ok(later.slice(0, -1).every((code) => code === "db_error"), later.join(","));
    } finally {
      await db.close();
    }
  });
});
