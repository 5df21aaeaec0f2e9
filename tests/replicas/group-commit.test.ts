// Group commit (docs/deployment.md#group-commit): the saves one event-loop turn produces, across
// sessions, go to Postgres together, each fenced on its own row. One session's row is moved on
// behind the replica's back (as another replica's takeover would), so its save loses its fence:
// only that save fails and only that event is processed again, every reply carries its own
// session's frame, and the database calls the replica made are counted to show the grouping.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Db, DbStatement as Statement } from "../../src/db/mod.ts";
import { Secret } from "../../src/auth/mod.ts";
import { sessionKey } from "../../src/live/store/session-key.ts";
import { PostgresLiveStore } from "../../src/live/store/postgres.ts";
import type { StoredSession } from "../../src/live/store/store.ts";
import { counterApp } from "../support/counter-app.ts";
import { openTab } from "../support/live-harness.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { replicaSchema } from "../support/replica-schema.ts";

const skip = POSTGRES_SKIP;
if (skip !== undefined) console.log(`# tests/replicas/group-commit skipped: ${skip}`);

const { open, admin, schema } = replicaSchema("group_commit", "search_path");
const SESSIONS = 8;
const isSave = (statement: Statement) => /UPDATE svc_live_sessions SET handle/.test(statement.sql);

test(
  "the saves of one turn go in one transaction, a save that loses its fence fails alone and only its event is retried",
  { skip },
  async () => {
    // The replica's database, counting its calls: each save's key, and which went together.
    const db: Db = open();
    const query = db.query.bind(db);
    const transaction = db.transaction.bind(db);
    const alone: string[] = [];
    const groups: string[][] = [];
    db.query = (statement: Statement) => {
      if (isSave(statement)) alone.push(String(statement.args[1]));
      return query(statement);
    };
    db.transaction = (statements: readonly Statement[]) => {
      if (statements.some(isSave)) groups.push(statements.filter(isSave).map((statement) => String(statement.args[1])));
      return transaction(statements);
    };
    const app = counterApp({ db, secret: Secret.fromString("group-commit-test-secret-group-commit-test-secret-0123") });
    try {
      await app.ready();
      const tabs = [];
      for (let i = 0; i < SESSIONS; i++) tabs.push(await openTab(app));
      const keys = await Promise.all(tabs.map((tab) => sessionKey(/svc_sid=([^;]+)/.exec(tab.cookies)![1]!)));
      // Another replica's takeover, as the store sees it: the row's epoch moves on. The replica has
      // not heard of it, so its next save of that session is fenced off.
      const fenced = 3;
      const moved = await admin().unsafe(`UPDATE ${schema}.svc_live_sessions SET epoch = epoch + 1 WHERE key = $1`, [keys[fenced]!]);
      assert.equal(moved.count, 1);
      alone.length = 0;
      groups.length = 0;

      // One event per session, all arriving in one turn.
      const replies = await Promise.all(tabs.map((tab) => tab.post({ seq: 1, msg: "Inc", args: [], sessionId: tab.handle, page: "p" })));
      for (const [i, reply] of replies.entries()) {
        assert.equal(reply.status, 200, `session ${i}`);
        assert.equal(reply.headers.getSetCookie().length, 0, `session ${i}: no cookie changes`);
        const frame = (await reply.json()) as { seq: number; respondingTo: number; patches: { text?: string }[] };
        assert.equal(frame.seq, 1, `session ${i}: its own first frame`);
        assert.equal(frame.respondingTo, 1);
        assert.ok(JSON.stringify(frame.patches).includes("count 1"), `session ${i}: its own count`);
      }

      // Grouped: the first saves of all the sessions went in one transaction.
      assert.ok(
        groups.some((group) => group.length === SESSIONS),
        `groups ${JSON.stringify(groups.map((g) => g.length))}, alone ${alone.length}`,
      );
      // Only the fenced session's save was made again (once, claiming the session back); no other.
      const savesOf = (key: string) => [...alone, ...groups.flat()].filter((one) => one === key).length;
      for (const [i, key] of keys.entries()) assert.equal(savesOf(key), i === fenced ? 2 : 1, `saves of session ${i}`);
      console.log(
        `# group commit: ${groups.length} transaction(s) of ${groups.map((g) => g.length).join(", ")} saves, ${alone.length} alone`,
      );

      // Every session's state is its own one event, the fenced one's too.
      const counts = await admin().unsafe(`SELECT key, out_seq, model FROM ${schema}.svc_live_sessions`);
      for (const key of keys) {
        const row = counts.find((one) => one.key === key)!;
        assert.equal(Number(row.out_seq), 1, `session ${keys.indexOf(key)} at seq 1`);
        assert.match(String(row.model), /"count":1/);
      }
    } finally {
      app.close();
    }
  },
);

// Two replicas' groups that save the same sessions in one turn each, in opposite orders (behind a
// round-robin balancer a session's events alternate between replicas): each save locks its row
// until its group commits, so unless the groups take their rows in one order they deadlock, and
// Postgres fails one group whole (every event in it answered 503).
test("two replicas' groups saving the same sessions in opposite orders never deadlock", { skip }, async () => {
  const stores = [new PostgresLiveStore(open(), "group-order"), new PostgresLiveStore(open(), "group-order")];
  await stores[0]!.ensureSchema();
  const SAVED = 12;
  const held = Array.from({ length: SAVED }, (_, i): StoredSession => ({
    key: `order-${String(i).padStart(2, "0")}`,
    handle: `h-${i}`,
    model: "{}",
    outSeq: 0,
    inputSeqs: [],
    pageSeqs: [],
    user: undefined,
    boundAt: 0,
  }));
  for (const session of held) await stores[0]!.create(session, "replica-a");
  const started = performance.now();
  for (let turn = 1; turn <= 15; turn++) {
    // Each store makes its turn's saves in its own order; a session's row is written by both, at the same epoch.
    const saves = stores.flatMap((store, s) => {
      const order = s === 0 ? held : [...held].reverse();
      return order.map((session) => store.save({ ...session, outSeq: turn, model: `{"turn":${turn}}` }, "replica-a", 1));
    });
    const results = await Promise.allSettled(saves);
    const failed = results.filter((result) => result.status === "rejected") as PromiseRejectedResult[];
    assert.deepEqual(failed.map((result) => String(result.reason)), [], `turn ${turn}`);
    assert.ok(results.every((result) => result.status === "fulfilled" && result.value === true), `turn ${turn}: every save committed`);
  }
  // A deadlock is found only after Postgres's deadlock_timeout (1 s by default): none waited so.
  console.log(`# 15 turns of two opposite groups of ${SAVED} saves: ${Math.round(performance.now() - started)} ms`);
});

// A replica's lease renewal updates every row it owns in one statement, while its groups of saves
// hold some of those rows: unless the renewal locks them in the groups' order it waits for a
// group that waits for it, and Postgres fails one of them as a deadlock. The rows are made in
// the reverse of their keys' order, so the table's own order is the opposite of the groups'.
test("a lease renewal beside groups of saves never deadlocks", { skip, timeout: 60_000 }, async () => {
  const store = new PostgresLiveStore(open(), "renew-order");
  await store.ensureSchema();
  const SAVED = 400;
  const WORKERS = 40;
  const held = Array.from({ length: SAVED }, (_, i): StoredSession => ({
    key: `renew-${String(SAVED - i).padStart(4, "0")}`,
    handle: `h-${i}`,
    model: "{}",
    outSeq: 0,
    inputSeqs: [],
    pageSeqs: [],
    user: undefined,
    boundAt: 0,
  }));
  for (let i = 0; i < SAVED; i += 50) await Promise.all(held.slice(i, i + 50).map((session) => store.create(session, "replica-a")));
  // For a while: workers save their share of the sessions one after another (a group per turn),
  // and the replica renews its leases over and over meanwhile.
  const until = performance.now() + 3000;
  const failures: string[] = [];
  let saves = 0;
  let renewals = 0;
  const workers = Array.from({ length: WORKERS }, async (_, w) => {
    for (let i = w, turn = 1; performance.now() < until; i += WORKERS, turn++) {
      const session = held[i % SAVED]!;
      const saved = await store.save({ ...session, outSeq: turn }, "replica-a", 1).catch((error) => void failures.push(String(error)));
      if (saved === true) saves++;
    }
  });
  const renewing = (async () => {
    while (performance.now() < until) {
      const renewed = await store.renew("replica-a").catch((error) => void failures.push(String(error)));
      if (renewed !== undefined) {
        assert.equal(renewed.size, SAVED, "the renewal holds every session");
        renewals++;
      }
    }
  })();
  await Promise.all([...workers, renewing]);
  console.log(`# ${saves} saves and ${renewals} renewals of ${SAVED} sessions in 3 s`);
  assert.deepEqual(failures.slice(0, 3), [], `${failures.length} failures`);
  assert.ok(saves > 0 && renewals > 0);
});
