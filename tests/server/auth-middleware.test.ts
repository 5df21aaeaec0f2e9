/**
 * Sign-in as Hono middleware: tokenSession and slidingSession put the user on c.var.auth, the
 * guards answer 401, 403 or a redirect through HTTPException, and the cookie helpers take a Context.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { Auth, Secret } from "../../src/auth/mod.ts";
import { type AuthEnv, Server, type SessionMiddleware } from "../../src/server/mod.ts";
import { withEnv } from "../support/env.ts";

const SECRET_TEXT = "middleware-secret-middleware-secret-0123";
const secret = Secret.fromString(SECRET_TEXT);
const T0 = 1_800_000_000;
const DEV = { ENV: undefined };

/** An app with a login route that signs `userId` in with `role`, a /me route and an admin route. */
function appWith(session: SessionMiddleware, options: { redirectTo?: string } = {}) {
  const app = new Hono<AuthEnv>();
  app.use(session);
  app.post("/login", async (c) => {
    const id = await Server.formValue("id", c);
    const role = await Server.formValue("role", c);
    session.signIn(c, Number(id), role === "" ? {} : { role });
    return c.text("signed in");
  });
  app.post("/logout", (c) => {
    session.signOut(c);
    return c.text("bye");
  });
  app.get(
    "/me",
    Server.requireUser(options),
    (c) => c.json({ userId: c.var.auth.userId, role: c.var.auth.role ?? null, sub: c.var.auth.claims.sub ?? null }),
  );
  app.get("/admin", Server.requireRole("admin", options), (c) => c.text(`hello admin ${c.var.auth.userId}`));
  app.get("/open", (c) => c.json({ auth: c.var.auth ?? null }));
  return app;
}

const cookieOf = (resp: Response, name = "sid") => {
  const line = resp.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  return line === undefined ? undefined : { line, value: line.slice(name.length + 1, line.indexOf(";")) };
};
const login = async (app: Hono<AuthEnv>, id: number, role = "") => {
  const resp = await app.request("/login", { method: "POST", body: new URLSearchParams({ id: String(id), role }) });
  assert.equal(resp.status, 200);
  return cookieOf(resp)!.value;
};
const get = (app: Hono<AuthEnv>, path: string, token?: string, headers: Record<string, string> = {}) =>
  app.request(path, { headers: { ...headers, ...(token === undefined ? {} : { Cookie: `sid=${token}` }) } });

describe("tokenSession", () => {
  const clock = { now: T0 };
  const app = appWith(Server.tokenSession({ cookie: "sid", secret, lifetimeSeconds: 3600, now: () => clock.now }));

  test("signIn writes an HttpOnly cookie whose token names the user; requireUser lets it through with c.var.auth typed", async () => {
    await withEnv(DEV, async () => {
      const resp = await app.request("/login", { method: "POST", body: new URLSearchParams({ id: "7" }) });
      const cookie = cookieOf(resp)!;
      assert.match(cookie.line, /^sid=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=3600$/);
      const claims = Auth.verifyToken(secret, cookie.value, { now: clock.now });
      assert.ok(claims.ok);
      assert.equal(claims.value.sub, 7);
      const me = await get(app, "/me", cookie.value);
      assert.equal(me.status, 200);
      assert.deepEqual(await me.json(), { userId: "7", role: null, sub: 7 });
    });
  });

  test("without a cookie, or with a tampered, expired or foreign token, c.var.auth is undefined and requireUser answers 401", async () => {
    const token = await login(app, 8);
    const expired = Auth.signToken(secret, { sub: 8 }, 60, { now: T0 - 120 });
    const foreign = Auth.signToken(Secret.fromString("y".repeat(40)), { sub: 8 }, 60, { now: T0 });
    const noSub = Auth.signToken(secret, { name: "x" }, 60, { now: T0 });
    assert.ok(expired.ok && foreign.ok && noSub.ok);
    for (const bad of [undefined, "", "junk", `${token}x`, expired.value, foreign.value, noSub.value]) {
      const resp = await get(app, "/me", bad);
      assert.equal(resp.status, 401, String(bad));
      assert.equal(await resp.text(), "not signed in");
      assert.deepEqual(await (await get(app, "/open", bad)).json(), { auth: null });
    }
  });

  test("requireRole answers 403 to a user without the role and lets the role through", async () => {
    assert.equal((await get(app, "/admin", await login(app, 9))).status, 403);
    assert.equal((await get(app, "/admin", await login(app, 9, "editor"))).status, 403);
    const admin = await get(app, "/admin", await login(app, 10, "admin"));
    assert.equal(admin.status, 200);
    assert.equal(await admin.text(), "hello admin 10");
    assert.equal((await get(app, "/admin")).status, 401);
  });

  test("signOut expires the cookie", async () => {
    const resp = await app.request("/logout", { method: "POST" });
    assert.match(cookieOf(resp)!.line, /^sid=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/);
  });
});

test("roleOf looks the role up on every request, so a changed role applies at once", async () => {
  const roles = new Map<string, string>([["5", "admin"]]);
  const app = appWith(Server.tokenSession({ cookie: "sid", secret, lifetimeSeconds: 60, roleOf: ({ userId }) => roles.get(userId) }));
  const token = await login(app, 5, "user");
  assert.equal((await get(app, "/admin", token)).status, 200, "the looked-up role wins over the claim");
  roles.set("5", "user");
  assert.equal((await get(app, "/admin", token)).status, 403);
});

test("with redirectTo, a page request without a user is redirected with 303; API and POST requests still get 401", async () => {
  const app = appWith(Server.tokenSession({ cookie: "sid", secret, lifetimeSeconds: 60 }), { redirectTo: "/login" });
  const page = await get(app, "/me", undefined, { Accept: "text/html,application/xhtml+xml" });
  assert.equal(page.status, 303);
  assert.equal(page.headers.get("Location"), "/login");
  assert.equal((await get(app, "/admin", undefined, { Accept: "text/html" })).status, 303);
  assert.equal((await get(app, "/me", undefined, { Accept: "application/json" })).status, 401);
  assert.equal(
    (await get(app, "/admin", await login(app, 3), { Accept: "text/html" })).status,
    403,
    "a signed-in user without the role is not sent to sign in",
  );
  assert.throws(() => Server.requireUser({ redirectTo: "https://evil.example/" }), /path of this site/);
  assert.throws(() => Server.requireUser({ redirectTo: "//evil.example/" }), /path of this site/);
});

test("the guards' refusals are HTTPExceptions that app.onError sees; a guard without a session middleware is a clear 500", async () => {
  const seen: unknown[] = [];
  const app = appWith(Server.tokenSession({ cookie: "sid", secret, lifetimeSeconds: 60 }));
  app.onError((error, c) => {
    seen.push(error);
    return error instanceof HTTPException ? c.json({ error: error.message }, error.status) : c.json({ error: "internal" }, 500);
  });
  const refused = await get(app, "/me");
  assert.equal(refused.status, 401);
  assert.deepEqual(await refused.json(), { error: "not signed in" });
  assert.deepEqual(await (await get(app, "/admin", await login(app, 4))).json(), { error: "forbidden" });
  assert.ok(seen.every((e) => e instanceof HTTPException));

  const bare = new Hono<AuthEnv>();
  bare.onError((error, c) => c.text(error.message, 500));
  bare.get("/me", Server.requireUser(), (c) => c.text(c.var.auth.userId));
  const miswired = await bare.request("/me");
  assert.equal(miswired.status, 500);
  assert.match(await miswired.text(), /no session middleware/);
});

describe("slidingSession", () => {
  const env = { SVC_TEST_MW_SECRET: SECRET_TEXT, ENV: undefined };
  const clock = { now: T0 };
  const session = Server.slidingSession({
    cookie: "sid",
    secretEnv: "SVC_TEST_MW_SECRET",
    windowSeconds: 900,
    maxLifetimeSeconds: 3600,
    now: () => clock.now,
  });
  const app = appWith(session);

  test("signIn writes a sliding token; each interaction slides it, never past the cap; the user is on c.var.auth", async () => {
    await withEnv(env, async () => {
      clock.now = T0;
      const token = await login(app, 12, "admin");
      const first = Auth.verifySlidingToken(secret, token, { now: T0 });
      assert.ok(first.ok);
      assert.equal(first.value.exp, T0 + 900);
      clock.now = T0 + 600;
      const resp = await get(app, "/admin", token);
      assert.equal(resp.status, 200);
      const slid = cookieOf(resp)!;
      assert.match(slid.line, /; Max-Age=900$/);
      const second = Auth.verifySlidingToken(secret, slid.value, { now: clock.now });
      assert.ok(second.ok);
      assert.equal(second.value.exp, T0 + 1500);
      assert.equal(second.value.aexp, T0 + 3600);
      clock.now = T0 + 1000;
      assert.equal((await get(app, "/me", token)).status, 401, "the first token lapsed");
      assert.deepEqual(await (await get(app, "/me", slid.value)).json(), { userId: "12", role: "admin", sub: 12 });
    });
  });

  test("signOut's expired cookie is not overwritten by a re-issue", async () => {
    await withEnv(env, async () => {
      clock.now = T0;
      const token = await login(app, 13);
      const resp = await app.request("/logout", { method: "POST", headers: { Cookie: `sid=${token}` } });
      const lines = resp.headers.getSetCookie().filter((l) => l.startsWith("sid="));
      assert.deepEqual(lines, ["sid=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"]);
    });
  });

  test("a missing secretEnv variable means nobody is signed in, not a crash", async () => {
    await withEnv({ SVC_TEST_MW_SECRET: undefined, ENV: undefined }, async () => {
      const forged = Auth.signSlidingToken(secret, { sub: 1 }, { windowSeconds: 900, maxLifetimeSeconds: 3600 }, { now: T0 });
      assert.ok(forged.ok);
      clock.now = T0;
      assert.equal((await get(app, "/me", forged.value)).status, 401);
    });
  });
});

test("options are checked when the middleware is made", () => {
  assert.throws(() => Server.tokenSession({ cookie: "", secret, lifetimeSeconds: 60 }), /cookie name/);
  assert.throws(() => Server.tokenSession({ cookie: "sid", secret, lifetimeSeconds: 1.5 }), /lifetimeSeconds/);
  assert.throws(() => Server.tokenSession({ cookie: "sid" } as never), /secret/);
  assert.throws(() => Server.requireRole([]), /role names/);
});

test("getCookie, formValue and setCookie take a Hono Context; setCookie follows the Secure rule", async () => {
  const app = new Hono();
  app.post("/echo", async (c) => {
    Server.setCookie(c, "pref", "a b;c");
    return c.json({ cookie: Server.getCookie("theme", c) ?? null, field: await Server.formValue("name", c) });
  });
  await withEnv(DEV, async () => {
    const resp = await app.request("/echo", {
      method: "POST",
      body: new URLSearchParams({ name: "Ada" }),
      headers: { Cookie: "theme=dark" },
    });
    assert.deepEqual(await resp.json(), { cookie: "dark", field: "Ada" });
    assert.deepEqual(resp.headers.getSetCookie(), ["pref=a%20b%3Bc; Path=/; HttpOnly; SameSite=Lax"]);
    const secure = await app.request("https://app.test/echo", { method: "POST" });
    assert.deepEqual(secure.headers.getSetCookie(), ["pref=a%20b%3Bc; Path=/; HttpOnly; SameSite=Lax; Secure"]);
  });
});

test("orThrow throws an Err as the HTTPException its code means; a server-side code is a 500 that hides its message", async () => {
  const { err, ok } = await import("../../src/result.ts");
  assert.equal(Server.orThrow(ok(5)), 5);
  const cases = [["bad_credentials", 401], ["user_disabled", 403], ["email_taken", 409], ["bad_email", 400], ["db_error", 500]] as const;
  for (const [code, status] of cases) {
    const thrown = (() => {
      try {
        Server.orThrow(err(code, `message of ${code}`));
      } catch (error) {
        return error;
      }
    })();
    assert.ok(thrown instanceof HTTPException, code);
    assert.equal(thrown.status, status, code);
    assert.equal(thrown.message, status === 500 ? "internal error" : `message of ${code}`);
  }
});
