/**
 * The session access policy on its own (src/live/server/access/session-access.ts): which user a sliding
 * token names, when binding moves a session to a new id, when a page load starts a new session,
 * and what the revocation gate answers for a new and an existing session (real SQLite).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Auth, Db } from "../../src/mod.ts";
import { RevocationGate } from "../../src/live/server/access/revocation-gate.ts";
import { SessionRegistry } from "../../src/live/server/registry/registry.ts";
import { SessionAccess } from "../../src/live/server/access/session-access.ts";
import { refusalFor } from "../../src/live/server/http/refusals.ts";
import { LiveSession } from "../../src/live/server/session/session.ts";
import { initialState } from "../../src/live/server/session/state.ts";
import { MemorySessionStore } from "../../src/live/server/registry/snapshot-store.ts";
import { type FormModel, formUpdate, formView, initialForm } from "./apps.ts";

const NOW = 1_700_000_000_000;
const registries: SessionRegistry<FormModel>[] = [];
const dbs: Db[] = [];
after(async () => {
  registries.forEach((r) => r.close());
  for (const db of dbs) await db.close();
  Auth.closePasswordWorkers();
});

function setup(sliding = false) {
  const sessions = new SessionRegistry<FormModel>({
    store: new MemorySessionStore(),
    now: () => NOW,
    idleTimeoutMs: 60_000,
    treeIdleMs: 10_000,
    sweepEveryMs: 60_000,
    maxTreeBytes: 1 << 20,
  });
  registries.push(sessions);
  const access = new SessionAccess({ sessions, now: () => NOW, cookieName: "svc_sid", secure: () => false });
  if (sliding) access.tokenCookie = { cookie: "svc_token", sameSite: "Lax" };
  const open = (id = "sid-1") => {
    const session = new LiveSession<FormModel>({ init: () => initialForm, update: formUpdate, view: formView }, sessions, {
      id,
      now: NOW,
      extraMessages: new Set(),
      state: initialState(initialForm, NOW),
    });
    sessions.add(session);
    return session;
  };
  return { sessions, access, open };
}

test("a sliding token names its sub (a string, or a safe integer as its text) issued at its iat; anything else names nobody", () => {
  const { access } = setup();
  assert.deepEqual(access.tokenBinding({ sub: "u1", iat: 1_600_000_000 }), { userId: "u1", at: 1_600_000_000_000 });
  assert.deepEqual(access.tokenBinding({ sub: 42 }), { userId: "42", at: NOW }, "no iat: bound now");
  for (const sub of ["", 1.5, 2 ** 60, null, undefined, ["u"]]) {
    assert.equal(access.tokenBinding({ sub } as never), undefined, `sub ${String(sub)}`);
  }
  assert.equal(access.tokenBinding(undefined), undefined);
});

test("binding an existing session to a new user moves it to a new id; the same user again, or a brand-new session, keeps its id", async () => {
  const { sessions, access, open } = setup();
  const session = open();
  access.bind(session, { userId: "u1", at: 5 }, { rotate: true });
  assert.notEqual(session.id, "sid-1");
  assert.deepEqual([session.user, session.boundAt], ["u1", 5]);
  assert.equal((await sessions.resolve("sid-1")).kind, "rotating");
  assert.ok(sessions.takeRotation(session), "the ticket waits for the request that caused it");
  const id = session.id;
  access.bind(session, { userId: "u1", at: 9 }, { rotate: true });
  assert.deepEqual([session.id, session.boundAt], [id, 5], "the same user: nothing changes");
  const fresh = open("sid-2");
  access.bind(fresh, { userId: "u2", at: 7 }, { rotate: false });
  assert.deepEqual([fresh.id, fresh.user], ["sid-2", "u2"]);
});

test("only a sliding app's page load with another user's token (or none) starts a new session", () => {
  const plain = setup();
  const a = plain.open();
  assert.equal(plain.access.userChanged(a, { sub: "someone" }), false, "without a sliding token the app binds");
  const sliding = setup(true);
  const b = sliding.open();
  assert.equal(sliding.access.userChanged(b, undefined), false, "signed out, and still signed out");
  assert.equal(sliding.access.userChanged(b, { sub: "u1" }), true, "a sign-in");
  sliding.access.bind(b, { userId: "u1", at: 0 }, { rotate: false });
  assert.equal(sliding.access.userChanged(b, { sub: "u1" }), false);
  assert.equal(sliding.access.userChanged(b, undefined), true, "a sign-out or a lapse");
});

test("without a gate every request is let through, and a token binds the session it reaches", async () => {
  const { access, open } = setup(true);
  assert.equal(access.checksAnything, true);
  assert.equal(setup().access.checksAnything, false);
  const session = open();
  assert.equal(await access.admit(session, { sub: "u7", iat: 1 }), undefined);
  assert.deepEqual([session.user, session.boundAt], ["u7", 1000]);
  assert.deepEqual(await access.forNewSession({ sub: "u8" }), { binding: { userId: "u8", at: NOW }, auth: { sub: "u8" }, signOut: false });
});

test("with the gate, a revoked user's new session starts signed out, and their existing session ends with its cookies cleared", async () => {
  const db = Db.open(":memory:");
  dbs.push(db);
  const registered = await Auth.register(db, "access@example.com", "pw-pw-pw", { cost: 4 });
  assert.ok(registered.ok);
  const userId = String(registered.value);
  const { sessions, access, open } = setup(true);
  access.gate = new RevocationGate(db);
  const session = open();
  access.bind(session, { userId, at: Date.now() - 60_000 }, { rotate: false });
  assert.equal(await access.admit(session, undefined), undefined, "an active user goes on");
  assert.ok((await Auth.revokeUser(db, userId)).ok);

  const token = { sub: userId, iat: Math.floor((Date.now() - 60_000) / 1000) };
  assert.deepEqual(await access.forNewSession(token), { binding: undefined, auth: undefined, signOut: true });
  const evicted = await access.admit(session, undefined);
  assert.equal(evicted?.kind, "evicted");
  const refused = refusalFor({ access }, new Request("http://app.test/"), evicted!);
  assert.equal(refused.status, 404);
  const cleared = refused!.headers.getSetCookie().map((c) => c.split(";")[0]);
  assert.deepEqual(cleared.sort(), ["svc_sid=", "svc_token="]);
  assert.equal(session.life, "ended");
  assert.equal((await sessions.resolve(session.id)).kind, "lost");
});
