/**
 * Live.desktop on Node, Bun and Deno (docs/desktop.md), with a stand-in window
 * (tests/desktop/fake-window.mjs) in place of the browser: it is started with the launch file, not
 * the token; the launch token gets the page once; the window's session acts; the window closing
 * (its process exiting, or its stream closing and not coming back) ends the session, stops the
 * window and removes the private folder. The real-browser run is tests/e2e/desktop.test.ts.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Live, Secret, Ui } from "../../src/mod.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";

const FAKE_WINDOW = new URL("./fake-window.mjs", import.meta.url).pathname;
const apps: LiveApp<{ n: number }>[] = [];
const scratch = mkdtempSync(join(tmpdir(), "svc-desktop-test-"));
after(() => {
  apps.forEach((a) => a.close());
  rmSync(scratch, { recursive: true, force: true });
});

function counter(session: "token" | "cookie" = "token") {
  const app = Live.app<{ n: number }>(
    {
      init: () => ({ n: 0 }),
      update: (model) => ({ n: model.n + 1 }),
      view: (model) => Ui.h("main", {}, Ui.h("p", {}, `count ${model.n}`), Ui.h("button", { onClick: "Inc" }, "+")),
    },
    { session, title: "Counter", secret: Secret.fromString("desktop-test-secret-desktop-test-secret-01") },
  );
  apps.push(app);
  return app;
}

type Seen = {
  argv: string[];
  bootstrap: { status: number; html: string };
  page: { status: number; html: string; referrerPolicy: string | null };
  again: number;
  stream: number;
  event: { status: number; body: string };
  frames: string;
};

async function run(close: "exit" | "stream") {
  const out = join(scratch, `seen-${close}.json`);
  process.env.FAKE_WINDOW_OUT = out;
  process.env.FAKE_WINDOW_CLOSE = close;
  const app = counter();
  const running = await Live.desktop(app, {
    window: "browser",
    browser: FAKE_WINDOW,
    browserArgs: ["--fake"],
    exitOnClose: false,
    closeGraceMs: 200,
  });
  await running.closed;
  const seen = JSON.parse(readFileSync(out, "utf8")) as Seen;
  return { app, running, seen };
}

describe("Live.desktop", () => {
  for (const close of ["exit", "stream"] as const) {
    test(`the window gets its session once through the launch file and acts; ${close === "exit" ? "its process exiting" : "its stream closing"} ends the session`, async () => {
      const { app, running, seen } = await run(close);
      const launchArg = seen.argv.find((arg) => arg.startsWith("--app="))!;
      assert.match(launchArg, /^--app=file:\/\/\/.*\/launch\.html$/, "the window starts on the launch file");
      assert.ok(!seen.argv.some((arg) => arg.includes("#")), "no token on the command line");
      assert.ok(seen.argv.includes("--fake"), "the extra arguments follow");
      const profile = seen.argv.find((arg) => arg.startsWith("--user-data-dir="))!.slice("--user-data-dir=".length);
      assert.equal(existsSync(profile), false, "the private folder is removed");
      assert.equal(seen.bootstrap.status, 200);
      assert.doesNotMatch(seen.bootstrap.html, /count \d/, "the bootstrap page holds no app data");
      assert.equal(seen.page.status, 200);
      assert.match(seen.page.html, /count 0/);
      assert.equal(seen.page.referrerPolicy, "no-referrer");
      assert.equal(seen.again, 403, "the launch token works once");
      assert.equal(seen.stream, 200);
      assert.equal(seen.event.status, 200, seen.event.body);
      assert.match(seen.event.body, /"seq":1/);
      assert.match(seen.frames, /event: (patch|sync)/);
      assert.equal(app.sessions.size, 0, "the window's session ended");
      assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const refused = await fetch(running.url).catch(() => undefined);
      assert.equal(refused, undefined, "the app no longer serves");
    });
  }

  test("an app without token sessions, and a bad option, are refused before anything starts", async () => {
    await assert.rejects(Live.desktop(counter("cookie")), TypeError);
    await assert.rejects(Live.desktop(counter(), { window: "tab" as "browser" }), TypeError);
    await assert.rejects(Live.desktop(counter(), { closeGraceMs: -1 }), TypeError);
    await assert.rejects(
      Live.desktop(counter(), { window: "browser", browser: join(scratch, "no-such-browser"), exitOnClose: false }),
      /cannot start the browser/,
    );
  });

  test("svc-live desktop stopped by SIGINT closes the window, ends the session and removes its folder", {
    skip: "Bun" in globalThis || "Deno" in globalThis ? "starts the command as a Node child process: Node only" : undefined,
  }, async () => {
    const out = join(scratch, "seen-hold.json");
    const module = join(scratch, "held-app.ts");
    const src = new URL("../../src/mod.ts", import.meta.url).pathname;
    writeFileSync(
      module,
      `import { Live, Ui } from ${JSON.stringify(src)};\n` +
        `export default Live.app({ init: () => 0, update: (n) => n + 1, view: (n) => Ui.h("button", { onClick: "Inc" }, String(n)) }, { session: "token" });\n`,
    );
    const bin = new URL("../../bin/svc-live.js", import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, "desktop", module, "--browser", FAKE_WINDOW, "--window", "browser"], {
      env: { ...process.env, FAKE_WINDOW_OUT: out, FAKE_WINDOW_CLOSE: "hold" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    for (let i = 0; i < 200 && !existsSync(out); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const seen = JSON.parse(readFileSync(out, "utf8")) as Seen;
    assert.equal(seen.event.status, 200, output);
    const profile = seen.argv.find((arg) => arg.startsWith("--user-data-dir="))!.slice("--user-data-dir=".length);
    assert.equal(existsSync(profile), true, "the window is open");
    child.kill("SIGINT");
    assert.equal(await exited, 130, output);
    assert.equal(existsSync(profile), false, "the private folder is removed");
  });
});
