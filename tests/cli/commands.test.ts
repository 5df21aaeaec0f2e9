// The command line as a user runs it (bin/svc-live.js, src/cli/main.ts): --version; doctor on a
// module that builds its live app through a factory and serves it (it inspects, never serves,
// and exits); the app init writes type-checks under its own strict tsconfig.json, a TSX view
// included; and that app, started on a port already taken, says so and names PORT.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fileSystem } from "../../src/runtime/fs.ts";
import { init } from "../../src/cli/init.ts";
import { main } from "../../src/cli/main.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]+$/, "");
const BIN = join(REPO, "bin", "svc-live.js");
const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
const scratch = mkdtempSync(join(tmpdir(), "svc-cli-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const SECRET = "cli-test-secret-0123456789abcdef0123456789";

/** Runs bin/svc-live.js as a program under this runtime, in `cwd`. */
function svcLive(args: readonly string[], cwd = REPO, env: Record<string, string> = {}) {
  const argv = runtime === "Deno" ? ["run", "-A", BIN, ...args] : [BIN, ...args];
  return spawnSync(process.execPath, argv, {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, SVC_AUTH_TOKEN_SECRET: SECRET, NODE_ENV: "development", ENV: "", ...env },
  });
}

/** A generated app with node_modules linked to this checkout: svc-live's sources and its dependencies. */
async function generatedApp(name: string): Promise<string> {
  const dir = join(scratch, name);
  const done = await init(fileSystem, dir);
  assert.ok(done.ok, done.ok ? "" : done.error.message);
  const modules = join(dir, "node_modules");
  const shim = join(modules, "svc-live");
  mkdirSync(shim, { recursive: true });
  symlinkSync(join(REPO, "src"), join(shim, "src"), "dir");
  symlinkSync(join(REPO, "node_modules"), join(shim, "node_modules"), "dir");
  writeFileSync(
    join(shim, "package.json"),
    JSON.stringify({
      name: "svc-live",
      type: "module",
      exports: { ".": "./src/mod.ts", "./jsx-runtime": "./src/jsx/jsx-runtime.ts", "./jsx-dev-runtime": "./src/jsx/jsx-dev-runtime.ts" },
    }),
  );
  for (const dep of ["hono", "@hono", "@types", "tsx", "typescript"]) {
    symlinkSync(join(REPO, "node_modules", dep), join(modules, dep), "dir");
  }
  return dir;
}

test("svc-live --version prints the package's version and exits 0", () => {
  const version = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
  for (const flag of ["--version", "-v", "version"]) {
    const result = svcLive([flag]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), version, flag);
  }
});

test("doctor on a server entry that builds its app through a factory finds the app, serves nothing and exits", async () => {
  // examples/hono-app/server.ts calls createApp() and serve() at import; PORT names a port the
  // test holds, so serving would fail loudly (exit 1, "already in use") if doctor let it happen.
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "0.0.0.0", resolve));
  const port = (holder.address() as { port: number }).port;
  const result = svcLive(["doctor", "examples/hono-app/server.ts"], REPO, { PORT: String(port) });
  holder.close();
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /already in use/);
  assert.match(result.stdout, /production: the production gate is off, development \(read NODE_ENV=development\)/);
  assert.match(result.stdout, /gate: the live app built on import \(1\): the revocation gate is off/);
  assert.doesNotMatch(result.stdout, /the Hono example on http/, "the server entry did not serve");
});

test("doctor on a module that only exports a factory says how to point it at the app", () => {
  const result = svcLive(["doctor", "examples/hono-app/app.tsx"], REPO, { NODE_ENV: "production" });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /production: the production gate is on \(read NODE_ENV=production\)/);
  assert.match(
    result.stdout,
    /no live app found in the module: createApp is a function that doctor does not call: point doctor at the module that calls it/,
  );
});

test("the command line knows --version and lists it in its usage", async () => {
  const out: string[] = [];
  assert.equal(await main(["--help"], { out: (line) => out.push(line), err: () => {} }), 0);
  assert.match(out.join("\n"), /svc-live --version/);
});

test("the app init writes type-checks with its strict tsconfig.json, a TSX view and the README's tour included, and a wrong message does not", async () => {
  const dir = await generatedApp("typed");
  writeFileSync(join(dir, "badge.tsx"), `export const badge = (n: number) => <span class="badge">{n}</span>;\n`);
  // The README's tour replaces app.ts with a typed to-do list: it compiles in the app init wrote.
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const tour = /```ts\n(import \{ Live, Ui \} from "svc-live";\nimport \{ loadEnv \} from "\.\/env\.ts";[\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(tour !== undefined && tour.includes("Live.app<Model, Messages>"), "the README's tour, in its typed form");
  writeFileSync(join(dir, "tour.ts"), tour);
  const tsc = join(REPO, "node_modules", "typescript", "bin", "tsc");
  // The Node program on PATH runs the compiler, whichever runtime runs this test.
  const ok = spawnSync("node", [tsc, "-p", dir], { encoding: "utf8" });
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  const app = readFileSync(join(dir, "app.ts"), "utf8");
  writeFileSync(join(dir, "app.ts"), app.replace(`onClick: "Increment"`, `onClick: "Incremnt"`));
  const bad = spawnSync("node", [tsc, "-p", dir], { encoding: "utf8" });
  assert.notEqual(bad.status, 0, "a misspelled message is a type error");
  assert.match(bad.stdout, /app\.ts\(\d+,\d+\): error TS\d+: Type '"Incremnt"' is not assignable/);
});

test("the app init writes, started on a port that is taken, says so and names PORT", async () => {
  const dir = await generatedApp("port");
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "0.0.0.0", resolve));
  const port = (holder.address() as { port: number }).port;
  try {
    const argv = runtime === "Deno" ? ["run", "-A", "server.ts"] : ["start.js"];
    const result = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      // Asynchronous: this process holds the port, and must keep serving it while the app tries.
      import("node:child_process").then(({ spawn }) => {
        const child = spawn(process.execPath, argv, { cwd: dir, env: { ...process.env, PORT: String(port), NODE_ENV: "development" } });
        let stderr = "";
        child.stderr.on("data", (chunk) => (stderr += chunk));
        const timer = setTimeout(() => child.kill(), 60_000);
        child.on("close", (status) => (clearTimeout(timer), resolve({ status, stderr })));
      });
    });
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`port ${port} is already in use; set PORT to another port`));
  } finally {
    holder.close();
  }
});
