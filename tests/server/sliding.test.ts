import { test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { Auth, Secret } from "../../src/auth/mod.ts";
import { setLogSink } from "../../src/log.ts";
import { err, ok } from "../../src/result.ts";
import { type RevokedCheck, Server, setSlidingCookie, type SlidingEnv } from "../../src/server/mod.ts";
import { withEnv } from "../support/env.ts";

// Every row of docs/auth.md#live-sessions-and-the-gate: Sliding token, with an injected clock.
const SECRET_ENV = "SVC_TEST_SLIDING_SECRET";
const SECRET_TEXT = "sliding-secret-sliding-secret-0123456789";
const T0 = 1_800_000_000;
const params = { windowSeconds: 900, maxLifetimeSeconds: 3600 };
const env = { [SECRET_ENV]: SECRET_TEXT, ENV: undefined };

function appWith(clock: { now: number }, revokedCheck?: RevokedCheck) {
  const app = new Hono<SlidingEnv>();
  app.use(Server.secureCookies());
  app.use(Server.withAuthSliding({ cookie: "session", secretEnv: SECRET_ENV, sameSite: "Strict", revokedCheck, now: () => clock.now }));
  app.get("/page", (c) => c.json({ claims: c.get("svcAuth") ?? null }));
  app.post("/_svc/event", (c) => c.json({ sub: c.get("svcAuth")?.sub ?? null }));
  app.get("/_svc/subscribe", () => new Response(": heartbeat\n\n", { headers: { "Content-Type": "text/event-stream" } }));
  app.post("/logout", () => Server.withCookie("session", "", "Path=/; Max-Age=0", new Response("bye")));
  app.post("/login", (c) => {
    const token = Auth.signSlidingToken(Secret.fromEnv(SECRET_ENV), { sub: "9" }, params, { now: clock.now });
    return setSlidingCookie(c.req.raw, token.ok ? token.value : "", new Response("in"));
  });
  return app;
}

function tokenAt(now: number, p = params): string {
  const token = Auth.signSlidingToken(Secret.fromString(SECRET_TEXT), { sub: "42" }, p, { now });
  assert.ok(token.ok);
  return token.value;
}

function request(path: string, token: string | undefined, init: RequestInit = {}, base = "http://app.test"): Request {
  const headers = new Headers(init.headers);
  if (token !== undefined) headers.set("Cookie", `session=${token}`);
  return new Request(`${base}${path}`, { ...init, headers });
}

function reissued(resp: Response): { token: string; line: string } | undefined {
  const line = resp.headers.getSetCookie().find((l) => l.startsWith("session="));
  if (!line) return undefined;
  return { token: line.slice("session=".length, line.indexOf(";")), line };
}

function claimsOf(token: string, now: number) {
  const verified = Auth.verifySlidingToken(Secret.fromString(SECRET_TEXT), token, { now });
  assert.ok(verified.ok);
  return verified.value;
}

test("issued + interaction (page GET or event POST) with now < aexp: re-issued with exp = now + w, iat and aexp kept", async () => {
  await withEnv(env, async () => {
    const clock = { now: T0 + 300 };
    const app = appWith(clock);
    for (const req of [request("/page", tokenAt(T0)), request("/_svc/event", tokenAt(T0), { method: "POST", body: "{}" })]) {
      const next = reissued(await app.fetch(req));
      assert.ok(next, req.url);
      assert.deepEqual(claimsOf(next.token, clock.now), { sub: "42", iat: T0, iat_ms: T0 * 1000, exp: T0 + 1200, aexp: T0 + 3600, w: 900 });
      assert.equal(next.line, `session=${next.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=900`);
    }
  });
});

test("verified claims are available to handlers", async () => {
  await withEnv(env, async () => {
    const resp = await appWith({ now: T0 + 10 }).fetch(request("/page", tokenAt(T0)));
    assert.equal(((await resp.json()) as { claims: { sub: string } }).claims.sub, "42");
    const none = await appWith({ now: T0 + 10 }).fetch(request("/page", undefined));
    assert.deepEqual(await none.json(), { claims: null });
  });
});

test("a re-issue near the cap stops exp at aexp and sets Max-Age to what is left", async () => {
  await withEnv(env, async () => {
    const clock = { now: T0 + 3000 };
    let token = tokenAt(T0);
    for (const at of [T0 + 800, T0 + 1600, T0 + 2400]) {
      const slid = Auth.reissueSlidingToken(Secret.fromString(SECRET_TEXT), claimsOf(token, at), { now: at });
      assert.ok(slid.ok);
      token = slid.value;
    }
    const next = reissued(await appWith(clock).fetch(request("/page", token)));
    assert.ok(next);
    assert.equal(claimsOf(next.token, clock.now).exp, T0 + 3600);
    assert.match(next.line, /Max-Age=600$/);
  });
});

test("revokedCheck returning true: not slid, and the token lapses at its current exp", async () => {
  await withEnv(env, async () => {
    const asked: Array<[string, number]> = [];
    const check: RevokedCheck = async (sub, iat) => {
      asked.push([sub, iat]);
      return ok(true);
    };
    const resp = await appWith({ now: T0 + 300 }, check).fetch(request("/page", tokenAt(T0)));
    assert.equal(reissued(resp), undefined);
    assert.deepEqual(asked, [["42", T0]]);
    const later = await appWith({ now: T0 + 900 }, check).fetch(request("/page", tokenAt(T0)));
    assert.deepEqual(await later.json(), { claims: null }, "lapsed at exp");
  });
});

test("revokedCheck returning false (or Ok(false)) lets the slide happen", async () => {
  await withEnv(env, async () => {
    for (const check of [() => false, async () => ok(false)] as RevokedCheck[]) {
      assert.ok(reissued(await appWith({ now: T0 + 300 }, check).fetch(request("/page", tokenAt(T0)))));
    }
  });
});

test("revokedCheck erroring (Err, throw or rejection): fails closed, not slid, and logged", async () => {
  await withEnv(env, async () => {
    const lines: string[] = [];
    const previous = setLogSink((level, line) => lines.push(`${level} ${line}`));
    try {
      for (
        const check of [async () => err("db_error", "down"), () => {
          throw new Error("boom");
        }, () => Promise.reject(new Error("x"))] as RevokedCheck[]
      ) {
        const resp = await appWith({ now: T0 + 300 }, check).fetch(request("/page", tokenAt(T0)));
        assert.equal(reissued(resp), undefined);
        assert.equal(resp.status, 200, "the request itself is still served with the current token");
      }
    } finally {
      setLogSink(previous);
    }
    assert.equal(lines.length, 3);
    assert.ok(lines.every((line) => line.startsWith("ERROR auth.sliding")));
  });
});

test("SSE requests and heartbeats never re-issue", async () => {
  await withEnv(env, async () => {
    const app = appWith({ now: T0 + 300 });
    assert.equal(reissued(await app.fetch(request("/_svc/subscribe", tokenAt(T0)))), undefined);
    assert.equal(reissued(await app.fetch(request("/page", tokenAt(T0), { headers: { Accept: "text/event-stream" } }))), undefined);
  });
});

test("time passes: at now >= exp the token is lapsed, invalid, and not slid", async () => {
  await withEnv(env, async () => {
    const resp = await appWith({ now: T0 + 900 }).fetch(request("/page", tokenAt(T0)));
    assert.equal(reissued(resp), undefined);
    assert.deepEqual(await resp.json(), { claims: null });
  });
});

test("a token at or past aexp, a forged token, or one signed with another secret is not slid", async () => {
  await withEnv(env, async () => {
    const capped = tokenAt(T0, { windowSeconds: 600, maxLifetimeSeconds: 600 });
    assert.equal(reissued(await appWith({ now: T0 + 600 }).fetch(request("/page", capped))), undefined);
    const other = Auth.signSlidingToken(Secret.fromString("x".repeat(40)), { sub: "42" }, params, { now: T0 });
    assert.ok(other.ok);
    assert.equal(reissued(await appWith({ now: T0 + 1 }).fetch(request("/page", other.value))), undefined);
    assert.equal(reissued(await appWith({ now: T0 + 1 }).fetch(request("/page", "garbage"))), undefined);
    const fixed = Auth.signToken(Secret.fromString(SECRET_TEXT), { sub: "42" }, 900, { now: T0 });
    assert.ok(fixed.ok);
    assert.equal(
      reissued(await appWith({ now: T0 + 1 }).fetch(request("/page", fixed.value))),
      undefined,
      "a fixed token is not a sliding one",
    );
  });
});

test("the secret is read from secretEnv at request time: rotating it stops verification at once", async () => {
  const app = appWith({ now: T0 + 1 });
  await withEnv(env, async () => assert.ok(reissued(await app.fetch(request("/page", tokenAt(T0))))));
  await withEnv({ [SECRET_ENV]: "another-secret-another-secret-0123456789" }, async () => {
    assert.equal(reissued(await app.fetch(request("/page", tokenAt(T0)))), undefined);
  });
});

test("a handler that sets the session cookie itself (sign-out) is not overridden by the re-issue", async () => {
  await withEnv(env, async () => {
    const resp = await appWith({ now: T0 + 1 }).fetch(request("/logout", tokenAt(T0), { method: "POST" }));
    assert.deepEqual(resp.headers.getSetCookie(), ["session=; Path=/; Max-Age=0"]);
  });
});

test("setSlidingCookie uses the builder's attributes, and Secure follows the rule over https and behind a proxy", async () => {
  await withEnv(env, async () => {
    const app = appWith({ now: T0 });
    const plain = reissued(await app.fetch(request("/login", undefined, { method: "POST" })));
    assert.ok(plain);
    assert.equal(plain.line, `session=${plain.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=900`);
    for (
      const req of [
        request("/login", undefined, { method: "POST" }, "https://app.test"),
        request("/login", undefined, { method: "POST", headers: { "X-Forwarded-Proto": "https" } }),
      ]
    ) {
      const secure = reissued(await app.fetch(req));
      assert.equal(secure?.line, `session=${secure?.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=900; Secure`);
    }
    const slid = reissued(await app.fetch(request("/page", tokenAt(T0), { headers: { "X-Forwarded-Ssl": "on" } })));
    assert.match(slid!.line, /; Secure$/);
    assert.equal(slid!.line.match(/Secure/g)!.length, 1);
  });
});
