/**
 * The README's Hono example (examples/hono-app/app.tsx), through app.request: the guard sends a
 * signed-out page request to sign in, the login sets the session cookie, and the mounted TSX page
 * sees the signed-in user and answers events at its mounted URLs.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Secret } from "../../src/mod.ts";
import { baseOfPage } from "../../src/protocol/mod.ts";
import { createApp } from "../../examples/hono-app/app.tsx";
import { cookieHeader } from "../support/live-harness.ts";

const { app, todos } = createApp(Secret.fromString("hono-app-example-secret-0123456789abcdef"));
after(() => todos.close());

test("a signed-out page request is sent to sign in; an API request gets 401", async () => {
  const page = await app.request("/todos", { headers: { Accept: "text/html" } });
  assert.equal(page.status, 303);
  assert.equal(page.headers.get("Location"), "/");
  assert.equal((await app.request("/me")).status, 401);
  assert.equal((await app.request("/todos/_svc/event", { method: "POST", body: "{}" })).status, 401);
});

test("after sign-in the mounted TSX page knows the user and answers events at its mounted URLs", async () => {
  const login = await app.request("/login", { method: "POST", body: new URLSearchParams({ name: "Ada" }) });
  assert.equal(login.status, 303);
  assert.equal(login.headers.get("Location"), "/todos");
  let cookies = cookieHeader(login);
  assert.match(cookies, /^sid=/);
  const me = (await (await app.request("/me", { headers: { Cookie: cookies } })).json()) as { id: string; name: string };
  assert.equal(me.name, "Ada");

  const page = await app.request("/todos", { headers: { Accept: "text/html", Cookie: cookies } });
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("X-Frame-Options"), "SAMEORIGIN", "secureHeaders ran");
  const html = await page.text();
  assert.match(html, /<h1>Ada's to-dos<\/h1>/);
  cookies = cookieHeader(page, cookies);
  const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)![1]!;
  const base = baseOfPage("/todos", meta("svc-path"), meta("svc-base"));
  assert.equal(base, "/todos");
  const post = (body: unknown) =>
    app.request(`${base}/_svc/event`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { Cookie: cookies, "X-Svc-Csrf": meta("svc-csrf"), "Content-Type": "application/json" },
    });
  assert.equal((await post({ seq: 1, msg: "Draft", args: ["Buy milk"], handlerId: "r.1#form.#input:draft" })).status, 200);
  const added = await post({ seq: 2, msg: "Add", handlerId: "r.1#form" });
  assert.equal(added.status, 200);
  const frame = (await added.json()) as { patches: unknown[] };
  assert.match(JSON.stringify(frame.patches), /Buy milk/);
  const [session] = [...todos.sessions.all()];
  assert.equal(session?.user, me.id, "the live session is bound to the signed-in user");
});

test("the README quotes the example as it is", async () => {
  const { readFileSync } = await import("node:fs");
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const source = readFileSync(new URL("../../examples/hono-app/app.tsx", import.meta.url), "utf8");
  const quoted = source.slice(source.indexOf("import { Hono }")).trimEnd();
  assert.ok(readme.includes("```tsx\n" + quoted + "\n```"), "README.md's Use it in your Hono app block matches examples/hono-app/app.tsx");
});

test("signing in as someone else in the same browser starts a new live session with the new user's page", async () => {
  let cookies = "";
  const signIn = async (name: string) => {
    cookies = cookieHeader(
      await app.request("/login", { method: "POST", body: new URLSearchParams({ name }), headers: { Cookie: cookies } }),
      cookies,
    );
    const page = await app.request("/todos", { headers: { Accept: "text/html", Cookie: cookies } });
    cookies = cookieHeader(page, cookies);
    return page.text();
  };
  assert.match(await signIn("Grace"), /Grace's to-dos/);
  const live = /svc_todos_sid=([^;]+)/.exec(cookies)![1];
  assert.match(await signIn("Linus"), /Linus's to-dos/);
  assert.notEqual(/svc_todos_sid=([^;]+)/.exec(cookies)![1], live, "a new session id");
});
