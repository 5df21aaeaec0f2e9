// A fresh Postgres schema for the two-replica gate test, or undefined without SVC_TEST_POSTGRES_URL.
import process from "node:process";
import postgres from "postgres";

export function postgresTarget(): { url: string; ready: Promise<unknown>; cleanup: () => Promise<void> } | undefined {
  const base = process.env.SVC_TEST_POSTGRES_URL;
  if (!base) return undefined;
  const schema = `svc_gate_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(base, { onnotice: () => {}, max: 1 });
  const created = admin.unsafe(`CREATE SCHEMA ${schema}`);
  return {
    url: `${base}${base.includes("?") ? "&" : "?"}search_path=${schema}`,
    ready: created,
    cleanup: async () => {
      await created;
      await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end({ timeout: 5 });
    },
  };
}
