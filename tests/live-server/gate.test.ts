import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Auth, Db, Live, Secret, Ui } from "../../src/mod.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";
import { MemorySessionStore } from "../../src/live/server/registry/snapshot-store.ts";
import { type LogLevel, setLogSink } from "../../src/log.ts";
import { cookieHeader, eventually, openTab, sleep, type Tab } from "../support/live-harness.ts";
import { withEnv } from "../support/env.ts";
import { postgresTarget } from "./gate-targets.ts";
import { sql } from "../support/db-targets.ts";
import { signInUpdate } from "../support/sign-in-update.ts";

// docs/auth.md#live-sessions-and-the-gate: Live session and the revocation gate; docs/auth.md#sign-out by session type.
type Model = { user: string; n: number; fetched: string; ticking: boolean };

function gateApp(db: Db | undefined, store = new MemorySessionStore()) {
  const app = Live.app<Model>(
    {
      init: (ctx) => ({ user: typeof ctx.auth?.sub === "string" ? ctx.auth.sub : "", n: 0, fetched: "", ticking: false }),
      update: (model, msg, args) => {
        switch (msg) {
          case "Tick":
            return { ...model, n: model.n + 1 };
          case "Start":
            return { ...model, ticking: true };
          case "Slow":
            return [model, Live.task(() => sleep(150).then(() => "late"), () => ["Fetched", "late"])] as const;
          case "Fetched":
            return { ...model, fetched: String(args[0]) };
          default:
            return signInUpdate(model, msg, args) ?? model;
        }
      },
      view: (model) =>
        Ui.h(
          "main",
          {},
          Ui.h("p", {}, model.user === "" ? "signed out" : `user ${model.user} n ${model.n}`),
          Ui.h("output", {}, model.fetched),
          Ui.h("button", { onClick: "Inc" }, "inc"),
          Ui.h("button", { onClick: "Start" }, "start"),
          Ui.h("button", { onClick: "Slow" }, "slow"),
          Ui.h("button", { onClick: "SignOut" }, "out"),
        ),
      subscriptions: (model) => (model.ticking ? [Live.every(30, "Tick")] : []),
    },
    { messages: ["SignIn"], store },
  );
  apps.push(app);
  return db ? app.withRevocation(db) : app;
}

const apps: LiveApp<Model>[] = [];
const dbs: Db[] = [];
function memoryDb(options = {}) {
  const db = Db.open(":memory:", options);
  dbs.push(db);
  return db;
}
after(async () => {
  apps.forEach((a) => a.close());
  for (const db of dbs) await db.close();
  Auth.closePasswordWorkers();
});

async function newUser(db: Db, email: string): Promise<string> {
  const id = await Auth.register(db, email, "pw-pw-pw", { cost: 4 });
  assert.ok(id.ok);
  return String(id.value);
}

async function signIn(tab: Tab, userId: string): Promise<Response> {
  const resp = await tab.post({ seq: 1, msg: "SignIn", args: [userId] });
  tab.cookies = cookieHeader(resp, tab.cookies);
  return resp;
}

function captureLog() {
  const lines: string[] = [];
  const previous = setLogSink((level: LogLevel, line: string) => lines.push(`${level} ${line}`));
  return { lines, restore: () => setLogSink(previous) };
}

describe("binding", () => {
  test("the first bind and each change of user rotate the session id; binding the same user again does not", async () => {
    const db = memoryDb();
    const a = gateApp(db);
    const tab = await openTab(a);
    const first = await signIn(tab, await newUser(db, "bind1@example.com"));
    assert.ok(first.headers.get("X-Svc-Rotation"), "first bind rotates");
    const again = await signIn(tab, [...a.sessions.all()][0]!.user!);
    assert.equal(again.headers.get("X-Svc-Rotation"), null, "same user: no rotation");
    const other = await signIn(tab, await newUser(db, "bind2@example.com"));
    assert.ok(other.headers.get("X-Svc-Rotation"), "another user rotates");
    assert.equal(a.sessions.size, 1);
  });

  test("until withRevocation is called the gate is inert: a revoked user's session goes on", async () => {
    const db = memoryDb();
    const a = gateApp(undefined);
    const tab = await openTab(a);
    const id = await newUser(db, "inert@example.com");
    await signIn(tab, id);
    assert.ok((await Auth.revokeUser(db, id)).ok);
    assert.equal((await tab.post({ seq: 2, msg: "Inc" })).status, 200);
  });

  test("an unbound session reaching an enabled gate is served with one loud warning per session", async () => {
    const a = gateApp(memoryDb());
    const tab = await openTab(a);
    const log = captureLog();
    try {
      assert.equal((await tab.post({ seq: 1, msg: "Inc" })).status, 200);
      assert.equal((await tab.post({ seq: 2, msg: "Inc" })).status, 200);
    } finally {
      log.restore();
    }
    assert.equal(log.lines.filter((line) => line.startsWith("WARN live.gate UNBOUND SESSION")).length, 1);
  });

  test("unbound sessions in numbers are warned of once a minute, with how many more there were", async () => {
    const a = gateApp(memoryDb());
    const log = captureLog();
    try {
      for (let i = 0; i < 5; i++) {
        const tab = await openTab(a);
        assert.equal((await tab.post({ seq: 1, msg: "Inc" })).status, 200);
      }
    } finally {
      log.restore();
    }
    const warnings = log.lines.filter((line) => line.startsWith("WARN live.gate UNBOUND SESSION"));
    // The first session of this app's gate is told at once (another gate's minute does not count).
    assert.equal(warnings.length, 1, warnings.join("\n"));
  });
});

describe("eviction", () => {
  for (const [verdict, act] of [["Revoked", Auth.revokeUser], ["Disabled", Auth.disableUser]] as const) {
    test(`a ${verdict} user's bound session is evicted at once, its stream gets the lost signal, nothing keeps running`, async () => {
      const db = memoryDb();
      const store = new MemorySessionStore();
      const a = gateApp(db, store);
      const tab = await openTab(a);
      const id = await newUser(db, `${verdict}@example.com`);
      await signIn(tab, id);
      const session = [...a.sessions.all()][0]!;
      await tab.post({ seq: 2, msg: "Start" });
      assert.equal(session.subscriptionCount, 1);
      const stream = await tab.subscribe();
      await tab.post({ seq: 3, msg: "Slow" }); // a completion in flight
      await sleep(5); // a revoke covers what was issued strictly before it, so not in the bind's own millisecond
      assert.ok((await act(db, id)).ok);

      // Pushed, not lazy: the session ends before the tab sends anything.
      await eventually(() => assert.equal(session.life, "ended"));
      assert.equal(session.subscriptionCount, 0, "no timer left");
      assert.equal(session.streams.size, 0, "no stream left");
      assert.equal(await store.isDead(session.id), true, "the stored snapshot is gone and the id dead");
      assert.equal(await stream.lost(1000), true, "the stream got the session-lost signal and ended");
      const evicted = await tab.post({ seq: 4, msg: "Inc" });
      assert.equal(evicted.status, 404);
      assert.equal(evicted.headers.get("X-Svc-Status"), "session-lost");
      const outSeq = session.outSeq;
      await sleep(250);
      assert.equal(session.outSeq, outSeq, "the in-flight completion produced no frame");
      assert.equal(session.model.fetched, "", "and changed nothing");
      const reloaded = await openTab(a, "http://app.test/", tab.cookies);
      assert.match(reloaded.html, /signed out/);
    });
  }

  test("a revoke before the bind does not evict: revoke is not a ban, a later sign-in works", async () => {
    const db = memoryDb();
    const a = gateApp(db);
    const id = await newUser(db, "ban@example.com");
    assert.ok((await Auth.revokeUser(db, id)).ok);
    await sleep(5);
    const tab = await openTab(a);
    await signIn(tab, id);
    assert.equal((await tab.post({ seq: 2, msg: "Inc" })).status, 200);
  });

  test("after enableUser, the user can bind a new session and is served", async () => {
    const db = memoryDb();
    const a = gateApp(db);
    const id = await newUser(db, "enable@example.com");
    assert.ok((await Auth.disableUser(db, id)).ok);
    const tab = await openTab(a);
    await signIn(tab, id);
    assert.equal((await tab.post({ seq: 2, msg: "Inc" })).status, 404, "disabled: evicted");
    assert.ok((await Auth.enableUser(db, id)).ok);
    const fresh = await openTab(a);
    await signIn(fresh, id);
    assert.equal((await fresh.post({ seq: 2, msg: "Inc" })).status, 200);
  });

  test("the gate's database failing fails closed: 503, a logged error, and the session is not served", async () => {
    const db = memoryDb();
    const a = gateApp(db);
    const tab = await openTab(a);
    await signIn(tab, await newUser(db, "down@example.com"));
    await db.close();
    const log = captureLog();
    let resp: Response;
    try {
      resp = await tab.post({ seq: 2, msg: "Inc" });
    } finally {
      log.restore();
    }
    assert.equal(resp.status, 503);
    assert.equal(resp.headers.get("X-Svc-Status"), "gate-unavailable");
    assert.ok(log.lines.some((line) => line.startsWith("ERROR live.gate")));
    assert.equal([...a.sessions.all()][0]!.model.n, 0);
  });
});

describe("endSession", () => {
  test("ends the session, its snapshot and binding; a copy of the old cookie gets a fresh signed-out session", async () => {
    const db = memoryDb();
    const store = new MemorySessionStore();
    const a = gateApp(db, store);
    const tab = await openTab(a);
    await signIn(tab, await newUser(db, "out@example.com"));
    const copy = tab.cookies;
    const session = [...a.sessions.all()][0]!;
    const resp = await tab.post({ seq: 2, msg: "SignOut" });
    // The tab's own sign-out succeeded: 205 session-ended (reload), not a 404 a browser logs as failed.
    assert.equal(resp.status, 205);
    assert.equal(resp.headers.get("X-Svc-Status"), "session-ended");
    assert.ok(resp.headers.getSetCookie().some((line) => /^svc_sid=;.*Max-Age=0/.test(line)), "the session cookie is cleared");
    assert.equal(session.life, "ended");
    assert.equal(await store.isDead(session.id), true);
    const replayed = await a.fetch(
      new Request("http://app.test/_svc/event", {
        method: "POST",
        body: JSON.stringify({ seq: 3, msg: "Inc" }),
        headers: { Cookie: copy, "X-Svc-Csrf": tab.csrf },
      }),
    );
    assert.equal(replayed.status, 404);
    const page = await openTab(a, "http://app.test/", copy);
    assert.match(page.html, /signed out/);
    assert.notEqual(page.cookies.match(/svc_sid=([^;]+)/)?.[1], copy.match(/svc_sid=([^;]+)/)?.[1]);
    assert.equal(a.sessions.size, 1);
  });
});

describe("sliding apps and the gate", () => {
  const SECRET_ENV = "SVC_TEST_GATE_SECRET";
  const secretText = "gate-secret-gate-secret-gate-secret-0123";
  function slidingApp(db: Db) {
    return gateApp(undefined).withAuthSliding({
      cookie: "session",
      secretEnv: SECRET_ENV,
      sameSite: "Lax",
      revokedCheck: (sub, iat) => Auth.isRevoked(db, sub, iat),
    }).withRevocation(db);
  }
  const token = (sub: string) => {
    const signed = Auth.signSlidingToken(Secret.fromString(secretText), { sub }, { windowSeconds: 900, maxLifetimeSeconds: 3600 });
    assert.ok(signed.ok);
    return signed.value;
  };

  test("the cookies an event's sign-out clears are Secure once over https, and not over plain http", async () => {
    await withEnv({ [SECRET_ENV]: secretText }, async () => {
      const db = memoryDb();
      const id = await newUser(db, "secure-out@example.com");
      for (const origin of ["https://app.test/", "http://app.test/"]) {
        const tab = await openTab(slidingApp(db), origin, `session=${token(id)}`);
        const resp = await tab.post({ seq: 1, msg: "SignOut" });
        assert.equal(resp.status, 205);
        const lines = resp.headers.getSetCookie();
        const sid = origin.startsWith("https:") ? "__Host-svc_sid" : "svc_sid";
        assert.ok(lines.some((line) => line.startsWith(`${sid}=; `) && line.includes("Max-Age=0")), `${origin}: ${lines.join(" | ")}`);
        assert.ok(lines.some((line) => line.startsWith("session=; ") && line.includes("Max-Age=0")), `${origin}: ${lines.join(" | ")}`);
        for (const line of lines) {
          assert.equal(line.split(";").filter((part) => part.trim() === "Secure").length, origin.startsWith("https:") ? 1 : 0, line);
        }
      }
    });
  });

  test("a session binds to the token's sub; a revoke evicts it at once, and the reload clears the token cookie", async () => {
    await withEnv({ [SECRET_ENV]: secretText }, async () => {
      const db = memoryDb();
      const id = await newUser(db, "slide@example.com");
      const a = slidingApp(db);
      const tab = await openTab(a, "http://app.test/", `session=${token(id)}`);
      assert.match(tab.html, new RegExp(`user ${id}`));
      const session = [...a.sessions.all()][0]!;
      assert.equal(session.user, id);
      await sleep(5);
      assert.ok((await Auth.revokeUser(db, id)).ok);
      await eventually(() => assert.equal(session.life, "ended"));
      const evicted = await tab.post({ seq: 1, msg: "Inc" });
      assert.equal(evicted.status, 404);
      assert.equal(evicted.headers.get("X-Svc-Status"), "session-lost");
      // The client reloads: the revoked token starts a signed-out session and is cleared.
      const page = await a.fetch(new Request("http://app.test/", { headers: { Cookie: tab.cookies } }));
      assert.match(await page.text(), /signed out/);
      assert.ok(page.headers.getSetCookie().some((line) => /^session=;.*Max-Age=0/.test(line)));
    });
  });

  test("a page load with a revoked token starts a signed-out session and clears the token cookie", async () => {
    await withEnv({ [SECRET_ENV]: secretText }, async () => {
      const db = memoryDb();
      const id = await newUser(db, "stale@example.com");
      const stale = token(id);
      await sleep(5);
      assert.ok((await Auth.revokeUser(db, id)).ok);
      const a = slidingApp(db);
      const page = await a.fetch(new Request("http://app.test/", { headers: { Cookie: `session=${stale}` } }));
      const html = await page.text();
      assert.match(html, /signed out/);
      assert.equal([...a.sessions.all()][0]!.user, undefined);
      assert.ok(page.headers.getSetCookie().some((line) => /^session=;.*Max-Age=0/.test(line)));
    });
  });

  test("a token for another user on an existing session rotates it to the new user", async () => {
    await withEnv({ [SECRET_ENV]: secretText }, async () => {
      const db = memoryDb();
      const first = await newUser(db, "s1@example.com");
      const second = await newUser(db, "s2@example.com");
      const a = slidingApp(db);
      const tab = await openTab(a, "http://app.test/", `session=${token(first)}`);
      const sessionCookie = tab.cookies.replace(/session=[^;]+; ?/, "");
      const resp = await a.fetch(
        new Request("http://app.test/_svc/event", {
          method: "POST",
          body: JSON.stringify({ seq: 1, msg: "Inc" }),
          headers: { Cookie: `${sessionCookie}; session=${token(second)}`, "X-Svc-Csrf": tab.csrf },
        }),
      );
      assert.equal(resp.status, 200);
      assert.ok(resp.headers.get("X-Svc-Rotation"));
      assert.equal([...a.sessions.all()][0]!.user, second);
    });
  });
});

describe("two replicas on one database", () => {
  for (const target of ["sqlite-file", "postgres"] as const) {
    const url = target === "postgres" ? postgresTarget() : undefined;
    const skip = target === "postgres" && url === undefined ? "SVC_TEST_POSTGRES_URL is not set: Postgres replica case skipped" : false;

    test(
      `${target}: a revoke through replica A evicts the session on replica B at its next interaction (TTL 0), and within TTL with a positive TTL`,
      { skip },
      async () => {
        await url?.ready;
        const location = target === "postgres" ? url!.url : `file:${await tempFile()}`;
        let now = Date.now();
        const clock = () => now;
        const replicaA = Db.open(location, { revocationCacheTtl: 0 });
        const replicaB0 = Db.open(location, { revocationCacheTtl: 0 });
        const replicaBTtl = Db.open(location, { revocationCacheTtl: 5, clock });
        dbs.push(replicaA, replicaB0, replicaBTtl);
        try {
          const id = await newUser(replicaA, `replica-${Date.now()}@example.com`);
          const other = await newUser(replicaA, `replica-ttl-${Date.now()}@example.com`);
          const appB0 = gateApp(replicaB0);
          const appBTtl = gateApp(replicaBTtl);
          const tab0 = await openTab(appB0);
          const tabTtl = await openTab(appBTtl);
          await signIn(tab0, id);
          await signIn(tabTtl, other);
          assert.equal((await tabTtl.post({ seq: 2, msg: "Inc" })).status, 200, "the TTL replica caches Active");
          await sleep(5);
          assert.ok((await Auth.revokeUser(replicaA, id)).ok);
          assert.equal((await tab0.post({ seq: 2, msg: "Inc" })).status, 404, "TTL 0: evicted at once, so its next interaction is refused");
          // Replicas in one process share the cache invalidation of Auth writes; a replica in another
          // process is heard of only through the table, so that revoke is written as plain SQL.
          await sql(
            replicaA,
            "INSERT INTO svc_user_access (user_id, revoked_at) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET revoked_at = excluded.revoked_at",
            other,
            Date.now() + 1,
          );
          assert.equal((await tabTtl.post({ seq: 3, msg: "Inc" })).status, 200, "positive TTL: the cached verdict still serves");
          now += 5_000;
          assert.equal((await tabTtl.post({ seq: 4, msg: "Inc" })).status, 404, "within TTL seconds: evicted");
        } finally {
          await url?.cleanup();
        }
      },
    );
  }
});

async function tempFile(): Promise<string> {
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  return join(mkdtempSync(join(tmpdir(), "svc-gate-")), "replicas.db");
}
