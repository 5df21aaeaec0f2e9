// The README's Hono example (examples/hono-app/app.tsx) in a real browser (Chromium through
// playwright-core): sign in through the Hono route, land on the live TSX page the app mounted at
// /todos with app.route, type and click. A second live app mounted with app.mount under /m shows
// the client finding a prefix the server never sees (docs/protocol.md#mounting).
//
// Skipped, with the reason printed, under Bun and Deno and when /usr/bin/chromium is missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { Secret } from "../../src/mod.ts";
import { createApp } from "../../examples/hono-app/app.tsx";
import { counterApp } from "./counter.tsx";
import { e2eSkipReason, eventually, sharedBrowser } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e skipped: ${skip}`);

const browser = sharedBrowser("svc-e2e-hono-", skip);

/** The example app, plus a counter written in TSX mounted with app.mount, on 127.0.0.1. */
async function serveExample() {
  const { serve } = await import("@hono/node-server");
  const { app, todos } = createApp(Secret.fromString("hono-app-e2e-secret-0123456789abcdef0123"));
  const counter = counterApp();
  app.mount("/m", counter.fetch);
  const server = serve({ hostname: "127.0.0.1", port: 0, fetch: app.fetch });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => (server.close(), todos.close(), counter.close()) };
}

async function withPage(fn: (page: Page, url: string) => Promise<void>): Promise<void> {
  const served = await serveExample();
  const ctx = await browser();
  await ctx.clearCookies();
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("response", (resp) => resp.status() >= 400 && errors.push(`${resp.status()} ${resp.url()}`));
  try {
    await fn(page, served.url);
    assert.deepEqual(errors, [], "no page errors and no failed requests");
  } finally {
    await page.close();
    served.close();
  }
}

test("sign in through a Hono route, then type and click on the live TSX page mounted at /todos", { skip }, async () => {
  await withPage(async (page, url) => {
    await page.goto(`${url}/todos`);
    assert.equal(new URL(page.url()).pathname, "/", "the guard sent the signed-out visitor to sign in");
    await page.fill("input[name=name]", "Ada");
    await page.click("button");
    await page.waitForURL(`${url}/todos`);
    assert.equal(await page.textContent("h1"), "Ada's to-dos");
    for (const text of ["Buy milk", "Write the report"]) {
      await page.click("#draft, input[name=draft]");
      await page.keyboard.type(text, { delay: 20 });
      await page.click("button[type=submit]");
      await eventually(async () =>
        assert.ok((await page.$$eval("li", (lis) => lis.map((li) => li.textContent))).some((t) => t?.includes(text)))
      );
    }
    await eventually(async () => assert.equal(await page.inputValue("input[name=draft]"), ""));
    await page.click("li:first-child button");
    await eventually(async () =>
      assert.deepEqual(await page.$$eval("li", (lis) => lis.map((li) => (li as HTMLElement).innerText.trim())), ["Write the report ✕"])
    );
  });
});

test("a TSX app mounted with app.mount under /m works from /m and from a deeper page", { skip }, async () => {
  await withPage(async (page, url) => {
    for (const path of ["/m", "/m/deep/page"]) {
      await page.goto(`${url}${path}`);
      const before = Number(await page.textContent("#n"));
      await page.click("#inc");
      await page.click("#inc");
      await eventually(async () => assert.equal(Number(await page.textContent("#n")), before + 2));
    }
  });
});
