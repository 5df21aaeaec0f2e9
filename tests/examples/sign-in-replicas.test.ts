// The sign-in app for replicas (examples/replicas/sign-in.ts, docs/deployment.md#a-sign-in-app-on-replicas):
// two copies in this process on one Postgres schema stand for two replicas. A user signs in
// through one; the other serves her live page, bound to her; a click through the first shows in
// a render from the second; a revoke through Auth signs her out everywhere; readiness is 200 and
// turns 503 once draining.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import { Auth, Secret } from "../../src/auth/mod.ts";
import { Db } from "../../src/db/mod.ts";
import { createSignInApp } from "../../examples/replicas/sign-in.ts";
import { cookieHeader } from "../support/live-harness.ts";
import { POSTGRES_SKIP, POSTGRES_URL } from "../support/db-targets.ts";

const ORIGIN = "http://app.test";
const schema = `svc_sign_in_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
const admin = POSTGRES_URL ? postgres(POSTGRES_URL, { onnotice: () => {}, max: 1 }) : undefined;
after(async () => {
  await admin?.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin?.end({ timeout: 5 });
});

test("sign in through one replica, use the live page through another, revoke through Auth", { skip: POSTGRES_SKIP }, async () => {
  const secret = Secret.fromString("sign-in-replicas-test-secret-sign-in-replicas-test-secret");
  const dbs = [Db.open(POSTGRES_URL!, { schema }), Db.open(POSTGRES_URL!, { schema })];
  const [a, b] = dbs.map((db) => createSignInApp(db, secret));
  try {
    await Promise.all([a!.live.ready(), b!.live.ready()]);
    assert.equal((await a!.fetch(new Request(`${ORIGIN}/healthz/ready`))).status, 200);
    const registered = await Auth.register(dbs[0]!, "ada@example.test", "violet-orbit-canyon-42", { cost: 4 });
    assert.ok(registered.ok);

    let cookies = "";
    const call = async (app: typeof a, path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (cookies) headers.set("Cookie", cookies);
      const resp = await app!.fetch(new Request(ORIGIN + path, { ...init, headers }));
      cookies = cookieHeader(resp, cookies);
      return resp;
    };
    const login = await call(a, "/login", {
      method: "POST",
      body: new URLSearchParams({ email: "ada@example.test", password: "violet-orbit-canyon-42" }),
    });
    assert.equal(login.status, 303);
    assert.equal(login.headers.get("Location"), "/app");

    const page = await call(b, "/app/");
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<p id="who"[^>]*>ada@example.test<\/p>/);
    const csrf = /<meta name="svc-csrf" content="([^"]*)">/.exec(html)?.[1] ?? "";
    const clickId = /<button[^>]*svc-id="([^"]+)"[^>]*id="click"|<button[^>]*id="click"[^>]*svc-id="([^"]+)"/.exec(html);
    const handlerId = clickId?.[1] ?? clickId?.[2] ?? "r.1#button";
    const event = (app: typeof a, seq: number) =>
      call(app, "/app/_svc/event", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Svc-Csrf": csrf, Origin: ORIGIN },
        body: JSON.stringify({ seq, msg: "Click", args: [], handlerId, page: "p", lastAppliedSeq: 0 }),
      });
    const clicked = await event(a, 1);
    assert.equal(clicked.status, 200, await clicked.clone().text());
    assert.match(await clicked.text(), /clicked 1/);
    // The other replica hears of the move over the bus within moments; its render is then the saved state.
    let shown = "";
    for (let i = 0; i < 50 && !/clicked 1/.test(shown); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const render = await call(b, "/app/_svc/render", { headers: { "X-Svc-Csrf": csrf } });
      assert.equal(render.status, 200);
      shown = await render.text();
    }
    assert.match(shown, /clicked 1/);

    // A revoke through Auth: the next event, at either replica, finds the session gone.
    assert.ok((await Auth.revokeUser(dbs[0]!, String(registered.value))).ok);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterRevoke = await event(b, 2);
    assert.equal(afterRevoke.status, 404);
    assert.equal(afterRevoke.headers.get("X-Svc-Status"), "session-lost");

    await a!.graceful.drain();
    assert.equal((await a!.fetch(new Request(`${ORIGIN}/healthz/ready`))).status, 503);
  } finally {
    a!.live.close();
    b!.live.close();
    await dbs[1]!.close();
  }
});
