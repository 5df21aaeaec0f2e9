/**
 * The desktop mode in a real browser (docs/desktop.md): `svc-live desktop examples/desktop/app.ts`
 * as a child process, its window headless Chromium in app mode (--app) driven through CDP. The
 * page works (the split client on a token session); a plain request without the token, one with a
 * foreign Host, and requests from another origin are refused; closing the window ends the process.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import process from "node:process";
import { CHROMIUM, e2eSkipReason, eventually } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`# tests/e2e/desktop skipped: ${skip}`);

const root = new URL("../..", import.meta.url).pathname;
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A raw HTTP request, so that the Host header is the one given (fetch sets its own). */
function raw(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: options.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

const desktopFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith("svc-desktop-")).sort();

/** `svc-live desktop examples/desktop/app.ts` in headless Chromium, connected through CDP: its window's page. */
async function launchDesktop() {
  const { chromium } = await import("playwright-core");
  const cdpPort = await freePort();
  const child = spawn(process.execPath, ["bin/svc-live.js", "desktop", "examples/desktop/app.ts"], {
    cwd: root,
    env: {
      ...process.env,
      SVC_DESKTOP_BROWSER: CHROMIUM,
      SVC_DESKTOP_BROWSER_ARGS:
        `--headless=new --no-sandbox --disable-gpu --disable-background-networking --remote-debugging-port=${cdpPort}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const run = { output: "" };
  child.stdout!.on("data", (chunk: Buffer) => (run.output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (run.output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await eventually(() => assert.match(run.output, /svc-live desktop: Notes at http:\/\/127\.0\.0\.1:\d+\//), 20_000);
  const port = Number(/127\.0\.0\.1:(\d+)/.exec(run.output)![1]);
  let browser: Awaited<ReturnType<typeof chromium.connectOverCDP>> | undefined;
  await eventually(async () => {
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`);
  }, 20_000);
  const context = browser!.contexts()[0]!;
  await eventually(() => assert.ok(context.pages().some((p) => p.url().startsWith(`http://127.0.0.1:${port}/`))), 20_000);
  const page = context.pages().find((p) => p.url().startsWith(`http://127.0.0.1:${port}/`))!;
  await page.waitForSelector("#count", { timeout: 10_000 });
  /** The process's exit code, or "timeout" after 20 s. */
  const exitCode = () => Promise.race([exited, new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 20_000))]);
  return { run, port, browser: browser!, context, page, child, exitCode };
}

test("svc-live desktop: the window works, only it can act, and closing it ends the process", { skip, timeout: 90_000 }, async () => {
  const foldersBefore = desktopFolders();
  const { run, port, browser, context, page, child, exitCode } = await launchDesktop();

  // The page works: the split client on the window's token session.
  await page.waitForSelector("#count", { timeout: 10_000 });
  assert.equal(await page.textContent("#count"), "0 notes");
  await page.fill("input[name=draft]", "first note");
  await page.click("button[type=submit]");
  await page.waitForFunction(() => document.querySelector("#count")?.textContent === "1 note", null, { timeout: 10_000 });
  assert.match((await page.textContent("ul")) ?? "", /first note/);
  assert.equal(new URL(page.url()).hash, "", "the launch token left the address at once");
  assert.doesNotMatch(run.output, /#|eyJ/, "neither the launch token nor a session token is logged");
  const token = await page.evaluate(() => document.querySelector<HTMLMetaElement>('meta[name="svc-session-token"]')?.content ?? "");
  assert.ok(token, "the window's page holds its session token");

  // A plain request without the token: no app data, no session.
  const plainPage = await raw(port, "/", {});
  assert.equal(plainPage.status, 200);
  assert.doesNotMatch(plainPage.body, /first note|notes?</, "the bootstrap page holds no app data");
  const plainEvent = await raw(port, "/_svc/event", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: '{"seq":1,"msg":"Quit"}',
  });
  assert.equal(plainEvent.status, 404);
  assert.equal(plainEvent.headers["x-svc-status"], "session-lost");
  assert.equal((await raw(port, "/_svc/render", {})).status, 404);
  const spentLaunch = await raw(port, "/", { headers: { "X-Svc-Launch": "x".repeat(43) } });
  assert.equal(spentLaunch.status, 403);

  // A foreign Host (DNS rebinding), even with the window's token: refused.
  for (const host of ["evil.example", `evil.example:${port}`, `localhost:${port}`]) {
    const foreign = await raw(port, "/_svc/render", { headers: { Host: host, "X-Svc-Session": token } });
    assert.equal(foreign.status, 403, host);
  }
  // Another origin, even with the window's token: refused.
  const crossOrigin = await raw(port, "/_svc/event", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://evil.example", "X-Svc-Session": token },
    body: JSON.stringify({ seq: 50, msg: "Quit" }),
  });
  assert.equal(crossOrigin.status, 403);

  // And from a page of another origin in the browser: the browser does not let it send the header,
  // and a request without it is refused; the window's notes are unchanged.
  const other = await context.newPage();
  await other.goto("about:blank");
  const fromOther = await other.evaluate(async ({ port, token }) => {
    const results: string[] = [];
    try {
      const resp = await fetch(`http://127.0.0.1:${port}/_svc/event`, {
        method: "POST",
        headers: { "X-Svc-Session": token, "Content-Type": "application/json" },
        body: JSON.stringify({ seq: 60, msg: "Quit" }),
      });
      results.push(`status ${resp.status}`);
    } catch {
      results.push("blocked");
    }
    try {
      await fetch(`http://127.0.0.1:${port}/_svc/event`, {
        method: "POST",
        mode: "no-cors",
        body: JSON.stringify({ seq: 61, msg: "Quit" }),
      });
      results.push("sent");
    } catch {
      results.push("blocked");
    }
    return results;
  }, { port, token });
  assert.equal(fromOther[0], "blocked", "a cross-origin request with the header is stopped by its preflight");
  await other.close();
  assert.equal(await page.textContent("#count"), "1 note", "nothing from another origin reached the session");
  assert.equal(child.exitCode, null, "still running");

  // Closing the window ends the session and the process.
  await page.close();
  assert.equal(await exitCode(), 0, `the process ended when the window closed:\n${run.output}`);
  await browser.close().catch(() => {});
  assert.deepEqual(desktopFolders(), foldersBefore, "the private folder (profile, launch file) was removed");
});

test(
  "svc-live desktop: the app ending its session (Quit) closes the window's session and ends the process",
  { skip, timeout: 90_000 },
  async () => {
    const { run, browser, page, exitCode } = await launchDesktop();
    await page.click("#quit");
    // Live.endSession answers 205: the page reloads, without a token, into the bootstrap page.
    await page.waitForFunction(() => document.getElementById("svc-desktop")?.textContent?.includes("start the app again"), null, {
      timeout: 10_000,
    });
    assert.equal(await exitCode(), 0, `the process ended with the session:\n${run.output}`);
    await browser.close().catch(() => {});
  },
);
