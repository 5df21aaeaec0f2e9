// The split client's Session field in a real browser (docs/protocol.md#the-session-field): the
// client's half of a token session, against the shifting app (tests/support/shifting-app.ts) with
// `client: "split"` behind a wrapper that plays the server's half of the token: it hands the page
// a token in the meta `svc-session-token`, rotates it in the reply to the first Add (X-Svc-Session),
// answers POST /_svc/end, and records the X-Svc-Session header of every request the page makes
// (the cookie session underneath still selects the session). Every event, the stream (read with
// fetch: an EventSource could not carry the header), the unload batch (a keepalive fetch: a beacon
// could not either) and the end carry the token the client holds at that moment.
//
// Skipped, with the reason printed, under Bun and Deno and when /usr/bin/chromium is missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { shiftingApp } from "../support/shifting-app.ts";
import { e2eSkipReason, eventually, sharedBrowser } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e/split-token skipped: ${skip}`);
const browser = sharedBrowser("svc-e2e-token-", skip);

type Seen = { method: string; path: string; token: string | null; msgs: string; batch: boolean; status?: number };

async function serve() {
  const { serve: listen } = await import("@hono/node-server");
  const shifting = shiftingApp({ tickMs: 90, client: "split" });
  const seen: Seen[] = [];
  let rotated = false;
  const server = listen({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req: Request) => {
      const url = new URL(req.url);
      const token = req.headers.get("X-Svc-Session");
      let entry: Seen | undefined;
      if (url.pathname.startsWith("/_svc/")) {
        let msgs = "";
        let batch = false;
        if (url.pathname === "/_svc/event") {
          const body = JSON.parse(await req.clone().text()) as { msg?: string; batch?: { msg: string }[] };
          msgs = body.batch ? body.batch.map((e) => e.msg).join("+") : String(body.msg);
          batch = body.batch !== undefined;
        }
        seen.push(entry = { method: req.method, path: url.pathname, token, msgs, batch });
      }
      if (url.pathname === "/_svc/end") return new Response(null, { status: 204 });
      const resp = await shifting.live.fetch(req);
      if (entry !== undefined) entry.status = resp.status;
      if (req.method === "GET" && !url.pathname.startsWith("/_svc/") && !url.search.includes("_svc=")) {
        const html = (await resp.text()).replace("<head>", `<head><meta name="svc-session-token" content="tok-1">`);
        return new Response(html, { status: resp.status, headers: resp.headers });
      }
      if (url.pathname === "/_svc/event" && !rotated && entry?.msgs === "Add") {
        rotated = true;
        const headers = new Headers(resp.headers);
        headers.set("X-Svc-Session", "tok-2");
        return new Response(resp.body, { status: resp.status, headers });
      }
      return resp;
    },
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return { ...shifting, seen, url: `http://127.0.0.1:${port}`, close: () => (server.close(), shifting.live.close()) };
}

test(
  "the split client sends its Session field's token on every request and stream, takes a rotated one, and ends the session",
  { skip },
  async () => {
    const app = await serve();
    const ctx = await browser();
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    try {
      await page.goto(`${app.url}/`);
      await page.waitForFunction(() => document.querySelector('script[type="module"]') !== null);
      // Frames over the stream: the ticks' log lines reach the page.
      await page.$eval("#ticks", (el) => (el as HTMLElement).click());
      await eventually(async () => assert.ok((await page.$$("p.log")).length >= 2, "ticks arrive over the stream"));
      await page.focus("#text");
      await page.keyboard.type("one");
      await eventually(() => assert.equal(app.model().text, "one"));
      await page.$eval("#add", (el) => (el as HTMLElement).click());
      // The page shifts every 90 ms, and a click whose button moved past what the server still
      // maps (docs/protocol.md#ids-that-move) is refused as handler-gone and not resent: clicked
      // again then, as a user would. The token is what this test is about.
      await eventually(async () => {
        if (app.received.some(([m]) => m === "Add")) return;
        const adds = app.seen.filter((s) => s.msgs === "Add");
        const last = adds[adds.length - 1];
        if (last?.status !== undefined && last.status >= 400) await page.$eval("#add", (el) => (el as HTMLElement).click());
        assert.fail(`no Add applied yet: ${JSON.stringify(adds)}`);
      });
      await page.focus("#text");
      await page.keyboard.type(" two");
      await eventually(() => assert.equal(app.model().text, "one two"));

      const events = app.seen.filter((s) => s.path === "/_svc/event");
      const add = events.findIndex((s) => s.msgs === "Add");
      assert.ok(add >= 1);
      assert.deepEqual(events.slice(0, add + 1).map((s) => s.token), events.slice(0, add + 1).map(() => "tok-1"), "before the rotation");
      assert.ok(events.length > add + 1);
      assert.deepEqual(
        events.slice(add + 1).map((s) => s.token),
        events.slice(add + 1).map(() => "tok-2"),
        "from the reply that rotated it on",
      );
      const streams = app.seen.filter((s) => s.path === "/_svc/subscribe");
      assert.ok(streams.length >= 1);
      assert.ok(streams.every((s) => s.token === "tok-1" || s.token === "tok-2"), "the stream carries the token (read with fetch)");

      // The unload batch: a keepalive fetch with the header.
      await page.$eval("#text", (el) => el.setAttribute("data-svc-debounce", "60000"));
      await page.focus("#text");
      await page.keyboard.type(" three");
      await page.goto("about:blank");
      await eventually(() => assert.equal(app.model().text, "one two three"));
      const batches = app.seen.filter((s) => s.path === "/_svc/event" && s.batch && s.msgs.includes("SetText"));
      assert.deepEqual(batches.map((s) => s.token), ["tok-2"], "one unload batch, with the token");

      // A new page load: a new token; endSession() clears it and POSTs /_svc/end with it, once.
      await page.goto(`${app.url}/`);
      await page.waitForFunction(() => document.querySelector('script[type="module"]') !== null);
      const ended = await page.evaluate(
        `import(document.querySelector('script[src*="_svc=split.js"]').src).then((m) => m.endSession())`,
      );
      assert.equal(ended, true);
      assert.deepEqual(app.seen.filter((s) => s.path === "/_svc/end").map((s) => [s.method, s.token]), [["POST", "tok-1"]]);
      const before = app.seen.length;
      await page.$eval("#add", (el) => (el as HTMLElement).click());
      await page.waitForTimeout(500);
      assert.deepEqual(app.seen.slice(before).filter((s) => s.path === "/_svc/event"), [], "a stopped client sends nothing");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
      app.close();
    }
  },
);
