// The README's two apps, exactly as printed, in a real browser (Chromium through playwright-core):
// the code blocks are read out of README.md when the test runs and written into a project folder of
// their own, beside what `svc-live init` writes (env.ts, .env, server.ts, a tsconfig.json with the
// TSX settings, "svc-live" mapped to this checkout's sources), and each is run as its own server
// process, as a user starts it. So a change to the README that breaks its app breaks this test. The
// to-do app: type, add, toggle (the "(n left)" count follows the checkbox both ways), remove. The
// Hono example: sign in, type, add, remove. tests/e2e/hono-app.test.ts drives
// examples/hono-app/app.tsx, which tests/examples/hono-app.test.ts holds to the README's block.
//
// Skipped, with the reason printed, under Bun and Deno and when /usr/bin/chromium is missing.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { e2eSkipReason, eventually, sharedBrowser } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e skipped: ${skip}`);

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const browser = sharedBrowser("svc-e2e-readme-", skip);

/** The one code block of README.md in `lang` that holds `marker`, as printed. */
function readmeBlock(lang: string, marker: string): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const blocks = [...readme.matchAll(new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```$", "gm"))].map((m) => m[1]!);
  const found = blocks.filter((block) => block.includes(marker));
  assert.equal(found.length, 1, `README.md has one \`\`\`${lang} block holding ${marker}`);
  return found[0]!;
}

const projects: string[] = [];
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) child.kill();
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

/**
 * A project folder holding `files`, an ES module package with the TSX settings init's tsconfig has, "svc-live" mapped to
 * this checkout's sources, and this checkout's node_modules (hono, @hono/node-server).
 */
function project(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-readme-app-"));
  projects.push(dir);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  const src = (path: string) => [join(REPO, "src", path)];
  const paths = {
    "svc-live": src("mod.ts"),
    "svc-live/jsx-runtime": src("jsx/jsx-runtime.ts"),
    "svc-live/jsx-dev-runtime": src("jsx/jsx-dev-runtime.ts"),
  };
  const compilerOptions = {
    strict: true,
    jsx: "react-jsx",
    jsxImportSource: "svc-live",
    allowImportingTsExtensions: true,
    noEmit: true,
    paths,
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

type Served = { readonly url: string; readonly close: () => void };

/** Runs `main` of the project in `dir` on Node with a TypeScript loader, and waits for the URL it prints. */
async function start(dir: string, main: string, env: Readonly<Record<string, string>> = {}): Promise<Served> {
  const loader = pathToFileURL(join(REPO, "node_modules/tsx/dist/loader.mjs")).href;
  const child = spawn(process.execPath, ["--import", loader, main], {
    cwd: dir,
    env: { ...process.env, ...env, PORT: "0" },
    stdio: "pipe",
  });
  children.push(child);
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${main} printed no URL in 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /http:\/\/(?:localhost|127\.0\.0\.1):(\d+)/.exec(output);
      if (found !== null) (clearTimeout(timer), resolve(`http://127.0.0.1:${found[1]}`));
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`${main} exited (${code}):\n${output}`))));
  });
  return { url, close: () => child.kill() };
}

async function withPage(served: Served, fn: (page: Page, url: string) => Promise<void>): Promise<void> {
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

const rows = (page: Page) => page.$$eval("li", (lis) => lis.map((li) => (li as HTMLElement).innerText.trim()));

async function add(page: Page, text: string): Promise<void> {
  await page.click("input[name=draft]");
  await page.keyboard.type(text, { delay: 20 });
  await page.keyboard.press("Enter");
  await eventually(async () => assert.ok((await rows(page)).some((row) => row.startsWith(text)), `a row for ${text}`));
}

test("the README's to-do app, as printed: type, add, toggle both ways, remove", { skip }, async () => {
  // app.ts as printed, beside what `svc-live init` writes: env.ts, a .env holding the secret, server.ts.
  const dir = project({
    "app.ts": readmeBlock("ts", "const todoRow"),
    "env.ts": readFileSync(join(REPO, "src/cli/template/env.ts.txt"), "utf8"),
    ".env": `SVC_AUTH_TOKEN_SECRET=${"readme-to-do-e2e-secret-".padEnd(48, "0")}\n`,
    "server.ts": readFileSync(join(REPO, "src/cli/template/server.ts.txt"), "utf8").replaceAll("{{name}}", "readme-to-do"),
  });
  await withPage(await start(dir, "server.ts"), async (page, url) => {
    await page.goto(url);
    assert.equal(await page.textContent("h1"), "To-dos (0 left)");
    await add(page, "milk");
    await add(page, "bread");
    await eventually(async () => assert.equal(await page.textContent("h1"), "To-dos (2 left)"));
    assert.equal(await page.inputValue("input[name=draft]"), "", "the draft is cleared after Add");

    await page.check("li:first-child input[type=checkbox]");
    await eventually(async () => assert.equal(await page.textContent("h1"), "To-dos (1 left)"));
    await page.uncheck("li:first-child input[type=checkbox]");
    await eventually(async () => assert.equal(await page.textContent("h1"), "To-dos (2 left)"));
    await page.check("li:last-child input[type=checkbox]");
    await eventually(async () => assert.equal(await page.textContent("h1"), "To-dos (1 left)"));

    await page.click("li:first-child button");
    await eventually(async () => assert.deepEqual(await rows(page), ["bread ✕"]));
    assert.equal(await page.textContent("h1"), "To-dos (0 left)", "the one left is done");
    assert.equal(await page.isChecked("li:first-child input[type=checkbox]"), true);
  });
});

test("the README's Hono example, as printed: sign in, type, add, remove", { skip }, async () => {
  // The README's block as app.tsx, beside the example's server.ts.
  const dir = project({
    "app.tsx": readmeBlock("tsx", "export function createApp"),
    "server.ts": readFileSync(join(REPO, "examples/hono-app/server.ts"), "utf8"),
  });
  const secret = { SVC_AUTH_TOKEN_SECRET: "readme-hono-e2e-secret-0123456789abcdef0123" };
  await withPage(await start(dir, "server.ts", secret), async (page, url) => {
    await page.goto(`${url}/todos`);
    assert.equal(new URL(page.url()).pathname, "/", "the guard sent the signed-out visitor to sign in");
    await page.fill("input[name=name]", "Ada");
    await page.click("button");
    await page.waitForURL(`${url}/todos`);
    assert.equal(await page.textContent("h1"), "Ada's to-dos");
    await add(page, "Buy milk");
    await add(page, "Write the report");
    await eventually(async () => assert.equal(await page.inputValue("input[name=draft]"), ""));
    await page.click("li:first-child button");
    await eventually(async () => assert.deepEqual(await rows(page), ["Write the report ✕"]));
  });
});
