/**
 * The split client as the app serves it (docs/protocol.md#the-split-client): `Live.app(def,
 * { client: "split" })` makes the page load it through its own URL (`?_svc=split.js&v=<digest>`),
 * and it is served there and at /_svc/split.js with the live client's caching rules; an app
 * without the option still loads the live client, and serves both.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { app } from "../../src/live/server/mod.ts";
import { Ui } from "../../src/ui/mod.ts";
import { CLIENT_BUNDLE } from "../../src/generated/client-bundle.ts";
import { SPLIT_BUNDLE, SPLIT_BUNDLE_VERSION } from "../../src/generated/split-bundle.ts";

const counter = (options: { client?: "live" | "split" } = {}) =>
  app<number>(
    { init: () => 0, update: (n) => n + 1, view: (n) => Ui.h("main", {}, Ui.h("button", { onClick: "Inc" }, String(n))) },
    options,
  );

async function scriptOf(live: { fetch(req: Request): Response | Promise<Response> }, pageUrl: string): Promise<string> {
  const html = await (await live.fetch(new Request(pageUrl, { headers: { Accept: "text/html" } }))).text();
  return new URL(/<script type="module" src="([^"]+)">/.exec(html)![1]!.replaceAll("&amp;", "&"), pageUrl).href;
}

test("with client: split the page loads the split client by its digest, cached for good", async () => {
  const live = counter({ client: "split" });
  try {
    const url = await scriptOf(live, "http://app.test/a/b");
    assert.equal(new URL(url).searchParams.get("_svc"), "split.js");
    assert.equal(new URL(url).searchParams.get("v"), SPLIT_BUNDLE_VERSION);
    const resp = await live.fetch(new Request(url));
    assert.equal(resp.status, 200);
    assert.equal(resp.headers.get("Content-Type"), "text/javascript; charset=utf-8");
    assert.equal(resp.headers.get("Cache-Control"), "public, max-age=31536000, immutable");
    assert.equal(resp.headers.get("ETag"), `"${SPLIT_BUNDLE_VERSION}"`);
    assert.equal(await resp.text(), SPLIT_BUNDLE);
  } finally {
    live.close();
  }
});

test("/_svc/split.js and ?_svc=split.js serve the split client on any app, revalidated, 304 through its ETag", async () => {
  const live = counter();
  try {
    assert.equal(new URL(await scriptOf(live, "http://app.test/")).searchParams.get("_svc"), "client.js", "the live client by default");
    for (const url of ["http://app.test/_svc/split.js", "http://app.test/x?_svc=split.js"]) {
      const resp = await live.fetch(new Request(url));
      assert.equal(resp.status, 200, url);
      assert.equal(resp.headers.get("Cache-Control"), "no-cache");
      assert.equal(await resp.text(), SPLIT_BUNDLE);
      const held = await live.fetch(new Request(url, { headers: { "If-None-Match": `"${SPLIT_BUNDLE_VERSION}"` } }));
      assert.equal(held.status, 304);
    }
    assert.equal(await (await live.fetch(new Request("http://app.test/?_svc=client.js"))).text(), CLIENT_BUNDLE);
    assert.notEqual(SPLIT_BUNDLE, CLIENT_BUNDLE);
  } finally {
    live.close();
  }
});

test("the split bundle exports endSession and holds no platform module", () => {
  assert.match(SPLIT_BUNDLE, /export\s*\{[^}]*\bendSession\b[^}]*\}/);
  assert.doesNotMatch(SPLIT_BUNDLE, /node:|Deno\.|Bun\./);
});
