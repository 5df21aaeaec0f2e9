/**
 * The desktop front (src/live/desktop/guard.ts; docs/desktop.md#who-can-act), through fetch: only
 * the launched window can act. A foreign Host (DNS rebinding), another origin, a page load without
 * the launch token (it gets the bootstrap page, with no app data), a spent or wrong launch token,
 * and a request without the session token are refused; the window's session is learnt through a
 * sign-in's rotation and ended at close; the window's streams are counted.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Live, Secret, Ui } from "../../src/mod.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";
import { DesktopGuard } from "../../src/live/desktop/guard.ts";
import { frameReader } from "../support/live-harness.ts";
import { metaOf } from "../support/token-tab.ts";

type Model = { n: number; user: string };
const HOST = "127.0.0.1:4321";
const ORIGIN = `http://${HOST}`;
const LAUNCH = "launch-token-launch-token-launch-token-0123";
const apps: LiveApp<Model>[] = [];
after(() => apps.forEach((a) => a.close()));

function guarded(onStreams?: (open: number) => void) {
  const app = Live.app<Model>(
    {
      init: () => ({ n: 0, user: "" }),
      update: (model, msg, args) =>
        msg === "SignIn"
          ? [{ ...model, user: String(args[0]) }, Live.bindSessionUser(String(args[0]))] as const
          : { ...model, n: model.n + 1 },
      view: (model) => Ui.h("main", {}, Ui.h("p", {}, `secret count ${model.n}`), Ui.h("button", { onClick: "Inc" }, "+")),
    },
    { session: "token", title: "Desk", messages: ["SignIn"], secret: Secret.fromString("desktop-guard-test-secret-0123456789-abc") },
  );
  apps.push(app);
  const launched: string[] = [];
  const guard = new DesktopGuard({ app, launchToken: LAUNCH, title: "Desk", onStreams, onLaunch: () => launched.push("launch") });
  guard.host = HOST;
  return { app, guard, launched };
}

const get = (path: string, headers: Record<string, string> = {}) => new Request(`${ORIGIN}${path}`, { headers });
const post = (path: string, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token === undefined ? {} : { "X-Svc-Session": token }), ...headers },
    body: JSON.stringify(body),
  });

async function launch(guard: DesktopGuard): Promise<{ resp: Response; html: string; token: string }> {
  const resp = await guard.fetch(get("/", { "X-Svc-Launch": LAUNCH, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors" }));
  const html = await resp.text();
  return { resp, html, token: metaOf(html, "svc-session-token") ?? "" };
}

describe("the desktop front", () => {
  test("a page load without the launch token gets the bootstrap page: no app data, no token, no session", async () => {
    const { app, guard } = guarded();
    const resp = await guard.fetch(get("/", { "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "none" }));
    assert.equal(resp.status, 200);
    const html = await resp.text();
    assert.doesNotMatch(html, /secret count/);
    assert.equal(metaOf(html, "svc-session-token"), undefined);
    assert.equal(resp.headers.get("Referrer-Policy"), "no-referrer");
    assert.equal(resp.headers.get("Cache-Control"), "no-store");
    assert.match(resp.headers.get("Content-Security-Policy") ?? "", /frame-ancestors 'none'/);
    assert.equal(app.sessions.size, 0);
    // A navigation from another site gets the same page and nothing more.
    const cross = await guard.fetch(get("/other", { "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "cross-site" }));
    assert.doesNotMatch(await cross.text(), /secret count/);
    assert.equal(app.sessions.size, 0);
  });

  test("the launch token gets the app's page once; a wrong or spent one is refused", async () => {
    const { app, guard, launched } = guarded();
    const wrong = await guard.fetch(get("/", { "X-Svc-Launch": LAUNCH.slice(0, -1) + "x" }));
    assert.equal(wrong.status, 403);
    assert.equal(app.sessions.size, 0);
    const first = await launch(guard);
    assert.equal(first.resp.status, 200);
    assert.match(first.html, /secret count 0/);
    assert.ok(first.token);
    assert.equal(first.resp.headers.get("Referrer-Policy"), "no-referrer");
    assert.deepEqual(launched, ["launch"]);
    const again = await guard.fetch(get("/", { "X-Svc-Launch": LAUNCH }));
    assert.equal(again.status, 403, "the launch token works once");
    assert.equal(app.sessions.size, 1);
  });

  test("a foreign Host is refused on every route (DNS rebinding), before the app sees it", async () => {
    const { app, guard } = guarded();
    const { token } = await launch(guard);
    for (const host of ["evil.example:4321", "localhost:4321", "127.0.0.1:9999", "127.0.0.1"]) {
      const forged = new Request(`http://${host}/_svc/event`, {
        method: "POST",
        headers: { "X-Svc-Session": token, "Content-Type": "application/json" },
        body: JSON.stringify({ seq: 1, msg: "Inc" }),
      });
      assert.equal((await guard.fetch(forged)).status, 403, host);
      const page = await guard.fetch(new Request(`http://${host}/`, { headers: { "X-Svc-Launch": LAUNCH } }));
      assert.equal(page.status, 403, `${host}: page`);
    }
    // A Host header that disagrees with the URL (a proxying client) is refused too.
    const header = await guard.fetch(new Request(`${ORIGIN}/_svc/render`, { headers: { Host: "evil.example", "X-Svc-Session": token } }));
    assert.equal(header.status, 403);
    assert.equal([...app.sessions.all()][0]!.model.n, 0);
  });

  test("another origin is refused even with the session token; a request without the token is session-lost", async () => {
    const { app, guard } = guarded();
    const { token } = await launch(guard);
    const cross = await guard.fetch(post("/_svc/event", token, { seq: 1, msg: "Inc" }, { Origin: "https://evil.example" }));
    assert.equal(cross.status, 403);
    const crossSite = await guard.fetch(post("/_svc/event", token, { seq: 1, msg: "Inc" }, { "Sec-Fetch-Site": "cross-site" }));
    assert.equal(crossSite.status, 403);
    const noToken = await guard.fetch(post("/_svc/event", undefined, { seq: 1, msg: "Inc" }, { Origin: ORIGIN }));
    assert.equal(noToken.status, 404);
    assert.equal(noToken.headers.get("X-Svc-Status"), "session-lost");
    assert.equal((await guard.fetch(get("/_svc/render"))).status, 404);
    assert.equal((await guard.fetch(get("/_svc/subscribe"))).status, 404);
    assert.equal([...app.sessions.all()][0]!.model.n, 0, "nothing changed");
    const ok = await guard.fetch(post("/_svc/event", token, { seq: 1, msg: "Inc" }, { Origin: ORIGIN }));
    assert.equal(ok.status, 200);
    assert.equal([...app.sessions.all()][0]!.model.n, 1);
  });

  test("it follows the session through a sign-in's rotation and ends it; it counts the window's streams", async () => {
    const counts: number[] = [];
    const { app, guard } = guarded((open) => counts.push(open));
    let { token } = await launch(guard);
    const signIn = await guard.fetch(post("/_svc/event", token, { seq: 1, msg: "SignIn", args: ["7"] }));
    assert.equal(signIn.status, 200);
    token = signIn.headers.get("X-Svc-Session") ?? "";
    assert.ok(token);
    const stream = frameReader(await guard.fetch(get("/_svc/subscribe", { "X-Svc-Session": token })));
    assert.equal(stream.response.status, 200);
    assert.deepEqual(counts, [1]);
    await stream.close();
    assert.deepEqual(counts, [1, 0]);
    await guard.endSession();
    assert.equal(app.sessions.size, 0, "the rotated session ended");
    assert.equal((await guard.fetch(post("/_svc/event", token, { seq: 2, msg: "Inc" }))).status, 404);
  });
});
