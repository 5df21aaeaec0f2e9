/**
 * The revocation and suspension gate (docs/auth.md#revocation-and-suspension, docs/auth.md#revocation-and-suspension
 * suspension, docs/auth.md#limits: SVC_LIVE_REVOCATION_CACHE_TTL), as one contract run against every target
 * in tests/support/db-targets.ts. Times are driven by an injected clock (milliseconds).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Auth, type UserIdInput } from "../../src/auth/mod.ts";
import type { Db } from "../../src/db/mod.ts";
import { manualClock, num, sql, targets } from "../support/db-targets.ts";

const cost = 4;
/** 2023-11-14T22:13:20Z: a whole second, so the sub-second offsets below are easy to read. */
const T = 1_700_000_000_000;
const seconds = (ms: number) => ms / 1000;
let counter = 0;
const freshId = (tag: string) => `${tag}-${Date.now().toString(36)}-${++counter}`;
const freshEmail = (tag: string) => `${freshId(tag)}@example.com`;

for (const target of targets()) {
  describe(`revocation gate on ${target.name}`, { skip: target.skip }, () => {
    const clock = manualClock(T);
    let db: Db;
    const handles: Db[] = [];
    const open = (options: Parameters<typeof target.open>[0]) => {
      const handle = target.open(options);
      handles.push(handle);
      return handle;
    };
    before(async () => {
      await target.setup();
      db = open({ clock: clock.now, revocationCacheTtl: 0 });
    });
    after(async () => {
      for (const handle of handles) await handle.close();
      await target.teardown();
      Auth.closePasswordWorkers();
    });

    const state = async (id: UserIdInput, issuedAt: number, on: Db = db) => {
      const result = await Auth.userAccessState(on, id, issuedAt);
      assert.ok(result.ok, !result.ok ? result.error.message : "");
      return result.value;
    };

    test("a user nobody revoked or disabled is Active", async () => {
      assert.equal(await state(freshId("fresh"), seconds(T)), "Active");
      assert.deepEqual(await Auth.isRevoked(db, freshId("fresh"), seconds(T)), { ok: true, value: false });
      assert.deepEqual(await Auth.isDisabled(db, freshId("fresh")), { ok: true, value: false });
    });

    test("Active --revokeUser--> Revoked for tokens issued before now; a later login is Active", async () => {
      const id = freshId("revoke");
      clock.set(T + 10_000);
      assert.deepEqual(await Auth.revokeUser(db, id), { ok: true, value: undefined });
      assert.equal(await state(id, seconds(T)), "Revoked");
      assert.equal(await state(id, seconds(T + 9_999)), "Revoked");
      assert.equal(await state(id, seconds(T + 11_000)), "Active");
      const [row] = await sql(db, "SELECT revoked_at, disabled_at FROM svc_user_access WHERE user_id = ?", id);
      assert.equal(num(row?.revoked_at), T + 10_000);
      assert.equal(row?.disabled_at, null);
    });

    test("revoke is not a ban: a built-in user revoked can log in again at once", async () => {
      const email = freshEmail("not-a-ban");
      const id = await Auth.register(db, email, "pw", { cost });
      assert.ok(id.ok);
      clock.set(T + 20_000);
      assert.ok((await Auth.revokeUser(db, String(id.value))).ok);
      assert.deepEqual(await Auth.login(db, email, "pw"), { ok: true, value: id.value });
    });

    test("a login in the same second as the revoke is Active while a token from before it in that second stays Revoked", async () => {
      const email = freshEmail("same-second");
      const id = await Auth.register(db, email, "pw", { cost });
      assert.ok(id.ok);
      const sub = String(id.value);
      const second = T + 30_000;
      const issuedEarlier = seconds(second + 100); // a session from 100 ms into the second
      clock.set(second + 400);
      assert.ok((await Auth.revokeUser(db, sub)).ok);
      clock.set(second + 700);
      assert.deepEqual(await Auth.login(db, email, "pw"), { ok: true, value: id.value });
      const issuedAfter = clock.now() / 1000; // the new session's issue time, with its milliseconds
      assert.equal(await state(sub, issuedEarlier), "Revoked");
      assert.equal(await state(sub, issuedAfter), "Active");
      // A whole-second iat reads as the start of its second: fail closed inside the revoke's second.
      assert.equal(await state(sub, Math.floor(seconds(second + 100))), "Revoked");
      assert.equal(await state(sub, seconds(second + 1000)), "Active");
      assert.equal(await state(sub, seconds(second - 1000)), "Revoked");
    });

    test("the last revoke wins, and a replica with a slower clock never moves it back", async () => {
      const id = freshId("twice");
      clock.set(T + 40_000);
      assert.ok((await Auth.revokeUser(db, id)).ok);
      clock.set(T + 50_000);
      assert.ok((await Auth.revokeUser(db, id)).ok);
      assert.equal(await state(id, seconds(T + 45_000)), "Revoked");
      clock.set(T + 41_000);
      assert.ok((await Auth.revokeUser(db, id)).ok);
      assert.equal(await state(id, seconds(T + 45_000)), "Revoked");
      clock.set(T + 60_000);
    });

    test("Active or Revoked --disableUser--> Disabled, which takes precedence over Revoked", async () => {
      const id = freshId("disable");
      clock.set(T + 60_000);
      assert.ok((await Auth.disableUser(db, id)).ok);
      assert.equal(await state(id, seconds(T + 70_000)), "Disabled");
      const revoked = freshId("revoked-then-disabled");
      assert.ok((await Auth.revokeUser(db, revoked)).ok);
      assert.ok((await Auth.disableUser(db, revoked)).ok);
      assert.equal(await state(revoked, seconds(T)), "Disabled");
      assert.deepEqual(await Auth.isDisabled(db, revoked), { ok: true, value: true });
      assert.deepEqual(await Auth.isRevoked(db, revoked, seconds(T + 90_000)), { ok: true, value: true });
    });

    test("Disabled --enableUser--> not Disabled; an earlier revoke still applies to older tokens", async () => {
      const id = freshId("enable");
      clock.set(T + 80_000);
      assert.ok((await Auth.revokeUser(db, id)).ok);
      assert.ok((await Auth.disableUser(db, id)).ok);
      assert.ok((await Auth.enableUser(db, id)).ok);
      assert.equal(await state(id, seconds(T)), "Revoked");
      assert.equal(await state(id, seconds(T + 81_000)), "Active");
      assert.deepEqual(await Auth.isDisabled(db, id), { ok: true, value: false });
      assert.ok((await Auth.enableUser(db, freshId("never-disabled"))).ok);
    });

    test("disableUser on a built-in user's id blocks login, enableUser lifts it, and both tables agree at each step", async () => {
      const email = freshEmail("builtin");
      const id = await Auth.register(db, email, "pw", { cost });
      assert.ok(id.ok);
      const sub = String(id.value);
      const columns = async () => {
        const [user] = await sql(db, "SELECT disabled_at FROM users WHERE id = ?", id.value);
        const [access] = await sql(db, "SELECT disabled_at FROM svc_user_access WHERE user_id = ?", sub);
        return { users: num(user?.disabled_at), access: num(access?.disabled_at) };
      };
      clock.set(T + 100_000);
      assert.ok((await Auth.disableUser(db, sub)).ok);
      assert.deepEqual(await columns(), { users: T + 100_000, access: T + 100_000 });
      const refused = await Auth.login(db, email, "pw");
      assert.equal(!refused.ok && refused.error.code, "user_disabled");
      clock.set(T + 101_000);
      assert.ok((await Auth.disableUser(db, sub)).ok);
      assert.deepEqual(await columns(), { users: T + 100_000, access: T + 100_000 });
      assert.ok((await Auth.enableUser(db, id.value)).ok);
      assert.deepEqual(await columns(), { users: null, access: null });
      assert.deepEqual(await Auth.login(db, email, "pw"), { ok: true, value: id.value });
    });

    test("an id disabled before its user registered is disabled in the users row too", async () => {
      const [row] = await sql(db, "SELECT MAX(id) AS id FROM users");
      const next = (num(row?.id) ?? 0) + 1;
      clock.set(T + 110_000);
      assert.ok((await Auth.disableUser(db, String(next))).ok);
      const email = freshEmail("pre-disabled");
      const id = await Auth.register(db, email, "pw", { cost });
      assert.deepEqual(id, { ok: true, value: next });
      const [user] = await sql(db, "SELECT disabled_at FROM users WHERE id = ?", next);
      assert.equal(num(user?.disabled_at), T + 110_000);
      const refused = await Auth.login(db, email, "pw");
      assert.equal(!refused.ok && refused.error.code, "user_disabled");
    });

    test("user ids are canonical: an integer is its decimal text, a string is kept verbatim", async () => {
      const n = 900_000 + ++counter;
      clock.set(T + 120_000);
      assert.ok((await Auth.revokeUser(db, n)).ok);
      const [row] = await sql(db, "SELECT user_id FROM svc_user_access WHERE user_id = ?", String(n));
      assert.equal(row?.user_id, String(n));
      assert.equal(await state(String(n), seconds(T)), "Revoked");
      assert.equal(await state(n, seconds(T)), "Revoked");
      assert.equal(await state(BigInt(n), seconds(T)), "Revoked");
      assert.equal(await state(`0${n}`, seconds(T)), "Active");
      assert.equal(await state(` ${n}`, seconds(T)), "Active");
      assert.equal(await state(`${n}.0`, seconds(T)), "Active");
      assert.deepEqual(await Auth.isRevoked(db, n, seconds(T)), { ok: true, value: true });
      assert.deepEqual(await Auth.isRevoked(db, String(n), seconds(T)), { ok: true, value: true });
      const big = "9007199254740993"; // above 2^53: only a string (or bigint) carries it exactly
      assert.ok((await Auth.revokeUser(db, BigInt(big))).ok);
      assert.equal(await state(big, seconds(T)), "Revoked");
      assert.equal(await state("9007199254740992", seconds(T)), "Active");
    });

    test("a user id or issue time that is not one is Err invalid_argument, never a verdict", async () => {
      for (const bad of ["", 1.5, 2 ** 53, Number.NaN, null, undefined, {}]) {
        const result = await Auth.userAccessState(db, bad as never, seconds(T));
        assert.equal(!result.ok && result.error.code, "invalid_argument", String(bad));
        const revoke = await Auth.revokeUser(db, bad as never);
        assert.equal(!revoke.ok && revoke.error.code, "invalid_argument");
      }
      for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY, "1700000000", undefined]) {
        const result = await Auth.isRevoked(db, "someone", bad as never);
        assert.equal(!result.ok && result.error.code, "invalid_argument", String(bad));
      }
    });

    test("with TTL 0 every evaluation reads the table afresh", async () => {
      const id = freshId("ttl0");
      clock.set(T + 130_000);
      assert.equal(await state(id, seconds(T)), "Active");
      await sql(db, "INSERT INTO svc_user_access (user_id, revoked_at) VALUES (?, ?)", id, T + 130_000);
      assert.equal(await state(id, seconds(T)), "Revoked");
    });

    test("with a positive TTL a verdict is cached that long, and this process's writes clear it at once", async () => {
      const cached = open({ clock: clock.now, revocationCacheTtl: 5 });
      const id = freshId("ttl5");
      clock.set(T + 140_000);
      assert.equal(await state(id, seconds(T), cached), "Active");
      // Another replica revokes: this process does not hear of it until the entry ages out.
      await sql(cached, "INSERT INTO svc_user_access (user_id, revoked_at) VALUES (?, ?)", id, T + 140_000);
      clock.set(T + 144_999);
      assert.equal(await state(id, seconds(T), cached), "Active");
      clock.set(T + 145_000);
      assert.equal(await state(id, seconds(T), cached), "Revoked");
      // A disable, enable or revoke through this process clears the entry at once.
      assert.ok((await Auth.disableUser(cached, id)).ok);
      assert.equal(await state(id, seconds(T), cached), "Disabled");
      assert.ok((await Auth.enableUser(cached, id)).ok);
      assert.equal(await state(id, seconds(T + 150_000), cached), "Active");
      clock.set(T + 146_000);
      assert.ok((await Auth.revokeUser(cached, id)).ok);
      assert.equal(await state(id, seconds(T + 145_500), cached), "Revoked");
    });

    test("with a positive TTL a write through another handle of this process also clears the entry", {
      skip: !target.shared && "needs two handles on one database",
    }, async () => {
      const cached = open({ clock: clock.now, revocationCacheTtl: 60 });
      const id = freshId("ttl-other-handle");
      clock.set(T + 150_000);
      assert.equal(await state(id, seconds(T), cached), "Active");
      assert.ok((await Auth.revokeUser(db, id)).ok);
      assert.equal(await state(id, seconds(T), cached), "Revoked");
    });

    test("a database that fails gives Err db_error from every call, never Active and never a throw", async () => {
      const doomed = open({ clock: clock.now });
      const id = freshId("down");
      assert.equal(await state(id, seconds(T), doomed), "Active");
      await doomed.close();
      const calls = [
        Auth.userAccessState(doomed, id, seconds(T)),
        Auth.isRevoked(doomed, id, seconds(T)),
        Auth.isDisabled(doomed, id),
        Auth.revokeUser(doomed, id),
        Auth.disableUser(doomed, id),
        Auth.enableUser(doomed, id),
        Auth.register(doomed, freshEmail("down"), "pw", { cost }),
        Auth.login(doomed, freshEmail("down"), "pw"),
        Auth.setRole(doomed, 1, "admin"),
      ];
      for (const result of await Promise.all(calls)) assert.equal(!result.ok && result.error.code, "db_error");
    });
  });
}
