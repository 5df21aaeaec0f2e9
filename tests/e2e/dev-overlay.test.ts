// In Chromium (playwright-core): an app error shows the development overlay, with the error's
// message, the code frame of the app's source, the stack and the id of the server's log line, and
// the user can dismiss it; an app built with the production gate on shows none of that, only the
// failure notice with the log line's id, and logs all the same
// (docs/live-apps.md#mistakes-are-loud-in-development).
//
// Skipped, with the reason printed, under Bun and Deno and when /usr/bin/chromium is missing.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Live, setLogSink, Ui } from "../../src/mod.ts";
import { withEnv } from "../support/env.ts";
import { e2eSkipReason, eventually, sharedBrowser } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e skipped: ${skip}`);
const browser = sharedBrowser("svc-e2e-overlay-", skip);

const lines: string[] = [];
const previousSink = setLogSink((level, line) => lines.push(`${level} ${line}`));
after(() => setLogSink(previousSink));

type Messages = { Inc: []; Boom: [] };
const definition = {
  init: () => 0,
  update: (n: number, msg: "Inc" | "Boom", _args: []) => {
    if (msg === "Boom") throw new RangeError("the counter cannot explode");
    return n + 1;
  },
  view: (n: number) =>
    Ui.h(
      "main",
      {},
      Ui.h("output", { id: "n" }, String(n)),
      Ui.h("button", { id: "inc", onClick: "Inc" }, "+"),
      Ui.h("button", { id: "boom", onClick: "Boom" }, "boom"),
    ),
};

/** The app built under `env`, served on 127.0.0.1. */
async function serve(env: Record<string, string | undefined>) {
  const app = await withEnv(env, () => Live.app<number, Messages>(definition));
  const { serve } = await import("@hono/node-server");
  const server = serve({ hostname: "127.0.0.1", port: 0, fetch: app.fetch });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/`, close: () => (server.close(), app.close()) };
}

test("development: an app error shows an overlay with the message and the log line's id, until dismissed", { skip }, async () => {
  const served = await serve({ ENV: undefined, NODE_ENV: undefined });
  const page = await (await browser()).newPage();
  try {
    await page.goto(served.url);
    await page.click("#boom");
    const overlay = page.locator("#svc-error-overlay");
    await overlay.waitFor({ state: "visible" });
    const text = (await overlay.innerText()).trim();
    assert.match(text, /update\("Boom"\) failed: RangeError: the counter cannot explode/);
    // The code frame marks this file's throwing line; the stack follows it.
    const frame = await overlay.locator(".svc-code-frame").innerText();
    assert.match(frame, /dev-overlay\.test\.ts:\d+:\d+/);
    assert.match(frame, /^> *\d+ \| .*throw new RangeError\("the counter cannot explode"\)/m);
    assert.match(await overlay.locator(".svc-stack").innerText(), /RangeError: the counter cannot explode\n\s+at /);
    const id = /id=([0-9a-f]{12})/.exec(text)?.[1];
    assert.ok(id !== undefined, text);
    assert.ok(lines.some((line) => line.startsWith(`ERROR live.update failed id=${id} msg="Boom"`)), "the id is the log line's");
    // The page still works under the overlay, and the overlay goes when dismissed.
    await page.click("#inc");
    await eventually(async () => assert.equal(await page.textContent("#n"), "1"));
    await page.click("#svc-error-overlay button");
    await overlay.waitFor({ state: "detached" });
  } finally {
    await page.close();
    served.close();
  }
});

test(
  "production: an app error is logged, and the page shows no overlay, gets no detail, and shows the notice with the log id",
  { skip },
  async () => {
    const served = await serve({
      ENV: undefined,
      NODE_ENV: "production",
      SVC_AUTH_TOKEN_SECRET: "production-overlay-test-secret-0123456789",
    });
    const page = await (await browser()).newPage();
    try {
      await page.goto(served.url);
      const before = lines.length;
      const reply = page.waitForResponse((resp) => resp.url().includes("/_svc/event"));
      await page.click("#boom");
      const resp = await reply;
      assert.equal(resp.status(), 500);
      const body = (await resp.json()) as Record<string, unknown>;
      assert.equal(body["report"], undefined, "no detail leaves the server in production");
      await eventually(() =>
        assert.ok(lines.slice(before).some((line) => line.includes("live.update failed") && line.includes('msg="Boom"')))
      );
      // The client has read the reply (it logs the refusal) before this looks for the overlay.
      await page.click("#inc");
      await eventually(async () => assert.equal(await page.textContent("#n"), "1"));
      assert.equal(await page.locator("#svc-error-overlay").count(), 0);
      const notice = page.locator("#svc-failure-notice");
      await notice.waitFor({ state: "visible" });
      assert.equal((await notice.innerText()).trim(), `Something went wrong. Reference: ${body["logId"]}`);
      assert.match(String(body["logId"]), /^[0-9a-f]{12}$/);
      await notice.click();
      await notice.waitFor({ state: "detached" });
    } finally {
      await page.close();
      served.close();
    }
  },
);
