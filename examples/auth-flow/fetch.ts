/**
 * The reference flow as a default-exported fetch handler, for any Web-standard host:
 *   bun examples/auth-flow/fetch.ts        deno serve -A examples/auth-flow/fetch.ts
 * SQLite in ./auth-flow.db by default; Postgres when DATABASE_URL is set.
 */
import { Db, Secret, Server } from "../../src/mod.ts";
import { createAuthFlowApp } from "./app.ts";

const started = Server.checkSecretAtStart();
if (!started.ok) throw started.error;

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const db = Db.open(env.DATABASE_URL || "file:auth-flow.db");
const secret = env.SVC_AUTH_TOKEN_SECRET
  ? Secret.fromEnv("SVC_AUTH_TOKEN_SECRET")
  // Development only (the check above refuses a missing secret in production): a per-process
  // random secret, so sessions end when the process does.
  : Secret.fromString(crypto.randomUUID() + crypto.randomUUID());

const app = createAuthFlowApp({ db, secret });
export default { fetch: app.fetch };
