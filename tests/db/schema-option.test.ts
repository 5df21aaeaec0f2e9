// Db.open's `schema` option (docs/deployment.md#a-shared-database): on Postgres every svc table
// (users, access, live sessions, rotations, frames) and the notification channel live in the
// app's own schema, created when missing, so two apps share one database without seeing each
// other; a bad name, SQLite and a wrapped client are refused with bad_config.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import { Auth, Secret } from "../../src/auth/mod.ts";
import { Db } from "../../src/db/mod.ts";
import { SvcError } from "../../src/errors.ts";
import { counterApp } from "../support/counter-app.ts";
import { POSTGRES_SKIP, POSTGRES_URL } from "../support/db-targets.ts";

const SECRET = "schema-option-test-secret-schema-option-test-secret";
const tag = `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
const schemas = [`svc_app_a_${tag}`, `svc_app_b_${tag}`];
const admin = POSTGRES_URL ? postgres(POSTGRES_URL, { onnotice: () => {}, max: 1 }) : undefined;
after(async () => {
  for (const schema of schemas) await admin?.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin?.end({ timeout: 5 });
});

const tablesOf = async (schema: string) =>
  (await admin!.unsafe(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schema]))
    .map((row) => String(row.table_name));

test(
  "two apps on one Postgres database, each in its own schema, keep their users and sessions apart",
  { skip: POSTGRES_SKIP },
  async () => {
    const [a, b] = schemas.map((schema) => Db.open(POSTGRES_URL!, { schema })) as [Db, Db];
    try {
      const registered = await Auth.register(a, "ada@example.test", "violet-orbit-canyon-42");
      assert.ok(registered.ok, registered.ok ? "" : registered.error.message);
      const inA = await Auth.login(a, "ada@example.test", "violet-orbit-canyon-42");
      assert.ok(inA.ok, "the user signs in to the app that holds her");
      const inB = await Auth.login(b, "ada@example.test", "violet-orbit-canyon-42");
      assert.equal(inB.ok, false, "the other app has no such user");
      assert.equal((await b.query({ sql: "SELECT count(*)::int AS n FROM users", args: [] })).ok, true, "b made its own users table");

      // A live app with shared sessions on `a` keeps its sessions in a's schema.
      const live = counterApp({ db: a, gate: a, secret: Secret.fromString(SECRET) });
      await live.ready();
      const page = await live.fetch(new Request("http://app.test/"));
      assert.equal(page.status, 200);
      await page.text();
      const tablesA = await tablesOf(schemas[0]!);
      for (const table of ["users", "svc_user_access", "svc_live_sessions", "svc_live_rotations", "svc_live_frames", "svc_live_dead"]) {
        assert.ok(tablesA.includes(table), `${table} is in ${schemas[0]} (has ${tablesA.join(", ")})`);
      }
      const sessions = await admin!.unsafe(`SELECT count(*)::int AS n FROM ${schemas[0]}.svc_live_sessions`);
      assert.equal(sessions[0]?.n, 1, "the page's session is stored in the app's schema");
      assert.equal((await tablesOf(schemas[1]!)).includes("svc_live_sessions"), false, "b has no live tables: it never shared sessions");
      await live.drain();
    } finally {
      await a.close();
      await b.close();
    }
  },
);

test("a schema name that would need quoting is refused with bad_config", () => {
  for (const schema of ["App", "1app", "app-b", "app;drop", "", "a".repeat(64)]) {
    const opened = Db.tryOpen("postgres://localhost/db", { schema });
    assert.equal(opened.ok, false, schema);
    if (!opened.ok) assert.equal(opened.error.code, "bad_config");
  }
  assert.equal(Db.tryOpen("postgres://localhost/db", { schema: "my_app_2" }).ok, true);
});

test("SQLite refuses the schema option: each app gets its own file", () => {
  const opened = Db.tryOpen(":memory:", { schema: "app" });
  assert.equal(opened.ok, false);
  if (!opened.ok) {
    assert.equal(opened.error.code, "bad_config");
    assert.match(opened.error.message, /Postgres option/);
  }
});

test("a wrapped client refuses the schema option: its own search_path decides", () => {
  const sql = { unsafe: () => Promise.resolve([]), begin: () => Promise.resolve([]), end: () => Promise.resolve() };
  assert.throws(
    () => Db.fromPostgres(sql, { schema: "app" }),
    (error: unknown) => error instanceof SvcError && error.code === "bad_config",
  );
});
