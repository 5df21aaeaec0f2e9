// `svc-live init <dir>` (src/cli/init.ts, src/cli/main.ts, bin/svc-live.js): the files it writes, the
// secret in .env, refusals, and the generated app running through its fetch handler.
//
// The generated package.json depends on "svc-live" as "file:<this checkout>". To import the generated
// app without a network install or a build, the test gives <dir>/node_modules/svc-live this
// checkout's sources with a package.json whose exports point at them (the published exports point
// at dist/, which a checkout does not build; scripts/package-check runs the built package).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { decodeBytes } from "../../src/runtime/base64url.ts";
import { fileSystem } from "../../src/runtime/fs.ts";
import { generateSecret, init, SECRET_BYTES } from "../../src/cli/init.ts";
import { main, shellWord } from "../../src/cli/main.ts";
import { LiveApp } from "../../src/live/server/app/app.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]+$/, "");
const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
const scratch = mkdtempSync(join(tmpdir(), "svc-init-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

let counter = 0;
const freshDir = () => join(scratch, `app-${++counter}`);
const SECRET_LINE = /^SVC_AUTH_TOKEN_SECRET=([A-Za-z0-9_-]+)$/m;

function secretOf(dir: string): string {
  const match = SECRET_LINE.exec(readFileSync(join(dir, ".env"), "utf8"));
  assert.ok(match, ".env has an SVC_AUTH_TOKEN_SECRET line");
  return match[1]!;
}

function captured() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) }, out, err };
}

test("init writes the app, its env loader, a server for Node, Bun and Deno, package.json and deno.json with a start script, .env, .gitignore and a README into a new directory", async () => {
  const dir = freshDir();
  const done = await init(fileSystem, dir);
  assert.ok(done.ok, done.ok ? "" : done.error.message);
  assert.deepEqual(readdirSync(dir).sort(), [
    ".env",
    ".gitignore",
    "README.md",
    "app.ts",
    "bunfig.toml",
    "deno.json",
    "env.ts",
    "package.json",
    "server.ts",
    "start.js",
    "tsconfig.json",
  ]);
  assert.equal(done.value.dir, dir);

  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    name: string;
    type: string;
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
  };
  assert.equal(pkg.name, `app-${counter}`);
  assert.equal(pkg.type, "module");
  assert.deepEqual(pkg.scripts, { start: "node start.js", dev: "svc-live dev server.ts", check: "tsc -p ." });
  assert.equal(pkg.dependencies["svc-live"], `file:${REPO}`, "from a checkout, the app depends on the checkout");
  const own = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
    peerDependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  assert.equal(
    pkg.dependencies["hono"],
    own.peerDependencies["hono"],
    "the app depends on svc-live's peer, Hono, in the range svc-live asks for",
  );
  assert.equal(pkg.dependencies["@hono/node-server"], own.devDependencies["@hono/node-server"]);
  assert.equal(pkg.dependencies["tsx"], own.devDependencies["tsx"]);
  const deno = JSON.parse(readFileSync(join(dir, "deno.json"), "utf8")) as {
    tasks: Record<string, string>;
    compilerOptions: Record<string, unknown>;
  };
  assert.equal(deno.tasks["start"], "deno run -A server.ts");
  assert.equal(deno.tasks["check"], "deno check server.ts");
  assert.equal(deno.tasks["dev"], "SVC_LIVE_DEV_LOOP=1 deno run -A --watch server.ts");
  assert.deepEqual(deno.compilerOptions, { strict: true, jsx: "react-jsx", jsxImportSource: "svc-live" });
  const tsconfig = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
  assert.equal(tsconfig.compilerOptions["strict"], true);
  assert.equal(tsconfig.compilerOptions["jsx"], "react-jsx");
  assert.equal(tsconfig.compilerOptions["jsxImportSource"], "svc-live");
  assert.equal(
    (pkg as unknown as { devDependencies: Record<string, string> }).devDependencies["typescript"],
    own.devDependencies["typescript"],
  );
  assert.match(readFileSync(join(dir, "bunfig.toml"), "utf8"), /^\[run\]\nbun = true$/m, "bun run start serves with Bun, not Node");
  assert.match(readFileSync(join(dir, "server.ts"), "utf8"), /process\.env\["PORT"\]/);

  const app = readFileSync(join(dir, "app.ts"), "utf8");
  assert.match(app, /from "svc-live"/);
  assert.match(app, /^export const app = Live\.app</m, "the live app is exported, so doctor finds it");
  assert.match(app, /loadEnv\(new URL\("\.env", import\.meta\.url\)\)/, "the app loads its .env");
  assert.match(app, /onClick: "Increment"/);
  assert.match(app, /onInput: "SetName"/);
  assert.match(readFileSync(join(dir, ".gitignore"), "utf8"), /^\.env$/m);
  assert.match(readFileSync(join(dir, "README.md"), "utf8"), /npm start/);
});

test(".env holds a base64url SVC_AUTH_TOKEN_SECRET of 32 random bytes, different on every run, readable by the owner only", async () => {
  const [a, b] = [freshDir(), freshDir()];
  assert.ok((await init(fileSystem, a)).ok);
  assert.ok((await init(fileSystem, b)).ok);
  const [first, second] = [secretOf(a), secretOf(b)];
  assert.equal(decodeBytes(first).length, SECRET_BYTES);
  assert.ok(new TextEncoder().encode(first).length >= 32, "the secret is at least 32 bytes, as the production gate requires");
  assert.notEqual(first, second);
  // Randomness, coarsely: 200 secrets are distinct and their bytes cover most of 0..255.
  const many = Array.from({ length: 200 }, generateSecret);
  assert.equal(new Set(many).size, many.length);
  const seen = new Set(many.flatMap((s) => [...decodeBytes(s)]));
  assert.ok(seen.size > 250, `${seen.size} distinct byte values`);
  if (process.platform !== "win32") assert.equal(statSync(join(a, ".env")).mode & 0o077, 0, ".env is not readable by others");
});

test("init refuses a directory that is not empty, and leaves it as it was", async () => {
  const dir = freshDir();
  mkdirSync(dir);
  writeFileSync(join(dir, "keep.txt"), "mine");
  const done = await init(fileSystem, dir);
  assert.equal(done.ok, false);
  assert.equal(done.ok ? "" : done.error.code, "dir_not_empty");
  assert.deepEqual(readdirSync(dir), ["keep.txt"]);
  const empty = freshDir();
  mkdirSync(empty);
  assert.ok((await init(fileSystem, empty)).ok, "an existing empty directory is fine");
});

test("the generated app imports, loads its .env, and renders its page through its fetch handler", async () => {
  const dir = freshDir();
  assert.ok((await init(fileSystem, dir)).ok);
  const shim = join(dir, "node_modules", "svc-live");
  mkdirSync(shim, { recursive: true });
  symlinkSync(join(REPO, "src"), join(shim, "src"), "dir");
  // Deno resolves the sources' own imports from the shim's path, not the link's target.
  symlinkSync(join(REPO, "node_modules"), join(shim, "node_modules"), "dir");
  writeFileSync(join(shim, "package.json"), JSON.stringify({ name: "svc-live", type: "module", exports: { ".": "./src/mod.ts" } }));

  const before = process.env["SVC_AUTH_TOKEN_SECRET"];
  delete process.env["SVC_AUTH_TOKEN_SECRET"];
  try {
    const mod = (await import(pathToFileURL(join(dir, "app.ts")).href)) as {
      app: unknown;
      default: { fetch: (req: Request) => Promise<Response> };
    };
    // By name: Deno loads the shim's sources as modules of their own, apart from this test's.
    assert.equal(
      (mod.app as { constructor?: { name?: string } } | undefined)?.constructor?.name,
      LiveApp.name,
      "app.ts exports the live app",
    );
    assert.equal(process.env["SVC_AUTH_TOKEN_SECRET"], secretOf(dir), "the app loaded its .env");
    const resp = await mod.default.fetch(new Request("http://app.test/"));
    assert.equal(resp.status, 200);
    const html = await resp.text();
    assert.match(html, /<title>app-\d+<\/title>/);
    assert.match(html, /<h1[^>]*id="greeting"[^>]*>Hello!<\/h1>/);
    assert.match(html, /<output[^>]*id="count"[^>]*>0<\/output>/);
    assert.match(html, /data-svc-click="Increment"/);
    assert.match(html, /<script type="module" src="\?_svc=client\.js&amp;v=[0-9a-f]{16}"><\/script>/);
  } finally {
    if (before === undefined) delete process.env["SVC_AUTH_TOKEN_SECRET"];
    else process.env["SVC_AUTH_TOKEN_SECRET"] = before;
  }
});

test("the command line dispatches init, and answers no command or an unknown one with usage and exit code 2", async () => {
  const none = captured();
  assert.equal(await main([], none.io), 2);
  assert.match(none.out.join("\n"), /usage: svc-live <command>[\s\S]*svc-live init <dir>/);

  const unknown = captured();
  assert.equal(await main(["frobnicate"], unknown.io), 2);
  assert.match(unknown.err.join("\n"), /unknown command "frobnicate"/);

  const missing = captured();
  assert.equal(await main(["init"], missing.io), 2);
  assert.match(missing.err.join("\n"), /usage: svc-live init <dir>/);

  const dir = freshDir();
  const ran = captured();
  assert.equal(await main(["init", dir, "--svc", "^0.1.0"], ran.io), 0);
  assert.match(ran.out.join("\n"), /Created .*\.env/);
  assert.equal(
    (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["svc-live"],
    "^0.1.0",
  );

  // A folder name a shell would split or expand is printed quoted, ready to paste.
  const spaced = join(freshDir(), "My App!");
  const named = captured();
  assert.equal(await main(["init", spaced, "--svc", "^0.1.0"], named.io), 0);
  assert.ok(named.out.join("\n").includes(`Next: cd '${spaced}' && npm install`), named.out.join("\n"));
  assert.equal(shellWord("it's"), `'it'\\''s'`);
  assert.equal(shellWord("my-app"), "my-app");

  const again = captured();
  assert.equal(await main(["init", dir], again.io), 1);
  assert.match(again.err.join("\n"), /not empty/);

  // Options (node:util parseArgs, strict): `--name value` and `--name=value`; any other option is a usage error.
  const other = freshDir();
  assert.equal(await main(["init", other, "--svc=^0.2.0"], captured().io), 0);
  assert.equal(
    (JSON.parse(readFileSync(join(other, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["svc-live"],
    "^0.2.0",
  );
  for (const args of [["init", freshDir(), "--force"], ["doctor", "app.ts", "--verbose"]]) {
    const bad = captured();
    assert.equal(await main(args, bad.io), 2, args.join(" "));
    assert.match(bad.err.join("\n"), new RegExp(`unknown option ${args[2]}`));
  }
  // An option without its value is a usage error too, not an option left out.
  const bare = captured();
  assert.equal(await main(["init", freshDir(), "--svc"], bare.io), 2);
  assert.match(bare.err.join("\n"), /--svc <value>' argument missing[\s\S]*usage: svc-live init <dir>/);
});

test("init run from an installed package without --svc warns at once that the app's svc-live comes from the registry; from a checkout or with --svc it does not", async () => {
  // svc-live as an installed package sees no tsconfig.json at its root (the package ships none).
  const installed = {
    ...fileSystem,
    list: async (dir: string) => (await fileSystem.list(dir))?.filter((name) => dir !== REPO || name !== "tsconfig.json"),
  };
  const own = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
  const fromRegistry = await init(installed, freshDir());
  assert.ok(fromRegistry.ok);
  assert.match(
    fromRegistry.value.warning ?? "",
    new RegExp(`depends on svc-live \\^${own.version.replaceAll(".", "\\.")} from the npm registry[\\s\\S]*--svc "file:`),
  );
  assert.equal(
    (JSON.parse(readFileSync(join(fromRegistry.value.dir, "package.json"), "utf8")) as { dependencies: Record<string, string> })
      .dependencies["svc-live"],
    `^${own.version}`,
  );
  const given = await init(installed, freshDir(), { svc: "file:/tmp/svc-live.tgz" });
  assert.ok(given.ok);
  assert.equal(given.value.warning, undefined);
  const checkout = await init(fileSystem, freshDir());
  assert.ok(checkout.ok);
  assert.equal(checkout.value.warning, undefined);
});

test("bin/svc-live.js runs init as a program and exits 0", () => {
  const bin = join(REPO, "bin", "svc-live.js");
  const dir = freshDir();
  const args = runtime === "Deno" ? ["run", "-A", bin, "init", dir] : [bin, "init", dir];
  const result = spawnSync(process.execPath, args, { encoding: "utf8", cwd: REPO });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /Created /);
  assert.ok(SECRET_LINE.test(readFileSync(join(dir, ".env"), "utf8")));
});
