/**
 * One Postgres schema for a test file whose apps stand for replicas on one database: made before the
 * file's tests and dropped after them, with every database handle and app the tests opened closed
 * first. Registers its hooks only when a Postgres server is configured (tests/support/db-targets.ts).
 *
 * `via`: how the apps find the schema, the `schema` option of `Db.open` or a `search_path` in the
 * URL (the schema then made here, as Postgres does not make it).
 */
import { after, before } from "node:test";
import postgres from "postgres";
import { Db } from "../../src/db/mod.ts";
import { POSTGRES_SKIP, POSTGRES_URL } from "./db-targets.ts";

export type ReplicaSchema = {
  readonly schema: string;
  /** A database handle on the schema, closed after the file's tests. */
  readonly open: () => Db;
  /** The connection the schema was made with, for queries and notifications by hand; set once the tests run. */
  readonly admin: () => ReturnType<typeof postgres>;
  /** Things to close after the file's tests (its apps), before the handles. */
  readonly closers: (() => void)[];
};

export function replicaSchema(prefix: string, via: "schema option" | "search_path"): ReplicaSchema {
  const schema = `svc_${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  let admin: ReturnType<typeof postgres> | undefined;
  const handles: Db[] = [];
  const closers: (() => void)[] = [];
  if (POSTGRES_SKIP === undefined) {
    before(async () => {
      admin = postgres(POSTGRES_URL!, { onnotice: () => {}, max: 1 });
      if (via === "search_path") await admin.unsafe(`CREATE SCHEMA ${schema}`);
    });
    after(async () => {
      for (const close of closers) close();
      for (const db of handles) await db.close();
      await admin?.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin?.end({ timeout: 5 });
    });
  }
  const url = () => `${POSTGRES_URL!}${POSTGRES_URL!.includes("?") ? "&" : "?"}search_path=${schema}`;
  return {
    schema,
    open: () => {
      const db = via === "search_path" ? Db.open(url()) : Db.open(POSTGRES_URL!, { schema });
      handles.push(db);
      return db;
    },
    admin: () => admin!,
    closers,
  };
}
