// The live client in a real browser (Chromium through playwright-core) against the demo app on
// 127.0.0.1, with every event reply held back 0-300 ms so replies arrive late and out of step with
// the SSE stream (docs/protocol.md G1, G2; docs/protocol.md#client-rules 1-9).
//
// Skipped, with the reason printed, under Bun and Deno and when /usr/bin/chromium is missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { demoApp } from "../support/demo-app.ts";
import { composeAndConfirm, e2eSkipReason, eventually, sharedBrowser, sleep, value } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e skipped: ${skip}`);

const OUTPUT = new URL("../../test-output/", import.meta.url).pathname;
const started = Date.now();

const browser = sharedBrowser("svc-e2e-", skip, () => {
  console.log(`e2e total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

type Post = { body: Record<string, unknown>; csrfHeader: string | null };

/** The demo app on 127.0.0.1 (random port) behind a wrapper that delays each event reply 0-300 ms. */
async function serveDemo() {
  const { serve } = await import("@hono/node-server");
  const demo = demoApp();
  const posts: Post[] = [];
  /** The Last-Event-ID header of each subscribe request, in order (null: none). */
  const subscribes: (string | null)[] = [];
  /** How many times a page fetched GET /_svc/render to resync. */
  let renders = 0;
  let streamsHeld: Promise<void> | undefined;
  const server = serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req: Request) => {
      if (req.method === "GET" && new URL(req.url).pathname === "/_svc/subscribe") {
        subscribes.push(req.headers.get("Last-Event-ID"));
        await streamsHeld;
      }
      if (req.method === "GET" && new URL(req.url).pathname === "/_svc/render") renders++;
      const isEvent = req.method === "POST" && new URL(req.url).pathname === "/_svc/event";
      if (isEvent) {
        const text = await req.clone().text();
        try {
          posts.push({ body: JSON.parse(text) as Record<string, unknown>, csrfHeader: req.headers.get("X-Svc-Csrf") });
        } catch {
          // not JSON: the app answers 400
        }
      }
      const resp = await demo.live.fetch(req);
      if (isEvent) await sleep(Math.random() * 300);
      return resp;
    },
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    ...demo,
    posts,
    subscribes,
    renders: () => renders,
    /** Breaks every open stream and holds the reconnections until the returned function is called. */
    dropStreams(): () => void {
      let release = () => {};
      streamsHeld = new Promise<void>((resolve) => (release = resolve));
      for (const session of demo.live.sessions.all()) session.frames.closeAll({ lost: false });
      return () => {
        streamsHeld = undefined;
        release();
      };
    },
    url: `http://127.0.0.1:${port}`,
    close() {
      server.close();
      demo.live.close();
    },
  };
}

type Demo = Awaited<ReturnType<typeof serveDemo>>;

/** A fresh app and page for one test; the caret monitor counts keystrokes that find the caret moved. */
async function withPage(name: string, fn: (page: Page, demo: Demo) => Promise<void>): Promise<void> {
  const t0 = Date.now();
  const demo = await serveDemo();
  const ctx = await browser();
  await ctx.clearCookies();
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  if (process.env["SVC_E2E_DEBUG"]) page.on("console", (m) => console.log(`console: ${m.text()}`));
  if (process.env["SVC_E2E_DEBUG"]) page.on("request", (r) => console.log(`request: ${r.method()} ${r.url()}`));
  try {
    await page.goto(`${demo.url}/`);
    await page.waitForFunction(() => document.querySelector('script[type="module"]') !== null);
    await page.evaluate(() => {
      const w = window as unknown as { caretJumps: number };
      w.caretJumps = 0;
      document.addEventListener("keydown", (event) => {
        const t = event.target as HTMLInputElement;
        if ((t.tagName === "INPUT" || t.tagName === "TEXTAREA") && t.selectionStart !== t.value.length) w.caretJumps++;
      }, true);
    });
    await fn(page, demo);
    assert.deepEqual(errors, [], "no page errors");
  } finally {
    await page.close();
    demo.close();
    console.log(`e2e ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}

test(
  "G1: 500+ characters typed at human and burst speed into a normalised input, an auto-submitting search and a textarea all arrive, with no caret jump",
  { skip },
  async () => {
    await withPage("G1 typing", async (page, demo) => {
      const title = "Hello svc, typed at human speed. " + "AND THIS PART ARRIVES AS A BURST OF KEYS, ".repeat(4);
      const search = "an" + "d a burst of search letters";
      const body = "A textarea line typed slowly.\n" + "Then a long burst of text without pauses, all of which must arrive. ".repeat(4);
      await page.click("#title");
      await page.keyboard.type(title.slice(0, 33), { delay: 35 });
      await page.keyboard.type(title.slice(33));
      await page.click("#search");
      await page.keyboard.type(search.slice(0, 6), { delay: 60 });
      await page.keyboard.type(search.slice(6));
      await page.click("#body");
      await page.keyboard.type(body.slice(0, 30), { delay: 35 });
      await page.keyboard.type(body.slice(30));
      assert.ok(title.length + search.length + body.length >= 500);

      await eventually(async () => {
        const model = demo.model();
        assert.equal(model.title, title.toUpperCase());
        assert.equal(model.search, search);
        assert.equal(model.body, body);
        assert.equal(await value(page, "#title"), title.toUpperCase(), "the normalised value applies once acked");
        assert.equal(await value(page, "#search"), search);
        assert.equal(await value(page, "#body"), body);
        assert.equal(await page.textContent("#search-box small"), `${model.results.length} hits`);
      });
      assert.equal(
        await page.evaluate(() => (window as unknown as { caretJumps: number }).caretJumps),
        0,
        "the caret never moved away from the end",
      );
      assert.equal(await page.evaluate(() => document.activeElement?.id), "body");
      mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: join(OUTPUT, "demo.png"), fullPage: true });
    });
  },
);

test("a server-side clear after submit applies once the keystrokes are acked; a replaced form and a reset apply", { skip }, async () => {
  await withPage("submit, replace, reset", async (page, demo) => {
    await page.click("#title");
    await page.keyboard.type("buy milk");
    await page.keyboard.press("Enter");
    await eventually(async () => {
      assert.deepEqual(demo.model().saved, ["BUY MILK"]);
      assert.equal(await value(page, "#title"), "");
      assert.equal(await page.textContent("#saved"), "BUY MILK");
    });

    await page.click("#note");
    await page.keyboard.type("uncontrolled note");
    await page.keyboard.press("Enter");
    await eventually(async () => {
      assert.deepEqual(demo.model().notes, ["uncontrolled note"]);
      assert.equal(await page.textContent("#notes"), "uncontrolled note");
      assert.equal(await value(page, "#note"), "", "the replaced form's field is new and empty");
    });

    await page.click("#search");
    await page.keyboard.type("plum");
    await eventually(() => assert.equal(demo.model().search, "plum"));
    await page.click("#reset");
    await eventually(async () => {
      assert.equal(await value(page, "#search"), "");
      assert.equal(await page.textContent("#search-box small"), "0 hits");
    });
  });
});

test(
  "IME composition through CDP dispatches once after compositionend, and the Enter that confirms it does not send",
  { skip },
  async () => {
    await withPage("IME", async (page, demo) => {
      await page.click("#chat");
      await composeAndConfirm(page, demo);
    });
  },
);

test(
  "G2: typing and clicking a link at once delivers the final value before the navigation message; the unload beacon carries the CSRF token",
  { skip },
  async () => {
    await withPage("G2 and beacon", async (page, demo) => {
      const csrf = await page.$eval('meta[name="svc-csrf"]', (m) => m.getAttribute("content"));
      await page.click("#title");
      await page.keyboard.type("leaving now");
      await Promise.all([page.waitForURL(`${demo.url}/next`), page.click("#next")]);
      await eventually(() => {
        const messages = demo.received.map(([m]) => m);
        assert.ok(messages.includes("Navigate"), "the navigation message arrived");
        const lastTitle = demo.received.map(([m, a], i) => [m, a[0], i] as const).filter(([m]) => m === "SetTitle").pop();
        // The server upper-cases the title; when a pause in the typing lets its acked value reach the
        // field (docs/protocol.md#client-rules, rule 5), the rest is typed after "LEA": the same text.
        assert.equal(String(lastTitle?.[1]).toLowerCase(), "leaving now");
        assert.ok(lastTitle![2] < messages.indexOf("Navigate"), "the typed value came first");
        assert.equal(demo.model().title, "LEAVING NOW");
      });

      // On the next page (same session), type and leave at once: the pending value goes by beacon.
      await page.waitForFunction(() => document.getElementById("body") !== null);
      await page.click("#body");
      await page.keyboard.type("unsaved draft");
      await page.goto("about:blank");
      await eventually(() => {
        assert.equal(demo.model().body, "unsaved draft");
        const beacon = demo.posts.find((p) => Array.isArray(p.body["batch"]) && p.csrfHeader === null);
        assert.ok(beacon, "a batch without the CSRF header: the beacon");
        assert.equal(beacon.body["csrf"], csrf);
        assert.deepEqual((beacon.body["batch"] as { msg: string; args: unknown[] }[]).map((e) => [e.msg, e.args]), [["SetBody", [
          "unsaved draft",
        ]]]);
      });
    });
  },
);

test("a session-lost reply reloads the page into a new session", { skip }, async () => {
  await withPage("session lost", async (page, demo) => {
    await page.click("#inc");
    await eventually(async () => assert.equal(await page.textContent("#count"), "count 1"));
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    // The app ends the session: its reply is session-lost, and the page reloads.
    await Promise.all([page.waitForEvent("load"), page.click("#end")]);
    assert.ok(demo.received.some(([m]) => m === "End"));
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker), undefined, "the page reloaded");
    assert.equal(await page.textContent("#count"), "count 0", "a new session");
  });
});

test(
  "a broken stream resumes through Last-Event-ID: the browser reconnects by itself and gets the frames it missed, or a full render when they are gone",
  { skip },
  async () => {
    await withPage("resume", async (page, demo) => {
      await page.click("#inc");
      await eventually(async () => assert.equal(await page.textContent("#count"), "count 1"));
      // The frame of that click came over the stream too, so the browser's last event id is 1.
      await eventually(() => assert.ok(demo.subscribes.length >= 1));
      await sleep(200);

      // Another tab of the same session makes two frames while this tab's stream is down.
      const release = demo.dropStreams();
      const other = await page.context().newPage();
      try {
        await other.goto(`${demo.url}/`);
        for (const count of [2, 3]) {
          await other.click("#inc");
          await eventually(async () => assert.equal(await other.textContent("#count"), `count ${count}`));
        }
        assert.equal(await page.textContent("#count"), "count 1", "nothing reached the first tab yet");
        release();
        await eventually(async () => assert.equal(await page.textContent("#count"), "count 3"));
        assert.ok(demo.subscribes.includes("1"), `a reconnect named the last frame it got: ${JSON.stringify(demo.subscribes)}`);
        assert.equal(demo.renders(), 0, "the missed frames were replayed on the stream, not fetched as a render");

        // A gap longer than the session keeps frames for: the reconnect gets one full render.
        const releaseAgain = demo.dropStreams();
        for (let count = 4; count <= 24; count++) {
          await other.click("#inc");
          await eventually(async () => assert.equal(await other.textContent("#count"), `count ${count}`));
        }
        releaseAgain();
        await eventually(async () => assert.equal(await page.textContent("#count"), "count 24"));
        assert.ok(demo.subscribes.includes("3"), `the second reconnect named frame 3: ${JSON.stringify(demo.subscribes)}`);
        assert.equal(demo.renders(), 0, "the full render came on the stream");
      } finally {
        await other.close();
      }
    });
  },
);
