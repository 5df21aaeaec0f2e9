/**
 * The shared session store failing (docs/deployment.md#when-the-database-fails): every live route
 * (page, event, subscribe, render) answers 503 with Retry-After, never 500, and the session is
 * neither lost nor changed: once the database is back, it carries on from its last saved state.
 * Two apps in this process on one Postgres schema stand for two replicas; one's database handle
 * is switched to fail every statement. Then a database that cannot be reached at all (a bad URL).
 */
import assert from "node:assert/strict";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { Db } from "../../src/db/mod.ts";
import { err } from "../../src/result.ts";
import { counterApp } from "../support/counter-app.ts";
import { sessionKey } from "../../src/live/store/session-key.ts";
import { openTab, type Tab } from "../support/live-harness.ts";
import { targets } from "../support/db-targets.ts";
import { busTargets } from "../support/bus-targets.ts";

const postgres = targets().find((target) => target.name === "Postgres")!;
// Both replicas check the CSRF tokens the other issued: one key.
process.env.SVC_AUTH_TOKEN_SECRET ??= "store-failure-test-secret-store-failure-test-secret";

/** A handle whose statements all fail while `down` is set, as when Postgres stops. */
function switchable(db: Db): { down: boolean; movesFail: boolean } {
  const state = { down: false, movesFail: false };
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  const failure = () => Promise.resolve(err("db_error", "connection refused (test: database down)"));
  // `movesFail`: only a rotation's move (the transaction that stores the rotation) fails.
  const isMove = (statements: readonly { sql: string }[]) => statements.some((s) => /INSERT INTO svc_live_rotations/i.test(s.sql));
  db.query = (statement) => (state.down ? failure() : query(statement));
  db.transaction = (statements) => (state.down || (state.movesFail && isMove(statements)) ? failure() : transaction(statements));
  return state;
}

const URL_A = "http://app.test/";

async function assertUnavailable(resp: Response | Promise<Response>, what: string): Promise<void> {
  const answer = await resp;
  assert.equal(answer.status, 503, `${what}: ${answer.status} ${await answer.clone().text()}`);
  assert.equal(answer.headers.get("Retry-After"), "1", `${what}: Retry-After`);
  assert.equal(answer.headers.get("X-Svc-Status"), "gate-unavailable", `${what}: the retry-later status`);
  assert.ok(!answer.headers.getSetCookie().some((line) => line.startsWith("svc_sid=")), `${what}: no session cookie`);
  await answer.body?.cancel();
}

const get = (app: { fetch(req: Request): Response | Promise<Response> }, tab: Tab, path: string) =>
  Promise.resolve(app.fetch(new Request(new URL(path, URL_A), { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } })));

async function countOf(app: { fetch(req: Request): Response | Promise<Response> }, tab: Tab): Promise<string> {
  const render = await get(app, tab, "/_svc/render");
  assert.equal(render.status, 200);
  return /count (\d+)/.exec(await render.text())?.[1] ?? "?";
}

for (const bus of busTargets()) {
  describe(`on the ${bus.name} bus`, { skip: bus.skip }, () => {
    describe("the shared store failing", { skip: postgres.skip }, () => {
      let dbA: Db;
      let dbB: Db;
      let a: ReturnType<typeof counterApp>;
      let b: ReturnType<typeof counterApp>;
      let downB: { down: boolean; movesFail: boolean };
      before(async () => {
        await postgres.setup();
        dbA = postgres.open();
        dbB = postgres.open();
        downB = switchable(dbB);
        a = counterApp({ db: dbA, bus: bus.option });
        b = counterApp({ db: dbB, bus: bus.option });
        await a.ready();
        await b.ready();
      });
      after(async () => {
        a.close();
        b.close();
        await dbA.close();
        await dbB.close();
        await postgres.teardown();
      });

      test("page, event, subscribe and render of a session held elsewhere answer 503 with Retry-After; it carries on once the database is back", async () => {
        const tab = await openTab(a, URL_A);
        for (let seq = 1; seq <= 3; seq++) assert.equal((await tab.post({ seq, msg: "Inc", args: [], page: "p" })).status, 200);

        downB.down = true;
        // B does not hold the session: each route must take it over from the store, which fails.
        await assertUnavailable(b.fetch(new Request(URL_A, { headers: { Cookie: tab.cookies } })), "page");
        await assertUnavailable(get(b, tab, "/_svc/subscribe"), "subscribe");
        await assertUnavailable(get(b, tab, "/_svc/render"), "render");
        const event = () =>
          b.fetch(
            new Request(new URL("/_svc/event", URL_A), {
              method: "POST",
              headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json" },
              body: JSON.stringify({ seq: 4, msg: "Inc", args: [], page: "p" }),
            }),
          );
        await assertUnavailable(event(), "event");
        assert.equal(await countOf(a, tab), "3", "the owner still holds the session, unchanged");

        downB.down = false;
        // The client's retry of the same event lands once, from the saved state.
        const retried = await event();
        assert.equal(retried.status, 200, await retried.clone().text());
        assert.equal(((await retried.json()) as { seq: number }).seq, 4);
        assert.equal(await countOf(b, tab), "4");
      });

      test("a new page load answers 503 and sets no cookie while the store fails; the page after that works", async () => {
        downB.down = true;
        const sessionsBefore = b.sessions.size;
        await assertUnavailable(b.fetch(new Request(URL_A)), "new page");
        assert.equal(b.sessions.size, sessionsBefore, "the session that could not be stored is not kept");
        downB.down = false;
        const tab = await openTab(b, URL_A);
        assert.match(tab.cookies, /svc_sid=/);
        assert.equal((await tab.post({ seq: 1, msg: "Inc", args: [], page: "p" })).status, 200);
        assert.equal(await countOf(a, tab), "1", "stored: another replica takes it over");
      });

      test("the owner's own event answers 503 when its save fails, and nothing of it is kept or sent", async () => {
        const tab = await openTab(b, URL_A);
        assert.equal((await tab.post({ seq: 1, msg: "Inc", args: [], page: "p" })).status, 200);
        const stream = await tab.subscribe();
        downB.down = true;
        await assertUnavailable(tab.post({ seq: 2, msg: "Inc", args: [], page: "p" }), "event at the owner");
        // A page load saves the page it opens before its cookie goes out: that save fails too.
        await assertUnavailable(b.fetch(new Request(URL_A, { headers: { Cookie: tab.cookies } })), "page at the owner");
        assert.equal(b.sessions.size > 0 && [...b.sessions.all()].some((s) => s.isLive), true, "the session is kept");
        downB.down = false;
        const retried = await tab.post({ seq: 2, msg: "Inc", args: [], page: "p" });
        assert.equal(retried.status, 200);
        assert.equal(await countOf(a, tab), "2", "one increment per acknowledged event");
        await stream.close();
      });

      test("a sign-in whose move to the new id fails answers 503 without the new id, and the old id never names the bound session in the store", async () => {
        const tab = await openTab(b, URL_A);
        assert.equal((await tab.post({ seq: 1, msg: "Inc", args: [], page: "p" })).status, 200);
        const oldId = /svc_sid=([^;]+)/.exec(tab.cookies)![1]!;
        downB.movesFail = true;
        // SignIn binds a user, which rotates the id: the move is refused, then refused again on the reply's retry.
        await assertUnavailable(tab.post({ seq: 2, msg: "SignIn", args: [`moved-${Date.now()}`], page: "p" }), "sign-in");
        downB.movesFail = false;
        const rows = await dbA.query({ sql: "SELECT user_id FROM svc_live_sessions WHERE key = $1", args: [await sessionKey(oldId)] });
        assert.ok(rows.ok);
        assert.equal(rows.value[0]?.user_id ?? null, null, "the old id's stored session is not bound to the user");
        // The old cookie at another replica: that unbound copy at most, never the signed-in session.
        const render = await get(a, tab, "/_svc/render");
        assert.notEqual(render.status, 500);
        await render.body?.cancel();
      });
    });
  });
}

describe("a database that cannot be reached", { skip: postgres.skip }, () => {
  test("page, event, subscribe and render answer 503 with Retry-After, never 500", async () => {
    // Nothing listens on port 1: every connection is refused.
    const db = Db.open("postgres://postgres@127.0.0.1:1/test");
    const live = counterApp({ db });
    try {
      await assertUnavailable(live.fetch(new Request(URL_A)), "page");
      const tab = { cookies: "svc_sid=an-id-no-replica-holds", csrf: "x" } as Tab;
      await assertUnavailable(get(live, tab, "/_svc/subscribe"), "subscribe");
      await assertUnavailable(get(live, tab, "/_svc/render"), "render");
      await assertUnavailable(
        live.fetch(
          new Request(new URL("/_svc/event", URL_A), {
            method: "POST",
            headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json" },
            body: JSON.stringify({ seq: 1, msg: "Inc", args: [], page: "p" }),
          }),
        ),
        "event",
      );
    } finally {
      live.close();
      await db.close();
    }
  });
});
