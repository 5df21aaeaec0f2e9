import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Auth, Db, Secret } from "../../src/mod.ts";
import { createAuthFlowApp, SESSION_COOKIE } from "../../examples/auth-flow/app.ts";
import { withEnv } from "../support/env.ts";
import { connectionEnv } from "../support/connection.ts";

// docs/auth.md#reference-flow, end to end through app.fetch on SQLite.
const secret = Secret.fromString("reference-flow-secret-reference-flow-0123");
const db = Db.open(":memory:");
const app = createAuthFlowApp({ db, secret, cost: 4, rateLimit: { limit: 1000, windowMs: 60_000 } });
after(async () => {
  await db.close();
  Auth.closePasswordWorkers();
});

function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}, base = "http://app.test") {
  return app.fetch(new Request(`${base}${path}`, { method: "POST", body: new URLSearchParams(fields), headers }));
}
function me(cookie?: string) {
  return app.fetch(new Request("http://app.test/me", { headers: cookie === undefined ? {} : { Cookie: `${SESSION_COOKIE}=${cookie}` } }));
}
async function signIn(email: string, password: string): Promise<string> {
  const resp = await post("/login", { email, password });
  assert.equal(resp.status, 200);
  const line = resp.headers.getSetCookie()[0]!;
  return line.slice(line.indexOf("=") + 1, line.indexOf(";"));
}

describe("POST /register", () => {
  test("either field empty or missing gives 400 with a text body", async () => {
    for (
      const fields of [{}, { email: "a@b.c" }, { password: "pw" }, { email: "", password: "pw" }, {
        email: "a@b.c",
        password: "",
      }] as Record<string, string>[]
    ) {
      const resp = await post("/register", fields);
      assert.equal(resp.status, 400, JSON.stringify(fields));
      assert.match(resp.headers.get("Content-Type")!, /^text\/plain/);
      assert.ok((await resp.text()).length > 0);
    }
  });

  test("a new user gets a JSON object with an integer id; a duplicate email (any case) is 409", async () => {
    const resp = await post("/register", { email: "reg@example.com", password: "pw-12345" });
    assert.equal(resp.status, 200);
    const body = (await resp.json()) as { id: unknown };
    assert.ok(Number.isInteger(body.id));
    const duplicate = await post("/register", { email: " REG@example.com ", password: "other" });
    assert.equal(duplicate.status, 409);
  });
});

describe("POST /login and GET /me", () => {
  test("login sets a 24 h HttpOnly session token whose sub is the user id, and /me returns it", async () => {
    const registered = (await (await post("/register", { email: "me@example.com", password: "pw-me" })).json()) as { id: number };
    const resp = await post("/login", { email: "me@example.com", password: "pw-me" });
    assert.equal(resp.status, 200);
    assert.match(resp.headers.get("Content-Type")!, /^text\/plain/);
    const [line] = resp.headers.getSetCookie();
    assert.match(line!, /^session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400$/);
    const token = await signIn("me@example.com", "pw-me");
    const claims = Auth.verifyToken(secret, token);
    assert.ok(claims.ok);
    assert.equal(claims.value.sub, registered.id);
    assert.equal(Math.round((claims.value.exp as number) - (claims.value.iat as number)), 86_400);
    const who = await me(token);
    assert.equal(who.status, 200);
    assert.deepEqual(await who.json(), { sub: registered.id });
  });

  test("login with an empty field is 400; a wrong password or unknown email is 401", async () => {
    await post("/register", { email: "wrong@example.com", password: "right" });
    assert.equal((await post("/login", { email: "wrong@example.com" })).status, 400);
    assert.equal((await post("/login", { email: "wrong@example.com", password: "wrong" })).status, 401);
    assert.equal((await post("/login", { email: "nobody@example.com", password: "right" })).status, 401);
  });

  test("/me without a cookie, with a tampered cookie, an expired token or one signed with another secret is 401", async () => {
    await post("/register", { email: "t@example.com", password: "pw" });
    const token = await signIn("t@example.com", "pw");
    const [h, p, s] = token.split(".");
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 1, iat: 1, exp: 4_000_000_000 })).toString("base64url");
    const expired = Auth.signToken(secret, { sub: 1 }, 60, { now: 1_600_000_000 });
    const otherSecret = Auth.signToken(Secret.fromString("x".repeat(40)), { sub: 1 }, 60);
    assert.ok(expired.ok && otherSecret.ok);
    for (
      const cookie of [
        undefined,
        "",
        "garbage",
        `${h}.${forgedPayload}.${s}`,
        `${h}.${p}.${s![0] === "A" ? "B" : "A"}${s!.slice(1)}`,
        expired.value,
        otherSecret.value,
      ]
    ) {
      assert.equal((await me(cookie)).status, 401, String(cookie));
    }
  });

  test("a disabled user cannot log in (403); enabling lets them back", async () => {
    const { id } = (await (await post("/register", { email: "d@example.com", password: "pw" })).json()) as { id: number };
    assert.ok((await Auth.disableUser(db, String(id))).ok);
    assert.equal((await post("/login", { email: "d@example.com", password: "pw" })).status, 403);
    assert.ok((await Auth.enableUser(db, String(id))).ok);
    assert.equal((await post("/login", { email: "d@example.com", password: "pw" })).status, 200);
  });
});

describe("the Secure rule on the session cookie", () => {
  test("plain http adds no Secure; https, X-Forwarded-Proto and X-Forwarded-Ssl add it once; so does ENV=production", async () => {
    await post("/register", { email: "s@example.com", password: "pw" });
    const secureCount = (resp: Response) => (resp.headers.getSetCookie()[0]!.match(/; Secure/g) ?? []).length;
    await withEnv({ ENV: undefined }, async () => {
      assert.equal(secureCount(await post("/login", { email: "s@example.com", password: "pw" })), 0);
      assert.equal(secureCount(await post("/login", { email: "s@example.com", password: "pw" }, {}, "https://app.test")), 1);
      assert.equal(secureCount(await post("/login", { email: "s@example.com", password: "pw" }, { "X-Forwarded-Proto": "https" })), 1);
      assert.equal(secureCount(await post("/login", { email: "s@example.com", password: "pw" }, { "X-Forwarded-Ssl": "on" })), 1);
    });
    await withEnv({ ENV: "production" }, async () => {
      assert.equal(secureCount(await post("/login", { email: "s@example.com", password: "pw" })), 1);
    });
  });
});

test("login and register are rate limited per address and email, with 429 and Retry-After", async () => {
  const limited = createAuthFlowApp({ db, secret, cost: 4, rateLimit: { limit: 3, windowMs: 60_000 } });
  const attempt = (email: string, ip: string) =>
    limited.fetch(
      new Request("http://app.test/login", { method: "POST", body: new URLSearchParams({ email, password: "x" }) }),
      connectionEnv(ip),
    );
  for (let i = 0; i < 3; i++) assert.equal((await attempt("rl@example.com", "10.0.0.1")).status, 401);
  const blocked = await attempt("rl@example.com", "10.0.0.1");
  assert.equal(blocked.status, 429);
  assert.ok(Number(blocked.headers.get("Retry-After")) > 0);
  assert.equal((await attempt("other@example.com", "10.0.0.1")).status, 401, "another email from the same address has its own budget");
  assert.equal((await attempt("rl@example.com", "10.0.0.2")).status, 401, "the same email from another address has its own budget");
});

test("without a trusted proxy, a client rotating X-Forwarded-For is still limited on its connection's address", async () => {
  const limited = createAuthFlowApp({ db, secret, cost: 4, rateLimit: { limit: 3, windowMs: 60_000 } });
  let refused = 0;
  for (let i = 0; i < 30; i++) {
    const resp = await limited.fetch(
      new Request("http://app.test/login", {
        method: "POST",
        body: new URLSearchParams({ email: "spoof@example.com", password: "x" }),
        headers: { "X-Forwarded-For": `10.1.${i}.${i}` },
      }),
      connectionEnv("203.0.113.50"),
    );
    if (resp.status === 429) refused += 1;
  }
  assert.equal(refused, 27);
});

test("behind a trusted proxy, the limit keys on the address the proxy appended, not on what the client wrote before it", async () => {
  const limited = createAuthFlowApp({ db, secret, cost: 4, rateLimit: { limit: 3, windowMs: 60_000 }, trustProxy: ["10.0.0.0/8"] });
  const attempt = (forwardedFor: string) =>
    limited.fetch(
      new Request("http://app.test/login", {
        method: "POST",
        body: new URLSearchParams({ email: "proxied@example.com", password: "x" }),
        headers: { "X-Forwarded-For": forwardedFor },
      }),
      connectionEnv("10.0.0.9"),
    );
  for (let i = 0; i < 3; i++) assert.equal((await attempt(`6.6.6.${i}, 198.51.100.1`)).status, 401);
  assert.equal((await attempt("6.6.6.99, 198.51.100.1")).status, 429, "a spoofed leftmost entry does not buy a new budget");
  assert.equal((await attempt("198.51.100.2")).status, 401, "another client behind the same proxy has its own budget");
});
