// In Chromium (playwright-core): `svc-live dev server.ts` on a temporary app
// (docs/live-apps.md#development), on Node, Bun and Deno, each serving the app with its own server
// and restarting it with its own watch. Saving a change restarts the server and the open page
// shows it without a manual reload; a view that throws on page load shows the error page with the
// code frame of the app's source, and a fix saved brings the page back; with NODE_ENV=production a
// failed load shows only the short notice with the log line's id.
//
// Skipped, with the reason printed, under Bun and Deno and when /usr/bin/chromium is missing; a
// runtime that cannot be started here (Bun from the dev dependency, Deno through npx) skips its
// own test with the reason.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { e2eSkipReason, eventually, sharedBrowser } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e skipped: ${skip}`);
const browser = sharedBrowser("svc-e2e-devloop-", skip);

const repo = new URL("../..", import.meta.url).pathname;
const library = new URL("../../src/mod.ts", import.meta.url).href;

type Runtime = "node" | "bun" | "deno";

/** How each runtime runs the svc-live command, or why it cannot run here. */
const DENO = ["--yes", "deno@2.9.6"];
const BUN = join(repo, "node_modules/.bin/bun");
const launchers = new Map<Runtime, { command: string; args: string[] } | string>();
function launcher(runtime: Runtime): { command: string; args: string[] } | string {
  if (!launchers.has(runtime)) launchers.set(runtime, findLauncher(runtime));
  return launchers.get(runtime)!;
}
function findLauncher(runtime: Runtime): { command: string; args: string[] } | string {
  if (runtime === "node") return { command: process.execPath, args: [] };
  if (runtime === "bun") return existsSync(BUN) ? { command: BUN, args: [] } : `no ${BUN} (the bun dev dependency)`;
  const probe = spawnSync("npx", [...DENO, "--version"], { encoding: "utf8", timeout: 120_000 });
  return probe.status === 0 ? { command: "npx", args: [...DENO, "run", "-A"] } : `npx deno@2.9.6 did not start: ${probe.stderr}`;
}

/** Each runtime's own server for the app's fetch. */
const SERVE: Record<Runtime, { imports: string[]; serve: string }> = {
  node: {
    imports: [`import { serve } from "@hono/node-server";`],
    serve: `serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT) });`,
  },
  bun: { imports: [], serve: `Bun.serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT) });` },
  deno: { imports: [], serve: `Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")) }, app.fetch);` },
};

/** A server module: a live app whose view shows `text`, or throws when `text` is undefined. */
function serverSource(text: string | undefined, runtime: Runtime = "node"): string {
  const view = text === undefined
    ? `() => {\n    throw new RangeError("the view is broken on purpose");\n  }`
    : `() => Ui.h("main", {}, Ui.h("h1", { id: "says" }, ${JSON.stringify(text)}))`;
  return [
    ...SERVE[runtime].imports,
    `import { Live, Ui } from ${JSON.stringify(library)};`,
    ``,
    `const app = Live.app<number>({`,
    `  init: () => 0,`,
    `  update: (n: number) => n,`,
    `  view: ${view},`,
    `});`,
    SERVE[runtime].serve,
    ``,
  ].join("\n");
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const started: ChildProcess[] = [];
const dirs: string[] = [];
after(() => {
  // The whole group: svc-live dev, the runtime's watcher and the server it restarts.
  for (const child of started) if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A temporary app folder with server.ts showing `text`, and `svc-live dev server.ts` running on it under `runtime`. */
async function devServer(text: string | undefined, options: { env?: Record<string, string>; runtime?: Runtime } = {}) {
  const runtime = options.runtime ?? "node";
  const run = launcher(runtime);
  assert.ok(typeof run !== "string", run as string);
  const dir = mkdtempSync(join(tmpdir(), "svc-dev-loop-"));
  dirs.push(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"));
  writeFileSync(join(dir, "server.ts"), serverSource(text, runtime));
  const port = await freePort();
  const { NODE_ENV: _, ENV: __, ...inherited } = process.env;
  const child = spawn(run.command, [...run.args, join(repo, "bin/svc-live.js"), "dev", "server.ts"], {
    cwd: dir,
    env: { ...inherited, PORT: String(port), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => output += chunk);
  child.stderr!.on("data", (chunk) => output += chunk);
  const url = `http://127.0.0.1:${port}/`;
  await eventually(async () => {
    const resp = await fetch(url).catch(() => undefined);
    assert.ok(resp !== undefined, `the dev server answers (output so far: ${output})`);
  }, 60_000);
  return {
    url,
    write: (next: string | undefined) => writeFileSync(join(dir, "server.ts"), serverSource(next, runtime)),
    output: () => output,
  };
}

for (const runtime of ["node", "bun", "deno"] as const) {
  const unavailable = skip ?? (runtime === "node" ? undefined : (() => {
    const run = launcher(runtime);
    return typeof run === "string" ? run : undefined;
  })());
  if (unavailable !== undefined && skip === undefined) console.log(`svc-live dev on ${runtime} skipped: ${unavailable}`);
  test(
    `svc-live dev on ${runtime}: a saved change shows in the open page without a manual reload, a throwing view shows the error page with its code frame, and a fix brings the page back`,
    { skip: unavailable },
    () => savedChangesShow(runtime),
  );
}

async function savedChangesShow(runtime: Runtime): Promise<void> {
  const dev = await devServer("version one", { runtime });
  const page = await (await browser()).newPage();
  try {
    await page.goto(dev.url);
    assert.equal(await page.textContent("#says"), "version one");
    dev.write("version two");
    await eventually(async () => assert.equal(await page.textContent("#says").catch(() => null), "version two"), 60_000);

    dev.write(undefined);
    await eventually(async () => assert.equal(await page.locator("#svc-code-frame").count(), 1), 60_000);
    const frame = await page.textContent("#svc-code-frame");
    assert.match(frame ?? "", /^> *\d+ \| +throw new RangeError\("the view is broken on purpose"\);/m);
    assert.match(await page.textContent("#svc-error-message") ?? "", /RangeError: the view is broken on purpose/);
    assert.match(await page.textContent("#svc-stack") ?? "", /server\.ts:\d+:\d+/);

    dev.write("version three");
    await eventually(async () => assert.equal(await page.textContent("#says").catch(() => null), "version three"), 60_000);
  } finally {
    await page.close();
  }
}

test("with NODE_ENV=production a view that throws on page load shows only the short notice with the log line's id", { skip }, async () => {
  const dev = await devServer(undefined, {
    env: { NODE_ENV: "production", SVC_AUTH_TOKEN_SECRET: "dev-loop-production-secret-0123456789abcdef" },
  });
  const page = await (await browser()).newPage();
  try {
    const resp = await page.goto(dev.url);
    assert.equal(resp?.status(), 500);
    const notice = (await page.textContent("#svc-failed-page"))?.trim() ?? "";
    const id = /^Something went wrong\. Reference: ([0-9a-f]{12})$/.exec(notice)?.[1];
    assert.ok(id !== undefined, notice);
    await eventually(() => assert.match(dev.output(), new RegExp(`live\\.page failed id=${id}`)));
    assert.equal(await page.locator("#svc-code-frame, #svc-stack").count(), 0);
    assert.ok(!(await page.content()).includes("broken on purpose"), "nothing of the error in production");
  } finally {
    await page.close();
  }
});
