/**
 * Layer 2, the built-in users table (docs/auth.md#users-table),
 * as one contract run against every target in tests/support/db-targets.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Auth } from "../../src/auth/mod.ts";
import type { Db } from "../../src/db/mod.ts";
import { setLogSink } from "../../src/log.ts";
import { num, sql, targets } from "../support/db-targets.ts";

/** Cheap bcrypt for fixtures (docs/auth.md#limits: 10 or less only for tests). */
const cost = 4;
let counter = 0;
const freshEmail = (tag: string) => `${tag}.${Date.now().toString(36)}.${++counter}@example.com`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

for (const target of targets()) {
  describe(`users table on ${target.name}`, { skip: target.skip }, () => {
    let db: Db;
    before(async () => {
      await target.setup();
      db = target.open();
    });
    after(async () => {
      await db.close();
      await target.teardown();
      Auth.closePasswordWorkers();
    });

    test("register returns a new integer id and login returns the same id", async () => {
      const email = freshEmail("reg");
      const id = await Auth.register(db, email, "correct horse", { cost });
      assert.ok(id.ok);
      assert.ok(Number.isSafeInteger(id.value) && id.value > 0);
      const logged = await Auth.login(db, email, "correct horse");
      assert.deepEqual(logged, { ok: true, value: id.value });
    });

    test("the users table has the spec's columns, a default role and a stored bcrypt hash", async () => {
      const email = freshEmail("cols");
      const id = await Auth.register(db, email, "pw", { cost });
      assert.ok(id.ok);
      const [row] = await sql(db, "SELECT id, email, password_hash, role, created_at, disabled_at FROM users WHERE id = ?", id.value);
      assert.equal(num(row?.id), id.value);
      assert.equal(row?.email, email);
      assert.match(String(row?.password_hash), /^\$2[aby]\$04\$/);
      assert.equal(row?.role, "user");
      assert.ok(Math.abs((num(row?.created_at) ?? 0) - Date.now()) < 60_000);
      assert.equal(row?.disabled_at, null);
    });

    test("register uses the default cost 12 when no cost option is given", async () => {
      const email = freshEmail("default-cost");
      const id = await Auth.register(db, email, "pw");
      assert.ok(id.ok);
      const [row] = await sql(db, "SELECT password_hash FROM users WHERE id = ?", id.value);
      assert.match(String(row?.password_hash), /^\$2[aby]\$12\$/);
    });

    test("emails are trimmed and compared case-insensitively at register and login", async () => {
      const base = freshEmail("Case");
      const id = await Auth.register(db, `  ${base.toUpperCase()}  `, "pw", { cost });
      assert.ok(id.ok);
      assert.deepEqual(await Auth.login(db, base.toLowerCase(), "pw"), { ok: true, value: id.value });
      assert.deepEqual(await Auth.login(db, ` ${base} `, "pw"), { ok: true, value: id.value });
      const dup = await Auth.register(db, base.toLowerCase(), "other", { cost });
      assert.equal(dup.ok, false);
      assert.equal(!dup.ok && dup.error.code, "email_taken");
    });

    test("an empty or malformed email is Err bad_email and an empty password is Err empty_password", async () => {
      for (const bad of ["", "   ", "no-at-sign", "a@", "@b.c", "a b@c.d", "a@b..c", `${"x".repeat(250)}@b.cd`]) {
        const result = await Auth.register(db, bad, "pw", { cost });
        assert.equal(!result.ok && result.error.code, "bad_email", bad);
      }
      const empty = await Auth.register(db, freshEmail("empty"), "", { cost });
      assert.equal(!empty.ok && empty.error.code, "empty_password");
      const emptyLogin = await Auth.login(db, freshEmail("empty"), "");
      assert.equal(!emptyLogin.ok && emptyLogin.error.code, "empty_password");
    });

    test("a password the hasher refuses, or a bad cost, is a clear Err and creates no user", async () => {
      const email = freshEmail("long");
      const long = await Auth.register(db, email, "p".repeat(73), { cost });
      assert.equal(!long.ok && long.error.code, "password_too_long");
      const badCost = await Auth.register(db, email, "pw", { cost: 3 });
      assert.equal(!badCost.ok && badCost.error.code, "bad_cost");
      assert.equal((await sql(db, "SELECT id FROM users WHERE email = ?", email)).length, 0);
    });

    test("a non-string email or password from untyped code is Err expected_string and an audit line", async () => {
      const lines: string[] = [];
      const previous = setLogSink((_level, line) => lines.push(line));
      const result = await Auth.register(db, 42 as unknown as string, "pw", { cost });
      setLogSink(previous);
      assert.deepEqual(lines, ["auth.boundary kernel=register jsType=number reason=non-string-arg"]);
      assert.equal(!result.ok && result.error.code, "expected_string");
      assert.equal(!result.ok && result.error.message, "register: expected String");
      const quiet = setLogSink(() => {});
      const login = await Auth.login(db, "a@b.c", null as unknown as string);
      setLogSink(quiet);
      assert.equal(!login.ok && login.error.message, "login: expected String");
    });

    test("an unknown email and a wrong password are both Err bad_credentials", async () => {
      const email = freshEmail("creds");
      assert.ok((await Auth.register(db, email, "right", { cost })).ok);
      const wrong = await Auth.login(db, email, "wrong");
      const unknown = await Auth.login(db, freshEmail("nobody"), "right");
      assert.equal(!wrong.ok && wrong.error.code, "bad_credentials");
      assert.equal(!unknown.ok && unknown.error.code, "bad_credentials");
      assert.equal(!wrong.ok && !unknown.ok && wrong.error.message, !unknown.ok && unknown.error.message);
    });

    test("an unknown email takes as long as a wrong password (medians within 20%)", async () => {
      const email = freshEmail("timing");
      assert.ok((await Auth.register(db, email, "right", { cost: 10 })).ok);
      const timed = async (login: () => Promise<unknown>) => {
        const t = performance.now();
        await login();
        return performance.now() - t;
      };
      const wrongPassword = () => Auth.login(db, email, "wrong");
      const unknownEmail = () => Auth.login(db, freshEmail("nobody"), "wrong");
      await timed(wrongPassword);
      await timed(unknownEmail);
      // Up to three rounds, because the machine may be shared: a skipped bcrypt (~1 ms against
      // ~60 ms) fails every round, while a burst of load from elsewhere fails one at most.
      const rounds: string[] = [];
      for (let round = 0; round < 3; round++) {
        const wrong: number[] = [];
        const unknown: number[] = [];
        // Interleaved in ABBA order, so drift and order effects fall on both series alike.
        for (let i = 0; i < 10; i++) {
          if (i % 2 === 0) {
            wrong.push(await timed(wrongPassword));
            unknown.push(await timed(unknownEmail));
          } else {
            unknown.push(await timed(unknownEmail));
            wrong.push(await timed(wrongPassword));
          }
        }
        const [a, b] = [median(wrong), median(unknown)];
        rounds.push(`wrong password ${a.toFixed(1)} ms, unknown email ${b.toFixed(1)} ms`);
        if (Math.abs(a - b) / Math.max(a, b) < 0.2) return;
      }
      assert.fail(rounds.join("; "));
    });

    test("a disabled account is refused with user_disabled before the password is verified", async () => {
      const email = freshEmail("disabled");
      const id = await Auth.register(db, email, "pw", { cost });
      assert.ok(id.ok);
      assert.ok((await Auth.disableUser(db, String(id.value))).ok);
      const right = await Auth.login(db, email, "pw");
      assert.equal(!right.ok && right.error.code, "user_disabled");
      // With an unverifiable hash, a verify would fail as bad_hash: user_disabled proves it never ran.
      await sql(db, "UPDATE users SET password_hash = ? WHERE id = ?", "not a hash", id.value);
      const wrong = await Auth.login(db, email, "wrong");
      assert.equal(!wrong.ok && wrong.error.code, "user_disabled");
    });

    test("setRole changes the stored role, and on a missing user is Err user_not_found", async () => {
      const id = await Auth.register(db, freshEmail("role"), "pw", { cost });
      assert.ok(id.ok);
      assert.deepEqual(await Auth.setRole(db, id.value, "admin"), { ok: true, value: undefined });
      const [row] = await sql(db, "SELECT role FROM users WHERE id = ?", id.value);
      assert.equal(row?.role, "admin");
      const missing = await Auth.setRole(db, 987_654_321, "admin");
      assert.equal(!missing.ok && missing.error.code, "user_not_found");
      const badId = await Auth.setRole(db, 1.5, "admin");
      assert.equal(!badId.ok && badId.error.code, "invalid_argument");
      const previous = setLogSink(() => {});
      const badRole = await Auth.setRole(db, id.value, 7 as unknown as string);
      setLogSink(previous);
      assert.equal(!badRole.ok && badRole.error.message, "setRole: expected String");
    });

    test("100 concurrent registrations of one email make exactly one user and 99 email_taken", async () => {
      const email = freshEmail("race");
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => Auth.register(db, i % 2 ? email.toUpperCase() : email, `pw${i}`, { cost })),
      );
      const codes = results.map((r) => (r.ok ? "ok" : r.error.code));
      assert.equal(codes.filter((c) => c === "ok").length, 1);
      assert.equal(codes.filter((c) => c === "email_taken").length, 99);
      assert.equal((await sql(db, "SELECT id FROM users WHERE email = ?", email)).length, 1);
    });

    test("a hostile email is a parameter, never SQL", async () => {
      const email = `o'brien+${++counter}'--@example.com`;
      const id = await Auth.register(db, email, "pw", { cost });
      assert.ok(id.ok, !id.ok ? id.error.message : "");
      const login = await Auth.login(db, email, "pw");
      assert.deepEqual(login, { ok: true, value: id.value });
      const lookup = await Auth.login(db, "x'or'1'='1@example.com", "pw");
      assert.equal(!lookup.ok && lookup.error.code, "bad_credentials");
    });
  });
}
