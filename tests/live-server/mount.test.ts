/**
 * A live app in a Hono app of yours: `app.route(path, live)` and `app.mount(path, live.fetch)`,
 * under "/", under "/live", and two apps side by side with ordinary routes behind Hono's own
 * middleware. Every URL the page and the client use comes from where the app is mounted: the page
 * loads the client through its own URL, and the client finds the base from its location and the
 * page's path within the app (baseOfPage), as this test's tab does.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { cors } from "hono/cors";
import { csrf } from "hono/csrf";
import { logger } from "hono/logger";
import { secureHeaders } from "hono/secure-headers";
import { baseOfPage } from "../../src/protocol/mod.ts";
import { buttonId, formAppPool } from "./apps.ts";
import { cookieHeader, frameReader } from "../support/live-harness.ts";

const freshApp = formAppPool(after);
type Host = { request(input: string, init?: RequestInit): Response | Promise<Response> };

/** A browser tab on `host` at `url`: it finds the app's base as the client does, and posts there. */
async function openTab(host: Host, url: string, cookies = "") {
  const page = await host.request(url, { headers: { Accept: "text/html", ...(cookies ? { Cookie: cookies } : {}) } });
  assert.equal(page.status, 200, `page ${url}`);
  const html = await page.text();
  const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? "";
  const location = new URL(url, "http://app.test");
  const base = baseOfPage(location.pathname, meta("svc-path"), meta("svc-base"));
  const script = /<script type="module" src="([^"]+)">/.exec(html)![1]!.replaceAll("&amp;", "&");
  const tab = {
    html,
    base,
    cookies: cookieHeader(page, cookies),
    csrf: meta("svc-csrf"),
    /** The client bundle, fetched from the script's URL resolved against the page's, as a browser does. */
    client: () => host.request(new URL(script, location).href),
    post: (body: unknown) =>
      host.request(`${base}/_svc/event`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json", Origin: "http://localhost" },
      }),
    subscribe: async () => frameReader(await host.request(`${base}/_svc/subscribe`, { headers: { Cookie: tab.cookies } })),
    render: () => host.request(`${base}/_svc/render`, { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } }),
  };
  return tab;
}

/** Loads the page, checks the client bundle is reachable from it, clicks +, and reads the count back. */
async function clickThrough(host: Host, url: string, expectedBase: string) {
  const tab = await openTab(host, url);
  assert.equal(tab.base, expectedBase, `base from ${url}`);
  const client = await tab.client();
  assert.equal(client.status, 200);
  assert.match(client.headers.get("Content-Type")!, /^text\/javascript/);
  assert.ok((await client.text()).length > 10_000, "the client bundle");
  const stream = await tab.subscribe();
  assert.equal(stream.response.status, 200);
  assert.equal(stream.response.headers.get("Content-Type"), "text/event-stream");
  const reply = await tab.post({ seq: 1, msg: "Inc", handlerId: buttonId(tab.html, "\\+") });
  assert.equal(reply.status, 200);
  assert.deepEqual(await reply.json(), { seq: 1, respondingTo: 1, patches: [{ id: "r.0#p", text: "count 1" }] });
  assert.deepEqual(await stream.next(), { seq: 1, patches: [{ id: "r.0#p", text: "count 1" }] });
  await stream.close();
  const render = await tab.render();
  assert.equal(render.status, 200);
  assert.match(await render.text(), /count 1/);
  return tab;
}

describe("app.route(path, live)", () => {
  test("under /: the page, the client bundle, events, the stream and the render", async () => {
    const app = new Hono().route("/", freshApp());
    const tab = await clickThrough(app, "/", "");
    assert.match(tab.html, /<meta name="svc-base" content=""><meta name="svc-path" content="\/">/);
    await clickThrough(app, "/some/page", "");
  });

  test("under /live, from /live, /live/ and a deeper page; routes outside stay the parent's", async () => {
    const app = new Hono();
    app.get("/", (c) => c.text("home"));
    app.route("/live", freshApp());
    for (const url of ["/live", "/live/", "/live/a/b", "/live/a/b/?q=1"]) await clickThrough(app, url, "/live");
    const deep = await openTab(app, "/live/a/b");
    assert.match(deep.html, /<meta name="svc-base" content="\/live"><meta name="svc-path" content="\/a\/b">/);
    assert.equal(await (await app.request("/")).text(), "home");
    assert.equal((await app.request("/_svc/event", { method: "POST" })).status, 404, "nothing live outside /live");
  });

  test("under a path with a parameter, the base is the requested path", async () => {
    const app = new Hono().route("/org/:org", freshApp());
    await clickThrough(app, "/org/acme/board", "/org/acme");
  });

  test("a route added to the live app is copied with it, and its errors reach the parent's onError", async () => {
    const live = freshApp();
    // GETs below the base are pages; a route of another method is the app's to add.
    live.post("/boom", () => {
      throw new Error("post failed");
    });
    const app = new Hono();
    const seen: string[] = [];
    app.onError((error, c) => {
      seen.push(error.message);
      return c.text("handled", 500);
    });
    app.route("/live", live);
    const resp = await app.request("/live/boom", { method: "POST" });
    assert.equal(resp.status, 500);
    assert.equal(await resp.text(), "handled");
    assert.deepEqual(seen, ["post failed"]);
  });
});

describe("app.mount(path, live.fetch)", () => {
  test("under /live: the page does not know the prefix, the client finds it from its location", async () => {
    const app = new Hono().mount("/live", freshApp().fetch);
    for (const url of ["/live", "/live/", "/live/a/b", "/live/a/b/"]) await clickThrough(app, url, "/live");
    const deep = await openTab(app, "/live/a/b");
    assert.match(deep.html, /<meta name="svc-base" content=""><meta name="svc-path" content="\/a\/b">/);
  });

  test("under /", async () => {
    const app = new Hono().mount("/", freshApp().fetch);
    await clickThrough(app, "/", "");
    await clickThrough(app, "/x/y", "");
  });
});

test("the deprecated basePath option still serves the app under its prefix", async () => {
  const live = freshApp({ basePath: "/old" });
  const app = new Hono().all("/old/*", (c) => live.fetch(c.req.raw)).all("/old", (c) => live.fetch(c.req.raw));
  const tab = await clickThrough(app, "/old/page", "/old");
  assert.match(tab.html, /<meta name="svc-base" content="\/old"><meta name="svc-path" content="\/page">/);
  assert.equal((await app.request("/old/_svc/client.js")).status, 200);
});

describe("two live apps and ordinary routes behind logger, secureHeaders, csrf, compress and cors", () => {
  const lines: string[] = [];
  const shop = freshApp({ name: "shop" });
  const admin = freshApp({ name: "admin" });
  const app = new Hono();
  app.use(
    logger((line) => lines.push(line)),
    secureHeaders(),
    csrf({ origin: "http://localhost" }),
    compress(),
    cors({ origin: "http://localhost" }),
  );
  app.get("/health", (c) => c.json({ ok: true }));
  app.route("/shop", shop);
  app.mount("/admin", admin.fetch);

  test("each app has its own session cookie and session; a page is compressed, the event stream is not", async () => {
    const shopTab = await clickThrough(app, "/shop/", "/shop");
    const adminTab = await clickThrough(app, "/admin/users", "/admin");
    assert.match(shopTab.cookies, /svc_shop_sid=/);
    assert.doesNotMatch(shopTab.cookies, /svc_admin_sid=/);
    assert.match(adminTab.cookies, /svc_admin_sid=/);
    assert.equal(shop.sessions.size, 1);
    assert.equal(admin.sessions.size, 1);
    // The shop tab's cookie means nothing to the admin app.
    const crossed = await app.request("/admin/_svc/event", {
      method: "POST",
      body: JSON.stringify({ seq: 2, msg: "Inc", handlerId: "r.2#button" }),
      headers: { Cookie: shopTab.cookies, "X-Svc-Csrf": shopTab.csrf, "Content-Type": "application/json" },
    });
    assert.equal(crossed.status, 404);

    const page = await app.request("/shop/", { headers: { "Accept-Encoding": "gzip" } });
    assert.equal(page.headers.get("Content-Encoding"), "gzip");
    assert.equal(page.headers.get("X-Content-Type-Options"), "nosniff");
    const stream = await app.request("/shop/_svc/subscribe", { headers: { Cookie: shopTab.cookies, "Accept-Encoding": "gzip" } });
    assert.equal(stream.headers.get("Content-Type"), "text/event-stream");
    assert.equal(stream.headers.get("Content-Encoding"), null);
    await stream.body!.cancel();
    assert.ok(lines.some((line) => line.includes("POST /shop/_svc/event")), "the logger saw the live routes");
  });

  test("ordinary routes work beside them, and csrf() refuses a cross-site form post to an app", async () => {
    assert.deepEqual(await (await app.request("/health")).json(), { ok: true });
    const forged = await app.request("/shop/_svc/event", {
      method: "POST",
      body: "x=1",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://evil.example" },
    });
    assert.equal(forged.status, 403);
  });
});

test("baseOfPage: the location's path without the page's path within the app", () => {
  assert.equal(baseOfPage("/", "/", ""), "");
  assert.equal(baseOfPage("/live", "/", ""), "/live");
  assert.equal(baseOfPage("/live/", "/", ""), "/live");
  assert.equal(baseOfPage("/live/a/b", "/a/b", ""), "/live");
  assert.equal(baseOfPage("/a/b", "/a/b", ""), "");
  assert.equal(
    baseOfPage("/elsewhere", "/a/b", "/known"),
    "/known",
    "a location that does not end with the page's path keeps the known base",
  );
  assert.equal(baseOfPage("/live/x", "", "/live"), "/live", "a page without the path meta keeps the known base");
});
