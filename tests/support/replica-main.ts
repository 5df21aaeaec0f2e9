/**
 * One replica of the multi-replica tests, run as its own process: the counter app on
 * DATABASE_URL (Postgres, shared by the replicas; its search_path names the test's schema), served
 * on PORT (0: any free port), with the bus SVC_TEST_BUS names (JSON, tests/support/bus-targets.ts;
 * Postgres NOTIFY without it). It prints "listening <port>" once it serves, answers its readiness
 * at GET /ready, drains on SIGTERM through Server.graceful (docs/deployment.md#draining: not ready at
 * once, stops accepting, finishes what is in flight, drains the live app, prints "drained", exits
 * 0), and dies on SIGKILL like any process. SVC_TEST_DB_POOL, when set, is the size of its Postgres
 * pool (the bench sizes it so that six replicas fit the server's max_connections).
 */
import process from "node:process";
import { serve } from "@hono/node-server";
import postgres from "postgres";
import { Auth } from "../../src/auth/mod.ts";
import { Db } from "../../src/db/mod.ts";
import { Server } from "../../src/server/mod.ts";
import { counterApp } from "./counter-app.ts";

const url = process.env.DATABASE_URL;
const pool = Number(process.env.SVC_TEST_DB_POOL ?? 0);
const db = !url
  ? undefined
  : pool > 0
  ? Db.fromPostgres(postgres(url, { max: pool, onnotice: () => {} }), { closeClient: true })
  : Db.open(url);
/** Database round trips this replica made (statements and transactions), for the bench. */
let roundTrips = 0;
/**
 * The statements it sent (each of a transaction's, BEGIN and COMMIT not counted), of them those
 * that can NOTIFY, the session saves, and the saves that can NOTIFY.
 */
const tallies = { statements: 0, notifying: 0, saves: 0, notifyingSaves: 0 };
const tally = (sql: string) => {
  const save = sql.includes("UPDATE svc_live_sessions SET handle");
  const notifies = sql.includes("pg_notify");
  tallies.statements++;
  if (notifies) tallies.notifying++;
  if (save) tallies.saves++;
  if (save && notifies) tallies.notifyingSaves++;
};
/** The same, by kind: each statement's first words (a transaction's, its first statement's), for the bench. */
const byKind = new Map<string, number>();
const kindOf = (sql: string) => sql.replace(/\s+/g, " ").trim().slice(0, 48);
const count = (kind: string) => byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
if (db !== undefined) {
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  db.query = (statement) => (roundTrips++, tally(statement.sql), count(kindOf(statement.sql)), query(statement));
  db.transaction = (list) => {
    roundTrips++;
    for (const statement of list) tally(statement.sql);
    count(`tx: ${kindOf(list[0]?.sql ?? "")}`);
    return transaction(list);
  };
}
const bus = process.env.SVC_TEST_BUS ? JSON.parse(process.env.SVC_TEST_BUS) : undefined;
const live = counterApp({ db, gate: db, heartbeatMs: 1_000, bus });
const graceful = Server.graceful({ live, db, onStep: (step) => step === "closed" && process.stdout.write("drained\n") });
await live.ready();

/**
 * POST /test/revoke/<user> and /test/disable/<user>: the admin action, through this replica.
 * GET /test/round-trips: the database round trips this replica has made; /test/round-trips-by-kind: the same by statement;
 * /test/db-counts: round trips and the statements' tallies, as JSON.
 */
async function fetch(req: Request): Promise<Response> {
  if (new URL(req.url).pathname === "/ready") return graceful.readiness();
  if (new URL(req.url).pathname === "/test/round-trips") return new Response(String(roundTrips));
  if (new URL(req.url).pathname === "/test/db-counts") return Response.json({ roundTrips, ...tallies });
  if (new URL(req.url).pathname === "/test/round-trips-by-kind") return Response.json(Object.fromEntries(byKind));
  const admin = /^\/test\/(revoke|disable)\/([^/]+)$/.exec(new URL(req.url).pathname);
  if (admin === null || req.method !== "POST" || db === undefined) return live.fetch(req);
  const done = admin[1] === "revoke" ? await Auth.revokeUser(db, admin[2]!) : await Auth.disableUser(db, admin[2]!);
  return new Response(done.ok ? "done" : done.error.message, { status: done.ok ? 200 : 500 });
}

graceful.attach(
  serve({ fetch: graceful.fetch(fetch), port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" }, (info) => {
    process.stdout.write(`listening ${info.port}\n`);
  }),
);
